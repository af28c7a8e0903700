"""Issue 19.6: the number a player reads counts hands dealt, not piedras taps. After a
hand and three taps the next hand is "Mano 2" on the hand entry, the board and the
history; the entry number (the record's key) stays 5."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from muscore.tables import services
from muscore.tables.models import Table

pytestmark = pytest.mark.django_db

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
ES = {"accept-language": "es"}


def hand_and_three_taps() -> Table:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": SEED}, via="api")
    for _tap in range(3):
        services.add_piedras(table, "B", 1, via="api")
    return table


def test_the_hand_entry_titles_the_next_hand_by_hands_dealt(client: Client) -> None:
    table = hand_and_three_taps()
    page = client.get(f"/t/{table.id}/k/{table.edit_key}/mano", headers=ES).content.decode()
    assert "<h1>Mano 2</h1>" in page
    assert "<title>Mano 2 · muscore" in page
    assert "Mano 5" not in page
    # The form still posts the entry number: the stored record's key.
    assert re.search(r'name="number" value="5"', page)


def test_the_board_history_and_correction_count_hands_dealt(client: Client) -> None:
    table = hand_and_three_taps()
    services.add_hand(table, {"hands": SEED}, via="api")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    board = client.get(edit, headers=ES).content.decode()
    assert "<h2>Mano 2</h2>" in board and "Mano 5" not in board
    history = client.get(edit + "historial", headers=ES).content.decode()
    assert "Mano 2 <small>" in history and "Mano 5 <small>" not in history
    assert "Corregir la mano 2" in history
    # The hand is still entry 5: its correction link and anchor use it.
    assert 'id="mano-5"' in history
    correct = client.get(edit + "mano/5", headers=ES).content.decode()
    assert "<h1>Corregir la mano 2</h1>" in correct


def test_dealt_number_without_taps_is_the_entry_number() -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": SEED}, via="api")
    assert services.dealt_number(table, 2) == 2
    services.add_piedras(table, "A", 2, via="api")
    assert services.dealt_number(table, 3) == 2


def test_the_board_notices_count_hands_dealt(client: Client) -> None:
    table = hand_and_three_taps()
    services.add_hand(table, {"hands": SEED}, via="api")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    corrected = client.get(edit + "?corregida=5&cambian=5", headers=ES).content.decode()
    assert "Mano 2 corregida: cambian los tantos de las manos 2." in corrected
    undone = client.get(edit + "?deshecha=5", headers=ES).content.decode()
    assert "Mano 2 deshecha." in undone
