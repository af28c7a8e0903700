"""Perete at a table (issue 19): the option on /nueva and the board, the entry among the
hands named in the board, the history, the undo and the audit; refused where the table
does not play it; the calculator's option (docs/contract.md, "Perete entries")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.messages import rule_message
from muscore.rules import RuleError
from muscore.tables import services
from muscore.tables.models import Hand, Table

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
PERETE_A = {"perete": {"side": "A"}}


def make_table(**rules: Any) -> Table:
    return services.create_table(players=NAMES, rules=rules or None)


def url(table: Table, name: str = "tables:edit_board", *args: Any) -> str:
    return reverse(name, args=[table.id, table.edit_key, *args])


def text(response: Any) -> str:
    html = response.content.decode().replace("\u2060", "")  # the word joiners of "30–0"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_nueva_offers_perete_off_and_a_table_set_with_it_plays_it(client: Client) -> None:
    page = client.get(reverse("tables:new")).content.decode()
    assert 'name="perete" value="no"' in page and 'name="perete" value="si"' in page
    assert re.search(r'name="perete" value="no"[^>]*checked', page)
    assert 'data-preset-perete="no"' in page  # the seeds name no region that plays it
    base = {"players": "4", "mano": "0", "reyes": "8", "target": "40", "juegos": "2",
            "real31": "no"}
    client.post(reverse("tables:new"), base)
    client.post(reverse("tables:new"), {**base, "perete": "si"})
    off, on = Table.objects.order_by("created_at")
    assert "perete" not in off.rules  # absent is off: the table reads as before
    assert on.rules["perete"] is True
    board = text(client.get(url(on)))
    assert "con perete (4 5 6 7: un tanto)" in board
    assert "perete" not in text(client.get(url(off))).lower()


def test_a_perete_is_one_piedra_named_in_the_board_and_history_and_no_hand(
    client: Client,
) -> None:
    table = make_table(perete=True)
    services.add_hand(table, {"hands": SEED}, via="api")  # A 2, B 8; the mano to Bruno
    services.add_hand(table, PERETE_A, via="api")
    state = services.table_state(table)
    assert state["current"]["score"] == {"A": 3, "B": 8}
    assert state["current"]["next_mano"] == 1  # the cards are dealt again by Bruno
    board = text(client.get(url(table)))
    assert "Anotación 2: perete" in board
    assert "Perete de Ana y Carla: 1 piedra, 3." in board
    assert "Deshacer la última anotación" in board
    services.add_hand(table, {"hands": SEED}, via="api")
    history = text(client.get(url(table, "tables:edit_history")))
    assert "Anotación 2: perete" in history
    assert "Mano 2" in history and "Mano 3" not in history  # the perete is no hand dealt
    assert "anotación 2 (perete)" in history
    assert "perete de Ana y Carla: 1 piedra" in history  # the change log says it too
    # A perete is undone, not corrected as a hand.
    assert client.get(url(table, "tables:edit_hand", 2)).status_code == 404


def test_a_perete_is_undone_and_redone_like_a_tap(client: Client) -> None:
    table = make_table(perete=True)
    services.add_hand(table, PERETE_A, via="api")
    asked = text(client.get(url(table, "tables:undo")))
    assert "¿Deshacer la anotación 1 (perete)?" in asked and "Perete de Ana y Carla" in asked
    revision = Table.objects.get(pk=table.pk).revision
    assert client.post(url(table, "tables:undo"), {"revision": str(revision)}).status_code == 302
    assert services.table_state(table)["current"]["score"] == {"A": 0, "B": 0}
    services.redo_last(table, via="edit_link")
    assert services.table_state(table)["current"]["score"] == {"A": 1, "B": 0}
    assert list(Hand.objects.filter(table=table).values_list("record", flat=True)) == [
        PERETE_A]


def test_a_perete_at_39_wins_the_juego(client: Client) -> None:
    table = make_table(perete=True, juegos=1, target=30)
    services.add_piedras(table, "B", 29, via="api")
    services.add_hand(table, {"perete": {"side": "B"}}, via="api")
    state = services.table_state(table)
    assert state["finished"][0]["winner"] == "B"
    assert "Perete de Bruno y Diego: 1 piedra, 30: ganan el juego." in text(
        client.get(url(table, "tables:edit_history")))


def test_a_table_without_the_option_refuses_a_perete_and_stores_nothing() -> None:
    table = make_table()
    with pytest.raises(RuleError) as raised:
        services.add_hand(table, PERETE_A, via="api")
    assert "no juega el perete" in rule_message(raised.value, "es")
    assert not Hand.objects.filter(table=table).exists()


def test_the_calculator_lists_the_option_and_says_a_perete_dealt(client: Client) -> None:
    page = client.get(reverse("disputes:calculator")).content.decode()
    assert 'name="perete" value="no" checked' in page
    data = {"players": "4", "reyes": "8", "target": "40", "juegos": "2", "real31": "no",
            "c0": "4 5 6 7", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
    off = text(client.post(reverse("disputes:calculator"), data))
    assert "tiene perete" not in off
    on = text(client.post(reverse("disputes:calculator"), {**data, "perete": "si"}))
    assert "A1 tiene perete (4 5 6 7): en esta mesa es un tanto para A1 y A2" in on
    assert "Reglas: a 40, 8 reyes , perete" in on or "8 reyes, perete" in on


def tap_perete(client: Client, table: Table, side: str) -> Any:
    revision = Table.objects.get(pk=table.pk).revision
    return client.post(url(table, "tables:perete"), {"side": side, "revision": str(revision)})


def test_the_board_offers_perete_only_on_a_table_that_plays_it(client: Client) -> None:
    on, off = make_table(perete=True), make_table()
    page = client.get(url(on)).content.decode()
    assert page.count('class="perete-button"') == 2  # one under each side
    assert 'aria-label="Perete: un tanto para Ana y Carla (4 5 6 7)"' in page
    assert "perete-button" not in client.get(url(off)).content.decode()
    assert "perete-button" not in client.get(reverse("tables:board", args=[on.id])).content.decode()


def test_a_perete_tapped_on_the_board_is_stored_once_and_refused_where_not_played(
    client: Client,
) -> None:
    table = make_table(perete=True)
    revision = Table.objects.get(pk=table.pk).revision
    for _twice in range(2):  # a double tap: the same board's revision, stored once
        response = client.post(url(table, "tables:perete"),
                               {"side": "B", "revision": str(revision)})
        assert response.status_code in (302, 303)
    assert list(Hand.objects.filter(table=table).values_list("record", flat=True)) == [
        {"perete": {"side": "B"}}]
    assert "Perete de Bruno y Diego: 1 piedra, 1." in text(client.get(url(table)))
    off = make_table()
    refused = tap_perete(client, off, "A")
    assert refused.status_code == 409 and "no juega el perete" in text(refused)
    assert tap_perete(client, table, "C").status_code == 409
    assert not Hand.objects.filter(table=off).exists()
    view = client.post(reverse("tables:board", args=[table.id]) + "perete", {"side": "A"})
    assert view.status_code in (403, 404, 405)
