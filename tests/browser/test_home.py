"""The home page in a phone-sized Chromium: proves the browser harness end to end."""

from collections.abc import Callable

from playwright.sync_api import Page, expect


def test_home_page_passes_the_page_check_on_a_phone(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    assert_page_ok(phone, "/", screenshot="home")
    expect(phone.locator("h1")).to_contain_text("muscore")


def test_home_page_loads_its_stylesheet_from_the_live_server(phone: Page) -> None:
    response = phone.goto("/")
    assert response is not None and response.ok
    stylesheet = phone.locator('link[rel="stylesheet"]').first.get_attribute("href")
    assert stylesheet
    css = phone.request.get(stylesheet)
    assert css.ok, f"{stylesheet}: HTTP {css.status}"
    assert "text/css" in css.headers["content-type"]
