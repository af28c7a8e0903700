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


def test_the_glossary_fits_a_phone_and_cuts_no_word(phone: Page, live_server: object) -> None:
    """The four languages' rules pages in turn in one tab; every language that fails is
    named at the end. Each language's page is at its own address (/en/reglas/): the
    Accept-Language header this test sent before served /reglas/ in Spanish four times."""
    phone.set_viewport_size({"width": 360, "height": 800})
    wrong: dict[str, str] = {}
    for lang in ("es", "en", "eu", "fr"):
        prefix = "" if lang == "es" else f"/{lang}"
        phone.goto(f"{live_server.url}{prefix}/reglas/")  # type: ignore[attr-defined]
        assert phone.evaluate("document.documentElement.lang") == lang
        scroll, client, tabindex = phone.evaluate(WIDTHS)
        if scroll > client:
            wrong[lang] = f"the glossary is {scroll} px wide in {client} px"
        elif tabindex != 0:
            wrong[lang] = f"the glossary's scroll box has tabindex {tabindex}"
        elif broken := phone.evaluate(GLOSSARY_BROKEN):
            wrong[lang] = f"words cut in two: {broken}"
    assert wrong == {}
