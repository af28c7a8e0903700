"""The hall's TV of a championship phase (issue 29 point 2) at 1920x1080: one screen
whatever the number of groups (seven groups turn in two panels, none scrolls), polled as
the club's TV is (304s while nothing changes, a result on it within 2 s of the save), the
round clock started by the organiser's button, a main landmark, and no turning under
prefers-reduced-motion."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import results
from muscore.leagues.models import Match
from tests.browser.conftest import wait_for_polls
from tests.browser.test_championship import log_in
from tests.browser.test_live import answers  # noqa: F401 (the server's answers, a fixture)
from tests.championships.factory import drawn_semifinal

pytestmark = pytest.mark.django_db(transaction=True)

TV_SIZE = {"width": 1920, "height": 1080}
LIVE_MS = 2_000
BARS = [(name, 4) for name in ("Bar Txoko", "Herriko Taberna", "Gure Etxea", "Iruña Kafea",
                               "Zazpiko", "Elkano Taberna", "Amaiur Jatetxea")]


def fits(tv: Page) -> None:
    size = tv.evaluate("[document.documentElement.scrollWidth, document.documentElement"
                       ".scrollHeight, document.body.scrollHeight]")
    assert size[0] <= TV_SIZE["width"] and max(size[1:]) <= TV_SIZE["height"], size
    # Every group of the panel shown is on the screen, none cut by the screen's edge.
    bottoms = tv.locator(".tv-panel.is-shown .tv-group").evaluate_all(
        "gs => gs.map(g => g.getBoundingClientRect().bottom)")
    assert bottoms and max(bottoms) <= TV_SIZE["height"], bottoms


def test_the_halls_tv_fits_one_screen_polls_and_shows_a_result_within_2_seconds(
        new_phone: Callable[..., Page], answers: list[tuple[str, int, bool, bool]],  # noqa: F811
        screenshots_dir: Path) -> None:
    championship, boss, _barmen, phase = drawn_semifinal(seats=28, bars=BARS)
    assert phase.groups.count() == 7
    url = f"/campeonatos/{championship.pk}/fases/{phase.pk}/tv/"
    tv = new_phone()
    tv.set_viewport_size(TV_SIZE)
    log_in(tv, "federacion")
    tv.goto(url, wait_until="networkidle")
    expect(tv.locator("main h1")).to_have_text("Semifinal")
    expect(tv.locator("meta[http-equiv=refresh]")).to_have_count(0)
    expect(tv.locator('meta[name="description"]')).to_have_count(1)
    # Seven groups in two panels of at most six, turning with a pause, as the club's TV.
    expect(tv.locator("[data-tv-dots] button")).to_have_count(2)
    expect(tv.locator(".tv-panel.is-shown .tv-group")).to_have_count(6)
    expect(tv.locator("[data-tv-pause]")).to_have_attribute("aria-pressed", "false")
    fits(tv)
    font = tv.locator(".tv-panel.is-shown .tv-group").first.evaluate(
        "g => parseFloat(getComputedStyle(g).fontSize)")
    assert font >= 24, font  # read from across the hall
    tv.screenshot(path=str(screenshots_dir / "hall-tv-groups.png"))
    tv.locator('[data-tv-dots] button[data-show="groups-2"]').click()
    expect(tv.locator(".tv-panel.is-shown .tv-group")).to_have_count(1)
    fits(tv)
    tv.locator('[data-tv-dots] button[data-show="groups"]').click()

    # The organiser starts the round clock from its button, in the screen's corner.
    expect(tv.locator(".tv-panel.is-shown [data-deadline]")).to_have_count(0)
    tv.locator('[data-clock="start"]').click()
    expect(tv.locator(".tv-panel.is-shown [data-deadline]")).to_have_count(6)
    expect(tv.locator(".tv-panel.is-shown [data-deadline]").first).to_have_text(
        re.compile(r"^(44|45):\d\d$"))
    fits(tv)

    # Unchanged polls are 304s; a result saved elsewhere shows within 2 seconds.
    answers.clear()  # (the screen was loaded again by the button)
    wait_for_polls(tv, url, 3)
    polls = [(status, tagged) for path, status, tagged, htmx in answers if path == url and htmx]
    assert len(polls) >= 2 and set(polls[1:]) == {(304, True)}, polls
    trigger = tv.locator("[data-tv-live]").get_attribute("hx-trigger") or ""
    assert int(trigger.removeprefix("every ").removesuffix("ms")) <= 1_500, trigger
    first_group = phase.groups.order_by("order").first()
    assert first_group is not None
    match = (Match.objects.filter(competition=first_group.competition).unplayed()
             .order_by("number").first())
    assert match is not None
    start = time.monotonic()
    results.record_result(match, by=boss, juegos=[1, 0])
    group = tv.locator('.tv-panel.is-shown [data-group="1"]')
    expect(group.locator(".tv-matches .is-done")).to_have_count(1, timeout=3 * LIVE_MS)
    assert time.monotonic() - start < 3 * LIVE_MS / 1000
    expect(group.locator(".tv-rows li .tv-points").first).to_have_text(re.compile(r"^[1-9]"))
    fits(tv)
    tv.screenshot(path=str(screenshots_dir / "hall-tv-result.png"))
    outside = [path for path, *_rest in answers if urlsplit(path).hostname]
    assert not outside


def test_the_halls_tv_does_not_turn_under_reduced_motion(
        new_phone: Callable[..., Page]) -> None:
    championship, _boss, _barmen, phase = drawn_semifinal(seats=28, bars=BARS)
    tv = new_phone(reduced_motion="reduce")
    tv.set_viewport_size(TV_SIZE)
    tv.goto(f"/campeonatos/{championship.pk}/fases/{phase.pk}/tv/", wait_until="networkidle")
    # It starts paused: it turns only when asked (the dots, or the button).
    expect(tv.locator("[data-tv-pause]")).to_have_attribute("aria-pressed", "true")
    expect(tv.locator('[data-panel="groups"]')).to_be_visible()
    tv.locator('[data-tv-dots] button[data-show="groups-2"]').click()
    expect(tv.locator('[data-panel="groups-2"]')).to_be_visible()
    fits(tv)
