"""Playwright harness: Debian's Chromium, phone-sized pages on pytest-django's live server,
and `assert_page_ok`, the check every page must pass (see design.md)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Response, expect

if TYPE_CHECKING:
    from tests.browser.test_live import Signal

CHROMIUM = os.environ.get("MUSCORE_CHROMIUM", "/usr/bin/chromium")
# Without the networking flags Chromium tries to reach Google at every start, which this
# machine's closed network refuses (and a test must not depend on anyway).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "locale": "es-ES",
    # The site's service worker, once registered, fetches eight static files and renders
    # four pages (the start page, the calculator, the lector, the rules) to keep them, and
    # then stands between the page and every navigation: server and Chromium work in every
    # context of every test, for nothing unless the test is about the worker. Blocked here;
    # the offline tests opt in with @WITH_SERVICE_WORKER.
    "service_workers": "block",
}
# pytest-playwright's own marker: its kwargs go over browser_context_args for the contexts
# of the test it marks (`phone`, `new_phone`).
WITH_SERVICE_WORKER = pytest.mark.browser_context_args(service_workers="allow")
NARROWEST_PHONE = 360
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
LOCAL_SCHEMES = {"data", "blob", "about"}
TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"The browser tests need Chromium at {CHROMIUM}: run ./scripts/test (it installs "
            "Debian's chromium when run as root) or set MUSCORE_CHROMIUM.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], live_server: Any) -> dict[str, Any]:
    # Every context is a phone on the live server, so page.goto("/t/...") just works.
    return {**browser_context_args, **PHONE, "base_url": live_server.url}


def _open_phone(context: BrowserContext) -> Page:
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


@pytest.fixture
def phone(page: Page) -> Page:
    """A page in a fresh phone context (390x844, touch, es-ES) aimed at the live server."""
    page.context.set_default_timeout(TIMEOUT_MS)
    page.set_default_timeout(TIMEOUT_MS)
    return page


@pytest.fixture
def new_phone(new_context: Callable[..., BrowserContext]) -> Callable[..., Page]:
    """Another phone at the same table: its own context (cookies, storage, offline switch).
    Keyword arguments go to browser.new_context, e.g. new_phone(reduced_motion="reduce"), but
    not those of browser_context_args (locale, viewport...: pytest-playwright passes both, a
    TypeError): for those, mark the test @pytest.mark.browser_context_args(locale="fr-FR")."""

    def make(**overrides: Any) -> Page:
        return _open_phone(new_context(**overrides))

    return make


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOCAL_HOSTS


def _check_width(page: Page, url: str) -> None:
    size = page.viewport_size
    page.set_viewport_size({"width": NARROWEST_PHONE, "height": 800})
    try:
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= NARROWEST_PHONE, (
            f"{url}: scrolls sideways at {NARROWEST_PHONE} px (content {scroll_width} px wide)"
        )
    finally:
        if size:
            page.set_viewport_size(size)


def check_page(
    page: Page,
    url: str,
    screenshot: str | None = None,
    *,
    screenshots: Path | None = None,
    schemes: Sequence[Literal["light", "dark"]] = (),
) -> None:
    """Open url on page and fail unless the page loads (status < 400), has a viewport meta
    tag, asks nothing of any other machine, breaks no Content-Security-Policy rule, throws
    no script error, and does not scroll sideways on a 360 px wide phone. With screenshot,
    saves the whole page as screenshots/<screenshot>.png. With schemes (("light", "dark")),
    the loaded page is switched to each colour scheme in turn (as a phone switches it),
    checked for sideways scroll again and saved as <screenshot>-<scheme>.png: one load for
    both, the scheme being a media feature and not a reason to load the page again."""
    requested: list[str] = []
    problems: list[str] = []

    def on_request(request: Request) -> None:
        requested.append(request.url)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            problems.append(f"CSP violation: {message.text}")

    def on_page_error(error: Any) -> None:
        problems.append(f"script error: {error}")

    context = page.context
    context.on("request", on_request)
    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    try:
        if schemes:
            page.emulate_media(color_scheme=schemes[0])
        # "load": the page, its styles, scripts and images are in, which is all the checks
        # below read (nothing the site loads afterwards, but for its polls, leaves it). The
        # network's idleness (half a second of silence, longer beside a poll) read nothing.
        response = page.goto(url, wait_until="load")
        assert response is not None, f"{url}: no response"
        assert response.status < 400, f"{url}: HTTP {response.status}"

        viewport = page.locator('meta[name="viewport"]')
        assert viewport.count() == 1, f"{url}: no viewport meta tag"
        assert "width=device-width" in (viewport.get_attribute("content") or ""), (
            f"{url}: viewport meta tag without width=device-width"
        )
        for scheme in schemes or (None,):
            if scheme:
                page.emulate_media(color_scheme=scheme)
            _check_width(page, url)
            if screenshot and screenshots:
                name = f"{screenshot}-{scheme}" if scheme else screenshot
                page.screenshot(path=screenshots / f"{name}.png", full_page=True)
    finally:
        context.remove_listener("request", on_request)
        page.remove_listener("console", on_console)
        page.remove_listener("pageerror", on_page_error)

    outside = [u for u in requested if not _is_local(u)]
    assert not outside, f"{url}: requests leaving the machine: {outside}"
    assert not problems, f"{url}: " + "; ".join(problems)


@pytest.fixture
def assert_page_ok(screenshots_dir: Path) -> Callable[..., None]:
    """check_page as a fixture: assert_page_ok(phone, "/", screenshot="home")."""
    return partial(check_page, screenshots=screenshots_dir)


def check_pages(
    page: Page, urls: Mapping[str, str | None], *, screenshots: Path | None = None
) -> None:
    """check_page on each url (to its screenshot's name, or None) in turn in the one page,
    and fail at the end naming every page that failed and why: a new tab costs Chromium
    about 0.2 s of CPU and a test about 0.5 s (its context, its page, the database's flush),
    a navigation in an open tab 45 ms, so pages that only pass the check are walked in one
    tab rather than one test (and one tab) each. Each page is checked as in its own test:
    its requests, console and script errors are read from its own load, and a page that
    fails does not stop the next from being checked."""
    problems: list[str] = []
    for url, screenshot in urls.items():
        try:
            check_page(page, url, screenshot, screenshots=screenshots)
        except AssertionError as error:
            problems.append(str(error) or f"{url}: failed")
    assert not problems, f"{len(problems)} of {len(urls)} pages failed:\n" + "\n".join(problems)


@pytest.fixture
def assert_pages_ok(screenshots_dir: Path) -> Callable[..., None]:
    """check_pages as a fixture: assert_pages_ok(phone, {"/": "home", "/nueva": None})."""
    return partial(check_pages, screenshots=screenshots_dir)


def wait_for_polls(page: Page, path: str, count: int, timeout_ms: float = 10_000) -> None:
    """Wait until the page has polled `path` `count` more times (htmx's `every` trigger):
    a check that nothing changes over a few polls awaits the polls themselves, not a
    fixed sleep that is too long on a quiet machine and too short on a loaded one."""
    def is_poll(response: Response) -> bool:
        # htmx's own requests only: the service worker also fetches the page (to keep it).
        return (urlsplit(response.url).path == path
                and response.request.headers.get("hx-request") == "true")

    for _ in range(count):
        with page.expect_response(is_poll, timeout=timeout_ms):
            pass


# The address of an edit board (its notice in the query), and of its hand page.
EDIT_BOARD_URL = re.compile(r"/t/[^/]+/k/[^/]+/(\?.*)?$")


@contextmanager
def board_in_place(page: Page) -> Iterator[None]:
    """What a save is followed by (issue 38.4): the board, answered by the save itself and
    swapped in place of the hand page, its address the board's; the same document, no
    navigation (a redirect made the saver load the whole board again)."""
    page.evaluate("() => { window.__sameDocument = true; }")
    yield
    expect(page).to_have_url(EDIT_BOARD_URL)
    expect(page.locator("#board-live")).to_have_count(1)
    expect(page.locator("form#entry")).to_have_count(0)
    expect(page.locator("body[data-busy]")).to_have_count(0)
    assert page.evaluate("() => window.__sameDocument === true"), "the save loaded a new page"


@pytest.fixture
def signal(monkeypatch: pytest.MonkeyPatch) -> Signal:
    """The bar's signal, cut and given back one phone at a time (test_live.Signal)."""
    # Imported here, not at the top: test_live imports this module.
    from tests.browser.test_live import Signal

    return Signal(monkeypatch)
