"""The club's leaders on a phone: from the club page to the wall of what the hands say,
readable at 360 px, and printed without the site's chrome."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import competitions
from tests.leagues.factory import liguilla
from tests.leagues.test_stats_store import VACA, play

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_leaders_wall_on_a_phone(phone: Page, assert_page_ok: Callable[..., None]) -> None:
    competition, user = liguilla(4)
    for match in competition.matches.order_by("number"):
        play(competitions.open_table(match, by=user), *VACA)
    slug = competition.club.slug
    page = phone
    page.goto(f"/club/{slug}/")
    page.get_by_role("link", name="Líderes: lo que dicen las manos").click()
    expect(page.locator("h1")).to_contain_text("Líderes de")
    assert_page_ok(page, page.url, screenshot="leaders")
    board = page.locator('[data-board="ordagos_won"]')
    expect(board.get_by_role("heading", name="Órdagos ganados")).to_be_visible()
    expect(board.locator(".board-list").first.locator("li")).to_have_count(5)
    expect(page.locator('[data-board="piedras_juego"] .board-list li').first).to_contain_text("%")
    # The wall's leaders are big: the first line of a board reads from a few steps away.
    size = board.locator(".board-list li.first").first.evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 20
    expect(page.get_by_role("button", name="Imprimir")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator("header.top")).to_be_hidden()
    expect(page.locator(".club-nav")).to_be_hidden()
    expect(board).to_be_visible()
    expect(page.get_by_role("button", name="Imprimir")).to_be_hidden()


def test_the_leaders_wall_on_a_big_screen_uses_its_width(phone: Page) -> None:
    competition, user = liguilla(4)
    for match in competition.matches.order_by("number"):
        play(competitions.open_table(match, by=user), *VACA)
    page = phone
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/club/{competition.club.slug}/lideres/")
    width = page.locator(".boards").evaluate("el => el.getBoundingClientRect().width")
    assert width > 1600
    columns = page.locator(".boards").evaluate(
        "el => getComputedStyle(el).gridTemplateColumns.split(' ').length")
    assert columns >= 3
