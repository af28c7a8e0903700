"""Individual play at the table API (issue 37): every shared example of individual play
(tests/rules/data/individual*.jsonl, copied from the contract's examples) stored as a
table's hand or vaca answers what the engine answers; records that break the contract
are refused in a player's words and change nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Change, Hand, Table

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "rules" / "data"
HANDS = [json.loads(line) for line in (DATA / "individual.jsonl").read_text().splitlines()
         if line.strip()]
VACAS = [json.loads(line) for line in
         (DATA / "individual_vacas.jsonl").read_text().splitlines() if line.strip()]
SCORED = [case for case in HANDS if "error" not in case["expect"]]
THREE_CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}


def post(client: Client, url: str, body: Any, key: str | None = None) -> Any:
    headers = {"X-Table-Key": key} if key is not None else {}
    return client.post(url, json.dumps(body), content_type="application/json",
                       headers=headers)


def new_table(client: Client, rules_: dict[str, Any], mano: int = 0) -> tuple[str, str]:
    response = post(client, "/api/v1/tables", {"rules": rules_, "mano": mano})
    assert response.status_code == 201, response.content
    body = response.json()
    return body["id"], body["edit_key"]


def stored(table_id: str) -> tuple[Any, ...]:
    table = Table.objects.get(id=table_id)
    return (table.revision, list(Hand.objects.filter(table=table).values_list("record")),
            Change.objects.filter(table=table).count())


@pytest.mark.parametrize("case", SCORED, ids=[case["name"][:50] for case in SCORED])
def test_every_individual_example_is_a_tables_hand(client: Client, case: dict[str, Any]) -> None:
    record = dict(case["record"])
    table_id, key = new_table(client, record.pop("rules"), record.pop("mano", 0))
    # The score before the hand, as piedras tapped by hand (which do not move the mano).
    for side, n in (record.pop("score", None) or {}).items():
        if n:
            response = post(client, f"/api/v1/tables/{table_id}/piedras",
                            {"side": side, "n": n}, key)
            assert response.status_code == 201, response.content
    response = post(client, f"/api/v1/tables/{table_id}/hands", record, key)
    assert response.status_code == 201, response.content
    hand = response.json()["current"]["hands"][-1]
    expected = case["expect"]
    for field in ("score", "winner", "ended_by", "lances"):
        assert hand["result"][field] == expected[field], field
    # Each step as the example writes it (its premiums and reasons left out there).
    steps = hand["result"]["recuento"]
    assert [{key: step[key] for key in want} for step, want in
            zip(steps, expected["recuento"], strict=True)] == expected["recuento"]


@pytest.mark.parametrize("case", VACAS, ids=[case["name"] for case in VACAS])
def test_every_individual_vaca_is_a_tables_vaca(client: Client, case: dict[str, Any]) -> None:
    vaca = case["record"]
    table_id, key = new_table(client, vaca["rules"], vaca.get("mano", 0))
    for record in vaca["hands"]:
        response = post(client, f"/api/v1/tables/{table_id}/hands", record, key)
        assert response.status_code == 201, response.content
    state = client.get(f"/api/v1/tables/{table_id}").json()
    replayed = rules.replay(vaca)
    vacas = [*state["finished"], state["current"]]
    first = vacas[0]
    assert first["juegos"] == replayed["juegos"]
    assert first["winner"] == replayed["winner"] == case["expect"]["winner"]
    # The board and the history of that table read it too.
    table = Table.objects.get(id=table_id)
    assert client.get(f"/t/{table.id}/").status_code == 200
    assert client.get(f"/t/{table.id}/historial").status_code == 200


def test_three_players_in_pairs_is_refused(client: Client) -> None:
    response = post(client, "/api/v1/tables", {"rules": {"players": 3, "individual": False}})
    assert response.status_code == 400
    assert "3" in response.json()["error"]
    assert not Table.objects.exists()


@pytest.mark.parametrize(("name", "rules_", "record", "words"), [
    ("the last bettor out", {"players": 3},
     {"hands": THREE_CARDS, "lances": {"grande": {
         "bets": [{"side": "A", "n": 2}], "end": "quiero", "out": ["A"]}}}, "A"),
    ("quiero with nobody left", {"players": 3},
     {"hands": THREE_CARDS, "lances": {"grande": {
         "bets": [{"side": "A", "n": 2}], "end": "quiero", "out": ["B", "C"]}}}, "grande"),
    ("out in a pairs game", {"players": 4},
     {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
      "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero",
                            "out": ["B"]}}}, "out"),
    ("a side not at the table", {"players": 3},
     {"hands": THREE_CARDS, "lances": {"grande": {
         "bets": [{"side": "D", "n": 2}], "end": "no_quiero"}}}, "D"),
    ("a bet from a player who does not play the lance", {"players": 3},
     {"hands": {**THREE_CARDS, "1": "R C S 5"}, "lances": {"pares": {
         "bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}}, "pares"),
])
def test_a_record_that_breaks_the_contract_changes_nothing(
    client: Client, name: str, rules_: dict[str, Any], record: dict[str, Any], words: str
) -> None:
    table_id, key = new_table(client, rules_)
    before = stored(table_id)
    response = post(client, f"/api/v1/tables/{table_id}/hands", record, key)
    assert response.status_code == 400, (name, response.content)
    assert words in response.json()["error"], response.json()
    assert stored(table_id) == before


def test_piedras_for_a_player_not_at_the_table_change_nothing(client: Client) -> None:
    table_id, key = new_table(client, {"players": 3})
    before = stored(table_id)
    response = post(client, f"/api/v1/tables/{table_id}/piedras", {"side": "D", "n": 2}, key)
    assert response.status_code == 400
    assert response.json()["error"] == (
        'piedras are for a player of the table: "A", "B", "C"')
    assert stored(table_id) == before


def test_a_table_of_five_exports_and_imports_the_same(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego", "Eva"])
    services.add_piedras(table, "E", 7, via="api")
    services.add_hand(table, {"jugadas": {str(s): {"pares": "no", "juego": "no"}
                                          for s in range(5)},
                              "winners": {"grande": "B", "chica": "D", "punto": "E"}},
                      via="api")
    exported = client.get(f"/api/v1/tables/{table.id}/export").json()
    assert exported["rules"]["players"] == 5 and exported["rules"]["individual"] is True
    response = post(client, "/api/v1/tables/import", exported)
    assert response.status_code == 201, response.content
    again = response.json()
    assert again["current"]["hands"][-1]["score"] == {"A": 0, "B": 1, "C": 0, "D": 1, "E": 8}
    assert again["players"] == ["Ana", "Bruno", "Carla", "Diego", "Eva"]
