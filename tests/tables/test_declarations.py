"""Declarations in the hand entry (issue 5, point 2): what each player said for pares and
juego, stored in the record's `declared`, and the recuento saying who lied and what it cost."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Hand, Table

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
# Bruno (seat 1) holds R C 6 5: no pares; Ana and Carla hold a par each, Diego none.
LIE_CARDS = {"c0": "R R 5 4", "c1": "R C 6 5", "c2": "1 1 6 7", "c3": "S 4 7 6"}
# Ana envida 2 at pares and Bruno's side wants it, believing Bruno's "pares sí".
PARES_QUERIDO = {"b_pares": "A2", "e_pares": "quiero"}


def make_table() -> Table:
    return services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])


def url(table: Table, name: str, *args: Any) -> str:
    return reverse(name, args=[table.id, table.edit_key, *args])


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def save(client: Client, table: Table, data: dict[str, str], **kwargs: Any) -> Any:
    return client.post(url(table, "tables:hand"), {"act": "save", **data}, **kwargs)


class FormFields(HTMLParser):
    """The fields a browser would post from the page's #entry form (checked radios only)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag != "input" or not a.get("name"):
            return
        if a.get("type") == "radio" and "checked" not in a:
            return
        self.fields[str(a["name"])] = a.get("value") or ""


def fields_of(response: Any) -> dict[str, str]:
    parser = FormFields()
    parser.feed(response.content.decode())
    return parser.fields


def test_a_lie_entered_in_the_hand_is_stored_and_the_recuento_says_who_lied_and_what_it_cost(
    client: Client,
) -> None:
    table = make_table()
    response = save(client, table, {**LIE_CARDS, "dp1": "si", **PARES_QUERIDO})
    assert response.status_code == 302
    record = Hand.objects.get().record
    assert record["declared"] == {"1": {"pares": True}}
    expected = rules.score({**record, "mano": 0, "score": {"A": 0, "B": 0}})
    assert [lie["seat"] for lie in expected["lies"]] == [1]
    cost = next(s for s in expected["recuento"] if s["why"] == "mentira")["points"]
    said = (
        f"Bruno dijo pares y no los tiene: el lance es para Ana y Carla, y Bruno y Diego "
        f"pierden lo apostado ({cost} piedras para Ana y Carla)."
    )
    board = text_of(client.get(url(table, "tables:edit_board")))
    assert said in board
    assert f"Pares: Ana y Carla +{cost} (por la mentira)" in board
    history = text_of(client.get(reverse("tables:history", args=[table.id])))
    assert said in history


def test_the_preview_shows_the_lie_before_saving_and_the_pares_lance_is_bet_on(
    client: Client,
) -> None:
    table = make_table()
    # Without the lie only Ana's side has pares: nothing to bet, they collect alone.
    honest = client.post(url(table, "tables:hand"), {**LIE_CARDS, "act": "check"}, **HX)
    assert "Solo Ana·Carla tienen pares" in text_of(honest)
    lied = client.post(
        url(table, "tables:hand"), {**LIE_CARDS, "dp1": "si", **PARES_QUERIDO, "act": "check"},
        **HX,
    )
    page = text_of(lied)
    assert lied.status_code == 200
    assert "Bruno dijo pares y no los tiene" in page
    assert not Hand.objects.exists()


def test_declarations_that_agree_with_the_cards_store_nothing(client: Client) -> None:
    table = make_table()
    # The page's own toggles, untouched, post "" (follow the cards).
    page = client.get(url(table, "tables:hand"))
    assert page.status_code == 200
    shown = client.post(url(table, "tables:hand"), {**LIE_CARDS, "act": "check"}, **HX)
    fields = fields_of(shown)
    assert fields["dp1"] == "" and fields["dj1"] == ""
    save(client, table, {**fields, **LIE_CARDS})
    assert "declared" not in Hand.objects.get().record


def test_a_seat_saying_no_to_pares_it_holds_does_not_play_them(client: Client) -> None:
    table = make_table()
    save(client, table, {**LIE_CARDS, "dp0": "no", "dp2": "no"})
    record = Hand.objects.get().record
    assert record["declared"] == {"0": {"pares": False}, "2": {"pares": False}}
    result = services.table_state(table)["current"]["hands"][0]["result"]
    # Nobody played pares: the lance is not counted for anyone.
    assert not any(step["lance"] == "pares" for step in result["recuento"])


def test_editing_a_hand_keeps_what_was_declared(client: Client) -> None:
    table = make_table()
    save(client, table, {**LIE_CARDS, "dp1": "si", **PARES_QUERIDO})
    before = Hand.objects.get().record
    edit = client.get(url(table, "tables:edit_hand", 1))
    assert edit.status_code == 200
    fields = fields_of(edit)
    assert fields["dp1"] == "si"
    response = client.post(url(table, "tables:edit_hand", 1), {**fields, "act": "save"})
    assert response.status_code == 302, text_of(response)
    after = Hand.objects.get().record
    assert after["declared"] == before["declared"] == {"1": {"pares": True}}
    assert after["lances"] == before["lances"]


def test_editing_keeps_a_declaration_that_agreed_with_the_cards(client: Client) -> None:
    table = make_table()
    record = {"hands": {k[1]: v for k, v in LIE_CARDS.items()}, "declared": {"0": {"pares": True}}}
    services.add_hand(table, record, via="api")
    fields = fields_of(client.get(url(table, "tables:edit_hand", 1)))
    client.post(url(table, "tables:edit_hand", 1), {**fields, "act": "save"})
    assert Hand.objects.get().record["declared"] == {"0": {"pares": True}}


def test_a_declaration_that_is_not_si_or_no_is_refused_naming_the_player(client: Client) -> None:
    table = make_table()
    response = save(client, table, {**LIE_CARDS, "dj3": "quizá"})
    assert response.status_code == 400
    assert "Diego: «quizá» no es sí ni no" in text_of(response)
    assert not Hand.objects.exists()
