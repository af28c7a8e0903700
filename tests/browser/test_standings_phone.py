"""The standings on a phone (issue 17.8): the last column (tantos en contra) is reached by
sliding the table, never the page, and a visible hint says so; on a wide screen no hint."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_column_is_reachable_on_a_phone_with_a_hint(phone: Page) -> None:
    club = make_club()
    competition = make_league(club, 6, results=6)
    phone.goto(f"/club/{club.slug}/liga/{competition.pk}/")
    hint = phone.locator("[data-scroll-hint]").first
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("para ver todas las columnas")
    box = phone.locator(".table-scroll").first
    last = box.locator("thead th").last
    width = phone.viewport_size["width"] if phone.viewport_size else 390
    assert last.bounding_box()["x"] + last.bounding_box()["width"] > width  # off-screen
    box.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    after = last.bounding_box()
    assert after is not None and after["x"] + after["width"] <= width
    # The page itself never scrolls sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    phone.set_viewport_size({"width": 1280, "height": 800})
    expect(hint).to_be_hidden()
