"""Offline as production serves it (issue 30 point 3): collectstatic's hashed files
(whitenoise's manifest), DEBUG off, gunicorn, and the service worker in Chromium. Every
page the worker keeps is styled without signal; the pages reached from the home page,
the seven rules sections, and the club, standings and TV pages the phone opened before
open without signal; a page never kept is the site's own styled page in the language the
site last spoke; the calculator says plainly that it needs the signal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.multiserver.servers import ROOT, Server, base_env, manage, running, sqlite_copy

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "service_workers": "allow"}
UNSTYLED = "rgba(0, 0, 0, 0)"  # a body no stylesheet reached
HASHED_CSS = re.compile(r"/static/css/muscore\.[0-9a-f]{12}\.css$")
MAKE_CLUB = (
    "from tests.clubs.factory import make_club, make_league;"
    "club = make_club('Bar Offline'); league = make_league(club, 4, results=1);"
    "print(club.slug, league.id)"
)


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory,
               migrated_sqlite: Path) -> Iterator[tuple[Server, str, int]]:
    tmp = tmp_path_factory.mktemp("production")
    env = base_env(
        DATABASE_URL=sqlite_copy(migrated_sqlite, tmp / "db.sqlite3"),
        STATIC_MANIFEST="true",
        STATIC_ROOT=str(tmp / "static"),
    )
    manage(env, "collectstatic", "--noinput", "-v", "0")
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_CLUB],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    slug, league = made.stdout.split()[-2:]
    server = Server(env, tmp / "logs", workers=2)
    with running(server):
        yield server, slug, int(league)


def styled(page: Page) -> list[str]:
    """The stylesheets of the page that did not load (none: the page is styled)."""
    return list(page.evaluate(
        """() => Array.from(document.querySelectorAll('link[rel=stylesheet]'))
            .filter(l => { try { return !l.sheet || !l.sheet.cssRules.length; }
                           catch (e) { return true; } }).map(l => l.href)"""
    ))


def background(page: Page) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def wait_for_install(page: Page, pages: list[str]) -> None:
    deadline = time.monotonic() + 60
    kept: list[str] = []
    while time.monotonic() < deadline:
        kept = page.evaluate(
            """() => caches.open('muscore-pages').then(c => c.keys())
                .then(keys => keys.map(r => new URL(r.url).pathname))"""
        )
        if set(pages) <= set(kept) and page.evaluate("!!navigator.serviceWorker.controller"):
            return
        time.sleep(0.3)
    raise AssertionError(f"the worker kept {kept}, not all of {pages}")


def test_every_kept_page_opens_styled_without_signal_in_production(
    browser: Browser, production: tuple[Server, str, int]
) -> None:
    server, slug, league = production
    context = browser.new_context(base_url=server.url, locale="es-ES", **PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    worker = page.request.get("/sw.js").text()
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    install = json.loads(re.search(r"var PAGES_AT_INSTALL = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    # The worker names the files collectstatic wrote, each served as it names it.
    assert any(HASHED_CSS.search(url) for url in precache), precache
    assert "/static/css/muscore.css" not in precache
    for url in precache:
        assert page.request.get(url).status == 200, url
    stylesheet = re.search(r'var STYLESHEET = "([^"]+)"', worker).group(1)  # type: ignore[union-attr]
    assert HASHED_CSS.search(stylesheet), stylesheet
    rules = [path for path in install if path.startswith("/reglas/") and path != "/reglas/"]
    assert len(rules) == 7, install
    assert {"/", "/nueva", "/clubs/", "/calculadora/", "/lector/", "/reglas/"} <= set(install)
    wait_for_install(page, install)

    # Opened with signal: the club, a competition's standings, the TV.
    opened = [f"/club/{slug}/", f"/club/{slug}/liga/{league}/", f"/club/{slug}/tv/"]
    for url in opened:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
    context.set_offline(True)
    for url in [*install, *opened]:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        assert not styled(page), (url, styled(page))
        assert background(page) != UNSTYLED, url
        assert page.locator("[data-offline-page]").count() == 0, url
    # Never opened: the site's own page, styled, in the page's language.
    for url in (f"/club/{slug}/niveles/", "/importar"):
        response = page.goto(url)
        assert response is not None and response.status == 503, url
        expect(page.locator("h1")).to_have_text("Sin conexión")
        assert not styled(page) and background(page) != UNSTYLED, url
    # The calculator opened then taken offline says it needs the signal.
    page.goto("/calculadora/")
    page.locator("#id_c0").fill("R R 5 4")
    page.locator("#id_c0").dispatch_event("change")
    expect(page.locator("[data-needs-signal]")).to_be_visible()
    expect(page.locator("[data-needs-signal]")).to_contain_text("necesita la señal")

    # The site switched to English: without signal its page says it in English.
    context.set_offline(False)
    context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])
    page.goto("/clubs/")
    assert page.locator("html").get_attribute("lang") == "en"
    context.set_offline(True)
    response = page.goto(f"/club/{slug}/lideres/")
    assert response is not None and response.status == 503
    expect(page.locator("h1")).to_have_text("No connection")
    assert page.locator("html").get_attribute("lang") == "en"
    assert not errors, errors
    context.close()


def test_the_production_static_check_sees_an_unstyled_page(
    browser: Browser, production: tuple[Server, str, int]
) -> None:
    """The check above is not blind: a page whose stylesheet does not come (as the
    worker's offline page linked css/muscore.css, which its cache did not hold) is found
    unstyled."""
    server, _slug, _league = production
    context = browser.new_context(base_url=server.url, **PHONE | {"service_workers": "block"})
    page = context.new_page()
    page.goto("/")
    assert background(page) != UNSTYLED
    page.set_content(
        "<!doctype html><html><head>"
        "<link rel=stylesheet href='/static/css/muscore.0123456789ab.css'>"
        "</head><body>x</body></html>"
    )
    assert styled(page) and background(page) == UNSTYLED
    context.close()

