"""Issue 37, "How it is checked": the records that break the contract of individual play
give a clear error and change nothing at every door: the command line, POST /api/v1/score
(English and a player's language), the table API (tests/api/test_individual_tables_api.py)
and the page (the new table's setup and the hand entry's talk).

The six breaches the issue names: three players in pairs, the last bettor out, quiero with
nobody left, ``out`` in a pairs game, a side not at the table, a bet from a player who does
not play the lance. Each error names the player and the lance.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.rules import RuleError, score
from muscore.tables import services
from muscore.tables.models import Change, Hand, Table

ROOT = Path(__file__).resolve().parent.parent.parent
THREE = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}
GRANDE_A = {"bets": [{"side": "A", "n": 2}], "end": "quiero"}

# name, record, the engine's code, its English.
BREACHES: list[tuple[str, dict[str, Any], str, str]] = [
    ("three players in pairs", {"rules": {"players": 3, "individual": False}, "hands": THREE},
     "pairs_players", "A table of 3 cannot play in pairs (pairs are 4 or 6 players): each "
     "plays for himself, so 'individual' cannot be false."),
    ("the last bettor out", {"rules": {"players": 3}, "hands": THREE,
                             "lances": {"grande": {**GRANDE_A, "out": ["A"]}}},
     "out_last_bettor", "grande: player A made the last bet, so he cannot have left the "
     "lance: the others answer his bet."),
    ("quiero with nobody left", {"rules": {"players": 3}, "hands": THREE,
                                 "lances": {"grande": {**GRANDE_A, "out": ["B", "C"]}}},
     "quiero_nobody", "grande: nobody was left to say quiero to player A's bet (B and C left "
     "the lance): the answer was no quiero."),
    ("out in a pairs game", {"rules": {"players": 4}, "hands": {**THREE, "3": "S S 7 7"},
                             "lances": {"grande": {**GRANDE_A, "out": ["B"]}}},
     "out_pairs", "grande: 'out' is for individual play of 3 or more players; with two "
     "sides a no quiero ends the lance."),
    ("a side not at the table", {"rules": {"players": 3}, "hands": THREE, "lances": {
        "grande": {"bets": [{"side": "D", "n": 2}], "end": "no_quiero"}}},
     "bet_player", 'grande, bet 1: the player who bets must be one of A, B and C, not "D".'),
    ("a bet from a player who does not play the lance",
     {"rules": {"players": 3}, "hands": {**THREE, "1": "R C S 5"}, "lances": {
         "pares": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}},
     "bet_not_playing", "pares: player B does not play pares, so he cannot bet in it (bet 1); "
     "pares is played by A and C."),
]
IDS = [name for name, *_ in BREACHES]


@pytest.mark.parametrize(("name", "record", "code", "english"), BREACHES, ids=IDS)
def test_the_engine_refuses_each_breach_in_words(
    name: str, record: dict[str, Any], code: str, english: str
) -> None:
    with pytest.raises(RuleError) as raised:
        score(record)
    assert (raised.value.code, str(raised.value)) == (code, english), name


def test_the_command_line_refuses_each_breach_and_scores_the_rest() -> None:
    good = {"rules": {"players": 3}, "hands": THREE}
    lines = [json.dumps(record) for _name, record, _code, _english in BREACHES]
    done = subprocess.run(
        [sys.executable, "-m", "muscore.rules", "score"],
        input="\n".join([*lines, json.dumps(good)]) + "\n",
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 2
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert out[:-1] == [{"error": english} for *_rest, english in BREACHES]
    assert out[-1] == json.loads(json.dumps(score(good)))


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "record", "code", "english"), BREACHES, ids=IDS)
def test_the_score_api_refuses_each_breach(
    client: Client, name: str, record: dict[str, Any], code: str, english: str
) -> None:
    response = client.post("/api/v1/score", json.dumps(record),
                           content_type="application/json")
    assert response.status_code == 400, name
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert (body["code"], body["error"], body["status"]) == (code, english, 400)
    # In a player's language, the same refusal.
    spanish = client.post("/api/v1/score", json.dumps(record),
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish["code"] == code and spanish["detail"] != english
    assert not Table.objects.exists()


# -- the page ------------------------------------------------------------------------------

SETUP = {"target": "40", "reyes": "8", "juegos": "2", "real31": "no", "mano": "1"}
HX = {"HX-Request": "true"}


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["3p", "5p", "3x"])
def test_the_setup_page_makes_no_table_of_three_or_five_in_pairs(
    client: Client, choice: str
) -> None:
    """The setup offers 3 and 5 each for himself only; a forged choice is refused."""
    response = client.post(reverse("tables:new"), {**SETUP, "players": choice})
    assert response.status_code == 400
    assert not Table.objects.exists()


def hand_url(table: Table) -> str:
    return reverse("tables:hand", args=[table.id, table.edit_key])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "talk", "words"), [
    # The last bettor cannot leave: after Ana's envido, Bruno and Carla answer it.
    ("the last bettor out", "A:envido:2 A:no_quiero",
     "Grande: lo dicho ya no cuadra con las cartas (grande: ahora habla el jugador B, no el "
     "A.): se queda hasta ahí; repasad lo que dijo cada uno."),
    # Bruno and Carla said no quiero: the lance closed, nobody is left to say quiero.
    ("quiero with nobody left", "A:envido:2 B:no_quiero C:no_quiero B:quiero",
     "(grande: ahora no se puede decir quiero (jugador B).)"),
    ("a side not at the table", "D:envido:2",
     "(grande: ahora no se puede decir envido (jugador D).)"),
])
def test_a_saved_talk_that_breaks_the_contract_is_refused_and_stores_nothing(
    client: Client, name: str, talk: str, words: str
) -> None:
    """The page sends each lance's talk with the hand ("t_grande"); a talk the table could
    not have said (a stale or forged page) is refused in words when the hand is saved."""
    table = services.create_table(players=["Ana", "Bruno", "Carla"])
    fields = {"c0": THREE["0"], "c1": THREE["1"], "c2": THREE["2"], "t_grande": talk}
    response = client.post(hand_url(table), {**fields, "act": "save"})
    assert response.status_code == 400, (name, response.status_code)
    assert words in text_of(response.content.decode()), name
    assert not Hand.objects.exists() and not Change.objects.exists()
