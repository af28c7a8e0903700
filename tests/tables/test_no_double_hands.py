"""No hand lost or counted twice through the pages (issue #4.3): a double tap, a retry
after the signal dropped, a hand number another phone filled, a stale edit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from muscore.tables import board, services
from muscore.tables.models import Change, Hand, Table

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
CARDS = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
OTHER = {**CARDS, "c0": "R R 5 5", "c3": "S S 7 4"}
CLIENT_ID = "5b0e5f0e-9f5a-4c35-8a57-3b1a8b1f7a01"


def make_table() -> Table:
    return services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])


def hand_url(table: Table, *number: int) -> str:
    name = "tables:edit_hand" if number else "tables:hand"
    return reverse(name, args=[table.id, table.edit_key, *number])


def save(client: Client, table: Table, data: dict[str, str], *number: int, **kw: Any) -> Any:
    return client.post(hand_url(table, *number), {"act": "save", **data}, **kw)


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def edit_url(table: Table) -> str:
    return reverse("tables:edit_board", args=[table.id, table.edit_key])


def record_of(cards: dict[str, str]) -> dict[str, Any]:
    return {"hands": {key[1:]: value for key, value in cards.items()}}


def test_a_double_tap_with_htmx_gets_the_same_answer_twice_and_one_hand(client: Client) -> None:
    table = make_table()
    data = {"client_id": CLIENT_ID, "number": "1", **CARDS}
    first = save(client, table, data, headers=HX)
    second = save(client, table, data, headers=HX)
    assert first.status_code == second.status_code == 200
    # The board in place of the hand page, both times the same (issue 38.4).
    assert first["HX-Push-Url"] == second["HX-Push-Url"] == edit_url(table)
    assert first["Muscore-Saved"] == second["Muscore-Saved"] == "1"
    assert Hand.objects.count() == 1
    assert Change.objects.filter(action="add").count() == 1


def test_a_retry_after_the_signal_dropped_is_the_same_hand_even_after_another_phone_saved(
    client: Client,
) -> None:
    table = make_table()
    data = {"client_id": CLIENT_ID, "number": "1", **CARDS}
    assert save(client, table, data).status_code == 302  # stored; the answer got lost
    services.add_hand(table, record_of(OTHER), via="api")  # meanwhile, hand 2 elsewhere
    retry = save(client, table, data)
    assert retry.status_code == 302
    assert retry.url == reverse("tables:edit_board", args=[table.id, table.edit_key])
    assert list(Hand.objects.values_list("number", "client_id")) == [(1, CLIENT_ID), (2, None)]


def test_a_hand_number_another_phone_filled_shows_that_hand_and_overwrites_nothing(
    client: Client,
) -> None:
    table = make_table()
    services.add_hand(table, record_of(CARDS), via="api")  # the other phone's hand 1
    before = services.table_state(table)
    response = save(client, table, {"number": "1", **OTHER}, headers=HX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Otro móvil guardó la mano 1: aquí está." in text_of(response)
    # The stored hand, with its recuento, as the other phone saved it.
    stored = services.hand_entry(table, 1)
    shown = re.search(r'<section class="conflict" data-conflict="1">.*?</section>', html, re.S)
    assert shown
    lines = board.recuento_lines(stored["result"], table.players)
    assert lines
    for line in lines:
        assert escape(line) in shown.group(0)
    score = stored["result"]["score"]
    assert f"Queda {score['A']}–{score['B']}" in text_of(response)
    assert services.table_state(table) == before
    assert Hand.objects.get().record == record_of(CARDS)


def test_a_conflict_names_the_hand_as_players_number_it(client: Client) -> None:
    """Issue 30.6: after three piedras taps the fourth entry is "Mano 1"; another phone's
    hand there is "la mano 1", not "la mano 4" (the entry number)."""
    table = make_table()
    for _ in range(3):
        services.add_piedras(table, "A", 1, via="api")
    services.add_hand(table, record_of(CARDS), via="api")  # the other phone's Mano 1 (entry 4)
    response = save(client, table, {"number": "4", **OTHER}, headers=HX)
    assert response.status_code == 409
    assert "Otro móvil guardó la mano 1: aquí está." in text_of(response)
    assert "la mano 4" not in text_of(response)


def test_a_stale_edit_shows_the_hand_as_stored_and_changes_nothing(client: Client) -> None:
    table = make_table()
    services.add_hand(table, record_of(CARDS), via="api")
    started = Table.objects.get().revision
    # Another phone corrects hand 1 while this one is correcting it too.
    bets = {"grande": {"bets": [{"side": "B", "n": 5}], "end": "quiero"}}
    services.replace_hand(table, 1, {**record_of(CARDS), "lances": bets}, via="api")
    response = save(
        client,
        table,
        {"revision": str(started), "b_grande": "A2", "e_grande": "quiero", **CARDS},
        1,
        headers=HX,
    )
    assert response.status_code == 409
    assert "Otro móvil cambió la mesa mientras corregías la mano 1" in text_of(response)
    assert 'data-conflict="1"' in response.content.decode()
    assert Hand.objects.get().record["lances"] == bets
    assert Change.objects.filter(action="edit").count() == 1


def test_an_edit_carries_the_revision_it_started_from(client: Client) -> None:
    table = make_table()
    services.add_hand(table, record_of(CARDS), via="api")
    html = client.get(hand_url(table, 1)).content.decode()
    revision = Table.objects.get().revision
    assert f'name="revision" value="{revision}"' in html
