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


def test_a_second_phone_is_its_own_phone_sized_browser(
    phone: Page, new_phone: Callable[..., Page]
) -> None:
    other = new_phone()
    assert other.context is not phone.context
    assert other.viewport_size == {"width": 390, "height": 844}
    phone.context.set_offline(True)
    response = other.goto("/")  # the first phone going offline leaves the second online
    assert response is not None and response.ok
    assert other.evaluate("navigator.language") == "es-ES"


def test_a_phone_registers_no_service_worker_unless_the_test_asks(phone: Page) -> None:
    """The harness blocks the site's worker (it fetches and keeps a dozen files per
    context); tests of the worker opt in with WITH_SERVICE_WORKER (tests/browser/test_live.py)."""
    phone.goto("/")
    registered = phone.evaluate(
        "() => navigator.serviceWorker ? navigator.serviceWorker.getRegistrations()"
        ".then(r => r.length) : 0"
    )
    assert registered == 0
