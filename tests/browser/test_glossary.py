"""The rules' glossary (/reglas/#palabras) on a phone: the four languages' words side by side,
none cut in two, the table as wide as a 360 px phone in every language (narrower phones
scroll it sideways: it is a focusable region)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.test_phone_table import BROKEN_WORDS

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

WIDTHS = """() => { const d = document.querySelector('.glossary .table-scroll');
  return [d.scrollWidth, d.clientWidth, d.tabIndex]; }"""
GLOSSARY_BROKEN = BROKEN_WORDS.replace("document.querySelector('main')",
                                       "document.querySelector('#palabras')")


@pytest.mark.parametrize("lang", ["es", "en", "eu", "fr"])
def test_the_glossary_fits_a_phone_and_cuts_no_word(phone: Page, live_server: object,
                                                    lang: str) -> None:
    phone.set_extra_http_headers({"Accept-Language": lang})
    phone.set_viewport_size({"width": 360, "height": 800})
    phone.goto(f"{live_server.url}/reglas/")  # type: ignore[attr-defined]
    scroll, client, tabindex = phone.evaluate(WIDTHS)
    assert scroll <= client, f"{lang}: the glossary is {scroll} px wide in {client} px"
    assert tabindex == 0
    assert phone.evaluate(GLOSSARY_BROKEN) == []
