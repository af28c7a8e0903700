"""Issue 19.5 on a phone: "No se juega: el juego ya terminó" is said under a lance only
when the juego ended in an earlier lance's betting (the engine's HandDraft.ended_in); after
an accepted órdago the juego is not over but decided by its lance, and the later lances
say so ("lo decide el órdago querido", issue 30.6)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from tests.browser.test_board import Thumb

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
# Pares: every seat; juego: only Bruno (35) and Diego (34), so nobody bets in juego.
DEAL = {0: "R R 5 4", 1: "R C C 5", 2: "1 1 6 7", 3: "S S 7 7"}
ENDED = "el juego ya terminó"
ORDAGO = "No se juega: lo decide el órdago querido."


def tap(page: Page, act: str) -> None:
    page.locator(f'button[name="act"][value="{act}"]').click()
    page.wait_for_load_state()
    expect(page.locator("body[data-busy]")).to_have_count(0)


def test_a_juego_that_goes_on_says_no_lance_ended(phone: Page) -> None:
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    tap(page, "bet:grande:A:2")
    tap(page, "end:grande:no_quiero")
    tap(page, "bet:chica:B:2")
    tap(page, "end:chica:quiero")
    expect(page.locator('[data-lance="grande"] .deje')).to_contain_text("+1")
    expect(page.locator("section.lance-off")).to_have_count(0)
    expect(page.get_by_text(ENDED)).to_have_count(0)


def test_an_ordago_accepted_in_grande_ends_it_and_only_later_lances_say_so(phone: Page) -> None:
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    tap(page, "bet:grande:A:ordago")
    tap(page, "end:grande:quiero")
    grande = page.locator('section[data-lance="grande"]')
    expect(grande).not_to_have_class("lance-off")
    expect(grande).not_to_contain_text(ORDAGO)
    for lance in ("chica", "pares"):
        section = page.locator(f'section[data-lance="{lance}"]')
        expect(section).to_have_class("lance lance-off")
        expect(section).to_contain_text(ORDAGO)
    # The fourth lance (juego or punto, not known without cards) says it too.
    fourth = page.locator("section[data-lance]").last
    expect(fourth).to_contain_text(ORDAGO)
    expect(page.get_by_text(ENDED)).to_have_count(0)
    expect(page.locator('button[name="act"][value^="bet:chica"]')).to_have_count(0)


def test_an_ordago_in_pares_ends_it_though_nobody_bets_in_juego(phone: Page) -> None:
    """The page used to guess the end from a later lance without taps: juego, where
    nobody can bet, was shown as played after pares' accepted órdago."""
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    thumb = Thumb(page)
    thumb.cards(DEAL)
    tap(page, "bet:pares:A:ordago")
    tap(page, "end:pares:quiero")
    for lance in ("grande", "chica", "pares"):
        expect(page.locator(f'section[data-lance="{lance}"]')).not_to_contain_text(ORDAGO)
    expect(page.locator('section[data-lance="juego"]')).to_contain_text(ORDAGO)
    # Undone, the órdago decides nothing: every lance is played again.
    tap(page, "pop:pares")
    expect(page.get_by_text(ORDAGO)).to_have_count(0)
    expect(page.locator("section.lance-off")).to_have_count(0)
