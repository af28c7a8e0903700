"""The bar's screen (issue 12 item 4) on a TV-sized Chromium and on a phone: a result
recorded elsewhere shows within 2 seconds, unchanged polls are 304s that swap nothing,
the panels turn by themselves, and the page asks nothing of any other machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from muscore.leagues import results
from muscore.leagues.models import Match
from tests.browser.conftest import wait_for_polls
from tests.browser.test_live import answers  # noqa: F401 (the server's answers, a fixture)
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 2_000  # issue 12: the screen shows a result within 2 seconds
TV_SIZE = {"width": 1920, "height": 1080}


def test_the_screen_shows_a_result_within_2_seconds_and_asks_nothing_outside(
    phone: Page,
    new_phone: Callable[..., Page],
    assert_page_ok: Callable[..., None],
    answers: list[tuple[str, int, bool, bool]],  # noqa: F811
    screenshots_dir: Path,
) -> None:
    club = make_club()
    competition = make_league(club, 6, results=1)
    organiser = club.memberships.get().user
    url = f"/club/{club.slug}/tv/"
    tv = phone
    tv.set_viewport_size(TV_SIZE)
    requested: list[str] = []
    tv.context.on("request", lambda request: requested.append(request.url))
    tv.goto(url, wait_until="networkidle")
    expect(tv.locator("h1")).to_have_text(competition.name)
    # One panel at a time, filling the screen's width.
    expect(tv.locator(".tv-panel.is-shown")).to_have_count(1)
    expect(tv.locator("[data-tv-dots] button")).to_have_count(3)
    width = tv.locator(".tv-panel.is-shown").evaluate("p => p.getBoundingClientRect().width")
    assert width > 1600
    font = tv.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert font >= 30  # readable from across a bar
    # The panels turn by themselves (a tap on a name jumps there, as on a laptop).
    tv.locator('[data-tv-dots] button[data-show="results"]').click()
    expect(tv.locator('[data-panel="results"]')).to_be_visible()
    expect(tv.locator('[data-panel="tables"]')).to_be_hidden()

    # A result recorded elsewhere (the organiser's page, here its service) shows up.
    match = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert match is not None
    wait_for_polls(tv, url, 3)  # a few unchanged polls first
    # Unchanged polls: the browser revalidates its copy and the server answers 304.
    polls = [(status, tagged) for path, status, tagged, htmx in answers if path == url and htmx]
    # (The first poll has no copy to revalidate yet.)
    assert len(polls) >= 2 and set(polls[1:]) == {(304, True)}, polls
    # Within 2 seconds: the screen polls at most every 1.5 s, and the first poll sent
    # after the write brings the result (said without a stopwatch, which a loaded
    # machine's scheduler would fail now and then; the wall time is checked loosely).
    trigger = tv.locator("[data-tv-live]").get_attribute("hx-trigger") or ""
    every_ms = int(trigger.removeprefix("every ").removesuffix("ms"))
    assert every_ms <= 1_500, trigger
    polls_seen: list[Request] = []
    tv.on("requestfinished", lambda r: polls_seen.append(r)
          if urlsplit(r.url).path == url and r.headers.get("hx-request") == "true" else None)
    start = time.monotonic()
    results.record_result(match, by=organiser, juegos=[3, 2])
    written_ms = time.time() * 1000
    expect(tv.locator(f'[data-result="{match.number}"]')).to_contain_text(
        "3–2", timeout=3 * LIVE_MS)
    # No later than the first poll sent after the write (one already on its way may
    # bring it sooner), a poll answered 200: the new result (unchanged, they are 304s).
    sent_after = [r.timing["startTime"] for r in polls_seen if r.timing["startTime"] > written_ms]
    upto = [r for r in polls_seen if not sent_after or r.timing["startTime"] <= sent_after[0]]
    assert any((answer := r.response()) is not None and answer.status == 200 for r in upto)
    assert time.monotonic() - start < 3 * LIVE_MS / 1000
    # The panel that was showing is still the one shown after the swap.
    expect(tv.locator('[data-panel="results"]')).to_be_visible()
    expect(tv.locator('[data-table] >> text="3–2"')).to_have_count(1)
    for panel in ("tables", "standings", "results"):
        tv.locator(f'[data-tv-dots] button[data-show="{panel}"]').click()
        tv.screenshot(path=screenshots_dir / f"tv-1920-{panel}.png")

    outside = [u for u in requested if urlsplit(u).hostname not in ("127.0.0.1", "localhost")]
    assert not outside, outside
    # And on a phone: no sideways scroll, no CSP breach, no outside request.
    assert_page_ok(new_phone(), url, screenshot="tv-phone")


def test_a_ceros_tournaments_screen_fits_a_phone_and_a_tv(
    phone: Page, assert_page_ok: Callable[..., None], screenshots_dir: Path
) -> None:
    from tests.leagues.test_ceros_services import play_round, tournament

    competition, user = tournament(5, ceros=2)
    play_round(competition, user)
    url = f"/club/{competition.club.slug}/tv/"
    assert_page_ok(phone, url, screenshot="tv-ceros-phone")
    phone.set_viewport_size(TV_SIZE)
    phone.locator('[data-tv-dots] button[data-show="standings"]').click()
    expect(phone.locator(".tv-ceros tbody tr")).to_have_count(5)
    phone.screenshot(path=screenshots_dir / "tv-1920-ceros.png")
