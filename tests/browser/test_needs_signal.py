"""The calculator and the lector without signal (issue 30.3): their answer is the
server's (the engine), so the page says plainly that it needs the signal, in the page's
language: as soon as the signal goes, and when a tap's request comes to nothing; what was
typed stays, and the note goes when the signal is back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

pytestmark = pytest.mark.django_db(transaction=True)

SAID = {
    "es": "necesita la señal",
    "en": "needs the signal",
    "eu": "seinalea behar du",
    "fr": "a besoin du réseau",
}


def cut(route: Route) -> None:
    """A tap's request comes to nothing (the signal went between two taps)."""
    if route.request.headers.get("hx-request"):
        route.abort()
    else:
        route.continue_()


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_page_says_it_needs_the_signal(
    browser: Browser, live_server: Any, language: str
) -> None:
    """The calculator, then the lector, in one tab of a phone in the language: each page
    is loaded anew and the signal is back at its end."""
    context = browser.new_context(base_url=live_server.url, locale=language,
                                  service_workers="block")
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    context.set_default_timeout(10_000)
    page = context.new_page()
    for path in ("/calculadora/", "/lector/"):
        page.goto(path)
        note = page.locator("[data-needs-signal]")
        expect(note, path).to_be_hidden()

        page.route("**/*", cut)
        field = page.locator("#id_c0")
        field.fill("R R 5 4")
        field.dispatch_event("change")
        expect(note, path).to_be_visible()
        expect(note, path).to_contain_text(SAID[language])
        expect(field, path).to_have_value("R R 5 4")
        # The signal back, the next answer hides the note.
        page.unroute("**/*")
        field.fill("R R 5 5")
        field.dispatch_event("change")
        expect(note, path).to_be_hidden()
        # Said as soon as the signal goes, before any tap; gone when it is back.
        context.set_offline(True)
        expect(note, path).to_be_visible()
        expect(note, path).to_contain_text(SAID[language])
        context.set_offline(False)
        expect(note, path).to_be_hidden()
    context.close()
