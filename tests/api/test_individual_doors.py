"""Individual play of 3 or more (issue 37) at every door.

The engine, the command line, POST /score and /replay and a table (its pages and its API:
tests/api/test_individual_tables_api.py) keep it; the calculator's form and a league keep
two sides until their turn comes, say so in a player's words and store nothing; tables of
2, 4 and 6 work as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from muscore import permalink
from muscore.leagues import LeagueError, read_league
from tests.leagues.helpers import league

pytestmark = pytest.mark.django_db
THREE = {"rules": {"players": 3}, "hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}}


def post(client: Any, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(("rules", "players"), [
    ({"players": 3}, 3), ({"players": 5}, 5), ({"players": 4, "individual": True}, 4),
    ({"players": 6, "individual": True}, 6),
])
def test_a_table_each_for_himself_of_three_or_more_is_made(
    client: Any, rules: dict[str, Any], players: int
) -> None:
    response = post(client, "/api/v1/tables", {"rules": rules})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["rules"] == {"players": players, "reyes": 8, "target": 40, "juegos": 2,
                             "real31": "no", "individual": True}
    assert body["players"] == list("ABCDEF"[:players])
    assert body["current"]["score"] == dict.fromkeys("ABCDEF"[:players], 0)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_tables_of_two_four_and_six_are_made_as_before(client: Any, players: int) -> None:
    response = post(client, "/api/v1/tables", {"rules": {"players": players}})
    assert response.status_code == 201, response.content
    assert response.json()["rules"] == {"players": players, "reyes": 8, "target": 40,
                                        "juegos": 2, "real31": "no"}


def test_the_calculator_says_it_does_not_count_a_hand_of_three_yet(client: Any) -> None:
    response = client.get(f"/calculadora/?h={permalink.encode(THREE)}")
    assert response.status_code == 400
    assert "La calculadora aún no cuenta manos de 3 jugadores cada uno por su cuenta." in (
        response.content.decode())


def test_a_league_is_between_two_sides() -> None:
    document = league(4, [])
    document["rules"] = {"players": 3}
    with pytest.raises(LeagueError) as raised:
        read_league(document)
    assert raised.value.code == "individual_rules"
    assert str(raised.value) == ("The league's rules: a league's matches are between two pairs "
                                 "(or two players), not 3 players each for himself.")
