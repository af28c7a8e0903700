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


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\u2060", "")


def test_undo_redo_and_their_notices_never_number_a_tap_as_a_hand(client: Client) -> None:
    """Issue 19 item 3: the undo page, the redo button and the board's notices say a hand
    by hands dealt ("mano 2", entry 5) and a tap as "anotación N"."""
    table = hand_and_three_taps()
    services.add_hand(table, {"hands": SEED}, via="api")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    asked = text(client.get(edit + "deshacer", headers=ES).content.decode())
    assert "¿Deshacer la mano 2?" in asked and "Sí, deshacer la mano 2" in asked
    assert "mano 5" not in asked.lower()

    def post(path: str) -> str:
        revision = Table.objects.get(pk=table.pk).revision
        response = client.post(edit + path, {"revision": str(revision)}, headers=ES)
        return text(client.get(response["Location"], headers=ES).content.decode())

    board = post("deshacer")
    assert "Mano 2 deshecha." in board and "Rehacer la mano 2 (deshecha)" in board
    board = post("rehacer")
    assert "Mano 2 rehecha" in board
    # Now the tap on top: undone and redone, it is "anotación 4", never a hand.
    services.undo_last(table, via="api")
    board = post("deshacer")
    assert "Anotación 4 deshecha." in board and "Mano 4" not in board
    assert "Rehacer la anotación 4 (deshecha)" in board
    board = post("rehacer")
    assert "Anotación 4 rehecha: vuelve a contar." in board


def test_the_change_log_numbers_hands_by_hands_dealt(client: Client) -> None:
    table = hand_and_three_taps()
    services.add_hand(table, {"hands": SEED}, via="api")
    changed = {"hands": SEED, "lances": {"grande": {"bets": [{"side": "A", "n": 2}],
                                                    "end": "no_quiero"}}}
    services.replace_hand(table, 5, changed, via="api")
    services.undo_last(table, via="api")
    log = text(client.get(f"/t/{table.id}/k/{table.edit_key}/historial",
                          headers=ES).content.decode())
    for words in ("mano 1 anotada", "anotación 2 (piedras a mano)", "mano 2 anotada",
                  "mano 2 corregida", "mano 2 deshecha", "tantos de la mano 2"):
        assert words in log, words
    for wrong in ("mano 5", "mano 3 anotada", "mano 4 anotada"):
        assert wrong not in log, wrong


def test_an_import_counts_its_hands_dealt_and_its_taps_apart(client: Client) -> None:
    table = hand_and_three_taps()
    copy = services.import_table(services.export_table(table), via="api")
    log = text(client.get(f"/t/{copy.id}/k/{copy.edit_key}/historial",
                          headers=ES).content.decode())
    assert "1 mano importada" in log and "3 anotaciones de piedras o perete" in log
