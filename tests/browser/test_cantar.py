"""The count read aloud ("Cantar el recuento", issue 19): one tap queues the hand's
recuento, step by step, in the page's language, with the browser's speech synthesis.
speechSynthesis.speak is stubbed in the page to record what would be said."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from muscore.tables import board, services
from tests.browser.test_hand_entry import board_path

pytestmark = pytest.mark.django_db(transaction=True)

RECORD = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
          "lances": {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}],
                                "end": "no_quiero"},
                     "pares": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}}
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


@pytest.mark.parametrize("language", ["es", "eu"])
def test_the_board_sings_the_last_hands_recuento(phone: Page, language: str) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, RECORD, via="api")
    hand = services.table_state(table)["current"]["hands"][-1]
    with translation.override(language):
        expected = board.spoken_lines(hand["result"], table.players)
    page = phone
    page.add_init_script(STUB)
    page.goto(board_path(table))
    if language != "es":
        page.locator(f'button[name="language"][value="{language}"]').click()
        page.wait_for_load_state()
    button = page.locator(".last-hand [data-cantar]")
    expect(button).to_be_visible()
    button.click()
    assert spoken(page) == [[line, language] for line in expected]
    assert len(expected) >= 3  # a deje, a quiero and premiums: several steps
    if language == "es":
        # Issue 30.5: the lances in order with the running total ("van"), the deje after
        # them as the table counts, and the final score.
        assert [text for text, _lang in spoken(page)] == [
            "Chica: Ana y Carla +1, van 1.",
            "Pares: Bruno y Diego +6 (2 querido y 4 de jugadas), van 6.",
            "Juego: Bruno y Diego +4 (solo ellos tienen), van 10.",
            "Grande: deje, Bruno y Diego +2, van 12.",
            "Queda 1–12.",
        ]
    button.click()  # again: the count starts over, it is not queued twice
    assert len(spoken(page)) == len(expected)


def test_the_calculator_sings_its_answer(phone: Page) -> None:
    page = phone
    page.add_init_script(STUB)
    page.goto("/calculadora/")
    for seat, cards in RECORD["hands"].items():
        page.fill(f"#id_c{seat}", cards)
    page.locator("#id_c3").dispatch_event("change")
    expect(page.locator("#result [data-cantar]")).to_be_visible()
    page.locator("#result [data-cantar]").click()
    said = [text for text, _lang in spoken(page)]
    lines = page.locator("#result [data-cantar-line]").all_inner_texts()
    assert said == [" ".join(line.split()) for line in lines]
    assert said[-1].startswith("Queda ")
