"""The audit in words (issue 9 point 6): names for seats, the change said as a table says it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.tables import audit, services
from muscore.tables.models import Change, Table

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}


def no_cards(chica: str = "B", **lances: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "jugadas": NOBODY,
        "winners": {"grande": "A", "chica": chica, "punto": "B"},
    }
    if lances:
        record["lances"] = lances
    return record


def make_table() -> Table:
    return services.create_table(players=NAMES)


def history_html(client: Client, table: Table) -> str:
    url = reverse("tables:edit_history", args=[table.id, table.edit_key])
    return client.get(url).content.decode()


def words(html: str) -> list[str]:
    found = re.findall(r"data-change-words>(.*?)</p>", html, re.S)
    return [re.sub(r"\s+", " ", w).strip() for w in found]


def test_a_corrected_chica_is_said_with_names_and_the_tantos(client: Client) -> None:
    table = make_table()
    services.add_hand(table, no_cards(), via="api")
    services.add_hand(table, no_cards(grande={"bets": [{"side": "A", "n": 2}], "end": "quiero"}),
                      via="api")
    services.add_hand(table, no_cards(), via="api")
    services.replace_hand(table, 3, no_cards(chica="A"), via="edit_link")
    html = history_html(client, table)
    said = words(html)
    # Newest first: the edit, then the three adds.
    assert said[0] == "Chica: Bruno y Diego -&gt; Ana y Carla; tantos de la mano 3: 1-2 -&gt; 2-1"
    assert said[1] == "tantos de la mano 3: 1-2"
    assert said[2] == "tantos de la mano 2: 2-2"
    assert '"0"' not in "".join(said)
    # The corrected hand carries the mark in the history; the others do not.
    marked = re.findall(r'id="mano-(\d+)" data-number', html.replace(' is-corrected', ''))
    assert set(marked) == {"1", "2", "3"}
    assert re.findall(r'class="history-hand is-corrected" id="mano-(\d+)"', html) == ["3"]
    assert html.count("data-corrected") == 1


def test_cards_bets_and_jugadas_changes_name_the_player() -> None:
    before = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}
    after = {
        "hands": {"0": "R R 5 5", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
        "lances": {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}],
                              "end": "no_quiero"}},
    }
    said = audit.record_changes(before, after, NAMES)
    assert said == [
        "cartas de Ana: R R 5 4 -> R R 5 5",
        "apuestas a grande: paso -> Ana y Carla: envido 2, Bruno y Diego: 5 más, "
        "Ana y Carla: no quiero",
    ]
    jugadas = audit.record_changes(
        {"jugadas": {"1": {"pares": "par", "juego": 33}}},
        {"jugadas": {"1": {"pares": "duples", "juego": 33}}},
        NAMES,
    )
    assert jugadas == ["jugadas de Bruno: pares: par, juego: 33 -> pares: duples, juego: 33"]


def test_an_undone_hand_keeps_its_mark_off_and_the_audit_says_both(client: Client) -> None:
    table = make_table()
    services.add_hand(table, no_cards(), via="api")
    services.replace_hand(table, 1, no_cards(chica="A"), via="api")
    services.undo_last(table, via="api")
    services.add_hand(table, no_cards(), via="api")
    changes = list(Change.objects.order_by("id"))
    assert audit.corrected_numbers(changes) == set()
    html = history_html(client, table)
    assert "data-corrected" not in html
    assert [c["action"] for c in audit.describe_changes(changes, services.table_state(table))] == [
        "add", "undo", "edit", "add"]
