"""The count read aloud ("Cantar el recuento", issues 19 and 38.1): one tap speaks the
lines the board shows under the last hand, word for word, in their order and with their
totals, then the score shown under them, in the page's language, with the browser's
speech synthesis. speechSynthesis.speak is stubbed in the page to record what is said."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from muscore.tables import board, services
from muscore.tables.models import Table
from tests.browser.test_hand_entry import board_path

pytestmark = pytest.mark.django_db(transaction=True)

CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
GRANDE_DEJE = {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}], "end": "no_quiero"}
RECORD = {"hands": CARDS,
          "lances": {"grande": GRANDE_DEJE,
                     "pares": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}}
# Bruno y Diego start each hand at these piedras (tapped by hand before it).
HANDS: dict[str, tuple[int, dict[str, Any]]] = {
    # A deje first, then the count: the juego is won in the count, at juego (42).
    "count": (30, RECORD),
    # The table: a deje, a chica envido querido, the juego won in the count.
    "chica": (30, {"hands": CARDS, "lances": {
        "grande": GRANDE_DEJE, "chica": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}}),
    # A deje that wins the juego as it is said: the rest is never played.
    "deje": (38, {"hands": CARDS, "lances": {"grande": GRANDE_DEJE}}),
    # A deje, then an órdago querido: no score is left to say.
    "ordago": (12, {"hands": CARDS, "lances": {
        "grande": GRANDE_DEJE,
        "chica": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}}),
}
STUB = """
window.__spoken = [];
if (!("speechSynthesis" in window)) {
  window.speechSynthesis = {};
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
}
window.speechSynthesis.speak = function (u) { window.__spoken.push([u.text, u.lang]); };
window.speechSynthesis.cancel = function () { window.__spoken.length = 0; };
"""


def spoken(page: Page) -> list[Any]:
    return list(page.evaluate("() => window.__spoken"))


def played(key: str) -> Table:
    start, record = HANDS[key]
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_piedras(table, "B", start, via="api")
    services.add_hand(table, record, via="api")
    return table


def shown(page: Page) -> list[str]:
    """The lines the board shows under the last hand, as a reader sees them."""
    lines = page.locator(".last-hand .recuento li, .last-hand .last-score").all_inner_texts()
    return [re.sub(r"[ \t\n\r]+", " ", line).strip() for line in lines]


def test_the_spoken_count_is_the_written_count(phone: Page) -> None:
    """The four tables heard in each language in turn, in one tab (the language chosen
    on the board, as a player chooses it)."""
    tables = {key: played(key) for key in HANDS}
    page = phone
    page.add_init_script(STUB)
    for language in ("es", "en", "eu", "fr"):
        page.goto(board_path(tables["count"]))
        if language != "es":
            page.locator(f'button[name="language"][value="{language}"]').click()
            page.wait_for_load_state()
        expect(page.locator("html")).to_have_attribute("lang", language)
        heard_in(page, tables, language)


def heard_in(page: Page, tables: dict[str, Table], language: str) -> None:
    """Each table's last hand said in the page's language, as the board writes it."""
    heard: dict[str, list[str]] = {}
    for key, table in tables.items():
        page.goto(board_path(table))
        hand = services.table_state(table)["current"]["hands"][-1]
        with translation.override(language):
            expected = board.spoken_lines(hand["result"], table.players)
        button = page.locator(".last-hand [data-cantar]")
        expect(button).to_be_visible()
        button.click()
        said = spoken(page)
        assert said == [[line, language] for line in expected], (language, key)
        # Word for word, in the same order, as the screen says it.
        assert [text for text, _lang in said] == shown(page), (language, key)
        button.click()  # again: the count starts over, it is not queued twice
        assert len(spoken(page)) == len(expected), (language, key)
        heard[key] = [text for text, _lang in said]
    if language == "es":
        assert heard["chica"] == [
            "Grande: deje, Bruno y Diego +2, 32.",
            "Chica: Ana y Carla +2 querido, 2.",
            "Pares: Bruno y Diego +4, 36.",
            "Juego: Bruno y Diego +4 (solo ellos tienen), 40: ganan el juego.",
            "Queda 2–40.",
        ]
        assert heard["count"][-2:] == [
            "Juego: Bruno y Diego +4 (solo ellos tienen), 42: ganan el juego.", "Queda 1–42."]
        assert heard["deje"] == [
            "Grande: deje, Bruno y Diego +2, 40: ganan el juego.",
            "Chica, pares y juego no se juegan.",
            "Queda 0–40.",
        ]
        assert heard["ordago"] == [
            "Grande: deje, Bruno y Diego +2, 14.",
            "Órdago a chica querido: lo ganan Ana y Carla, que ganan el juego.",
            "Pares y juego no se juegan.",
        ]
    with translation.override(language):
        won = gettext("%(text)s: ganan el juego") % {"text": ""}
    for key in ("count", "chica", "deje"):  # the juego won is said where it is won
        assert sum(won in line for line in heard[key]) == 1, (language, key, heard[key])


def test_the_calculator_sings_its_answer(phone: Page) -> None:
    page = phone
    page.add_init_script(STUB)
    page.goto("/calculadora/")
    for seat, cards in RECORD["hands"].items():  # type: ignore[attr-defined]
        page.fill(f"#id_c{seat}", cards)
    page.locator("#id_c3").dispatch_event("change")
    expect(page.locator("#result [data-cantar]")).to_be_visible()
    page.locator("#result [data-cantar]").click()
    said = [text for text, _lang in spoken(page)]
    lines = page.locator("#result [data-cantar-line]").all_inner_texts()
    assert said == [re.sub(r"[ \t\n\r]+", " ", line).strip() for line in lines]
    assert said[-1].startswith("Queda ")
