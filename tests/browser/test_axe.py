"""axe-core and an HTML check on every page of the screenshot tour (issue 19): in Spanish,
English, Basque and French, light and dark, no accessibility violation that axe finds, and the
rendered HTML parses without an error and without the mistakes a validator names.

axe-core is the copy vendored in tests/vendor/axe-core (4.14.1, its hash checked by
tests/browser/axe.py), run by axe-playwright-python's runner: no network at test time. From
4.14 its rule label-content-name-mismatch (WCAG 2.5.3) runs (issue 38.7). The HTML
check is html5lib's parser in strict mode (the HTML standard's parse errors)
plus the validator rules that parsing alone does not see (duplicate ids, a label for no
field, aria-label on an element without a role)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import html5lib
import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page

from tests.browser.axe import AXE_VERSION, axe, install, violations
from tests.browser.conftest import PHONE
from tests.browser.test_screenshots import tour
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("es", "en", "eu", "fr")
SCHEMES = ("light", "dark")
# Elements where an aria-label names nothing (no role to name): html-validate's aria-label-misuse.
PLAIN = {"span", "div", "p", "b", "i", "strong", "em", "small", "code", "pre"}


def axe_violations(page: Page, only_contrast: bool = False) -> list[str]:
    options: dict[str, Any] = {}
    if only_contrast:
        options["runOnly"] = {"type": "rule", "values": ["color-contrast"]}
    return [f"{v['id']} ({v['impact']}): {[' '.join(map(str, t)) for t in v['targets']][:3]}"
            for v in violations(page, options)]


def html_errors(markup: str) -> list[str]:
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
    document = parser.parse(markup)
    errors = [f"parse: {code} {data} at {pos}" for pos, code, data in parser.errors]
    ids = Counter(e.get("id") for e in document.iter() if isinstance(e.tag, str) and e.get("id"))
    errors += [f"duplicate id {i!r}" for i, n in ids.items() if n > 1]
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        target = element.get("for")
        if element.tag == "label" and target and target not in ids:
            errors.append(f"label for missing id {target!r}")
        if element.get("aria-label") is not None and element.tag in PLAIN and not element.get(
            "role"
        ):
            errors.append(f"aria-label on a plain <{element.tag}>: {element.get('aria-label')!r}")
        if element.tag == "input" and element.get("type") == "password" and not element.get(
                "autocomplete"):
            # html-validate's autocomplete-password: new-password or current-password.
            errors.append(f"password field without autocomplete: {element.get('name')!r}")
    return errors


# One test for the four languages, the tour's table built once (the tours only read), each
# language in a context of its own. Each page is loaded once and checked in both schemes:
# the scheme is a media feature, switched on the loaded page (emulate_media) as a phone
# switches it, not a reason to load it again. (It was one test per language for
# pytest-xdist's spread, which tests/conftest.py's long-tests-first dealing now gives.)
def test_every_page_of_the_tour_has_no_axe_violation_and_valid_html(
    browser: Browser, live_server: Any
) -> None:
    assert_tours_pass(browser, live_server, [(None, tour())])


def assert_tours_pass(browser: Browser, live_server: Any,
                      visits: Sequence[tuple[Any, dict[str, str]]]) -> None:
    """The visits (a user, or None, and the pages by name) in each language, every problem
    found named at the end. Each user is logged in once, for the four languages."""
    sessions = [(None if user is None
                 else logged_in(user).cookies[settings.SESSION_COOKIE_NAME].value, pages)
                for user, pages in visits]
    problems = [problem for language in LANGUAGES
                for problem in tour_problems(browser, live_server, language, sessions)]
    assert not problems, "\n".join(problems)


def tour_problems(browser: Browser, live_server: Any, language: str,
                  visits: Sequence[tuple[str | None, dict[str, str]]]) -> list[str]:
    """Each visit's pages (a session, or None, and the pages by name) in one phone set to
    the language: one context and one tab for all of them (a tab costs about 170 ms of
    Chromium's CPU, a context more), axe-core put in each page by its init script. A
    visit's session cookie replaces the last visit's."""
    problems: list[str] = []
    context = browser.new_context(**PHONE | {"locale": language}, base_url=live_server.url)
    install(context)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        for session, pages in visits:
            if session is None:
                context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
            else:
                context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                                      "url": live_server.url}])
            for name, url in pages.items():
                problems += page_problems(page, language, name, url)
    finally:
        context.close()
    return problems


def page_problems(page: Page, language: str, name: str, url: str) -> list[str]:
    """url loaded once in light: every axe rule and the HTML check; then in dark (only the
    colours change) axe's contrast rule. The page must answer 200 in the language, itself
    (not the login page it sends a stranger to)."""
    problems: list[str] = []
    page.emulate_media(color_scheme=SCHEMES[0])
    # "load": the styles are applied (axe's contrast needs them); waiting for the
    # network to be idle added half a second a page and nothing axe reads.
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == 200, (name, url, language)
    assert urlsplit(page.url).path == urlsplit(url).path, (name, page.url)
    assert page.locator("html").get_attribute("lang") == language, (name, language)
    for found in axe_violations(page):  # every rule, in light
        problems.append(f"{name} {language} light: axe {found}")
    # The markup does not change with the colours: checked once.
    for error in html_errors(response.text()):
        problems.append(f"{name} {language}: html {error}")
    for scheme in SCHEMES[1:]:  # in dark only the colours change, so only contrast
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        for found in axe_violations(page, only_contrast=True):
            problems.append(f"{name} {language} {scheme}: axe {found}")
    return problems


def test_the_html_check_finds_what_it_looks_for() -> None:
    """The check above is not blind: each kind of mistake it names is found."""
    bad = (
        '<!doctype html><html lang="es"><head><title>x</title></head><body>'
        '<p id="a">1</p><p id="a">2</p><label for="nada">x</label>'
        '<span aria-label="Mesa">3</span><input type="password" name="clave">'
        '<div><p>4</span></div></body></html>'
    )
    errors = html_errors(bad)
    assert any(e.startswith("duplicate id") for e in errors), errors
    assert any(e.startswith("label for missing id") for e in errors), errors
    assert any(e.startswith("aria-label on a plain <span>") for e in errors), errors
    assert any(e.startswith("password field without autocomplete") for e in errors), errors
    assert any(e.startswith("parse:") for e in errors), errors
    good = '<!doctype html><html lang="es"><head><title>x</title></head><body></body></html>'
    assert html_errors(good) == []


def test_the_suites_axe_is_4_14_and_sees_a_name_that_is_not_the_words_shown(
    phone: Page,
) -> None:
    """Issue 38.7: the bundled axe (4.12.1) had label-content-name-mismatch off, so a
    button reading "Ana·Carla" named "Otra cantidad de Ana y Carla a la grande" passed."""
    phone.set_content(
        '<!doctype html><html lang="es"><head><title>x</title></head><body><main>'
        '<button aria-label="Otra cantidad de Ana y Carla a la grande">Ana·Carla</button>'
        '<button aria-label="Envido: Ana y Carla, a la grande">Envido</button>'
        "</main></body></html>")
    results: Any = axe().run(phone, options={
        "runOnly": {"type": "rule", "values": ["label-content-name-mismatch"]}})
    assert phone.evaluate("axe.version") == AXE_VERSION
    rule = [r for r in phone.evaluate("axe.getRules()")
            if r["ruleId"] == "label-content-name-mismatch"]
    assert rule and "experimental" not in rule[0]["tags"]
    flagged = [n["target"] for v in results.response["violations"] for n in v["nodes"]]
    assert flagged == [["button:nth-child(1)"]], flagged
    # The tours' check, on a page that has axe already (as in dark after light), sees it too.
    assert [v for v in axe_violations(phone) if v.startswith("label-content-name-mismatch")]
