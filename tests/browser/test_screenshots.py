"""Every page at 390x844, light and dark (issue 9): each passes the harness's checks
(no outside request, no CSP break, no script error, no sideways scroll at 360 px) and
leaves test-artifacts/screenshots/<page>-<scheme>.png for a person to look at. And a
championship in play in es, en, eu and fr (issue 29): its public page and a pair's path on
a phone, the hall's TV at 1920x1080 saved at half its pixels; with
MUSCORE_DOCS_SCREENSHOTS=1 into docs/img, where docs/championship.md shows them."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from muscore.championships import pages
from muscore.championships import services as championships
from muscore.leagues import results
from muscore.tables import services
from tests.browser.test_french_championship import (
    BARS,
    TV_SIZE,
    groups_phase,
    no_scrollbar,
)
from tests.championships.factory import small_championship

pytestmark = pytest.mark.django_db(transaction=True)

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}


def big(side: str) -> dict[str, Any]:
    return {"jugadas": NOBODY, "winners": {"grande": side, "chica": "B", "punto": "B"},
            "lances": {"grande": {"bets": [{"side": side, "n": 40}], "end": "quiero"}}}


def tour() -> dict[str, str]:
    """The pages of the tour, by name: a table with a vaca won 2-0 (the end-of-vaca page),
    then a hand and a tap in the next one, and the pages that need no table. Also the
    pages tests/browser/test_axe.py checks in every language."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    for record in (big("A"), {"hands": SEED}, big("A"), {"hands": SEED}):
        services.add_hand(table, record, via="api")
    services.add_piedras(table, "B", 5, via="api")
    services.replace_hand(table, 2, {"hands": SEED, "lances": {
        "grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}}}, via="edit_link")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    return {
        "home": "/",
        "nueva": "/nueva",
        "board": edit,
        "board-view": f"/t/{table.id}/",
        "history": edit + "historial",
        "vaca-end": edit + "vaca/1",
        "hand-entry": edit + "mano",
        "hand-correct": edit + "mano/4",
        "undo-confirm": edit + "deshacer",
        "calculator": "/calculadora/",
        "lector": "/lector/",
        "rules": "/reglas/",
        "api": "/api/",
    }


def test_every_page_light_and_dark(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    # Each page loaded once and checked and saved in both schemes (check_page's schemes).
    for name, url in tour().items():
        assert_page_ok(phone, url, screenshot=name, schemes=("light", "dark"))


# --- issue 29: what a volunteer sees of a championship, in the four languages ----------------

LANGUAGES = ["es", "en", "eu", "fr"]
#: MUSCORE_DOCS_SCREENSHOTS=1 writes them where docs/championship.md shows them.
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def championship_in_play() -> tuple[str, str, str]:
    """A championship of three bars in its groups: the round clock running, the first
    round's games played. The public page's, a pair's path's and the hall TV's paths."""
    championship, boss, barmen = small_championship(seats=8, bars=BARS)
    phase = groups_phase(championship, boss, barmen, name="Semifinal")
    for group in phase.groups.all():
        for match in group.competition.matches.filter(round__number=1):
            results.record_result(match, by=boss, juegos=[1, 0])
    championships.start_round_clock(phase, by=boss)  # the second round's
    pair = championship.enrolments.get(name="Bar Txoko 1")
    return (pages.championship_url(championship), pages.pair_url(pair),
            reverse("championships:tv", args=[championship.pk, phase.pk]))


def test_the_championship_in_the_four_languages(
        browser: Browser, live_server: Any, phone: Page, screenshots_dir: Path,
        assert_page_ok: Callable[..., None]) -> None:
    out = DOCS_IMG if os.environ.get("MUSCORE_DOCS_SCREENSHOTS") else screenshots_dir
    out.mkdir(parents=True, exist_ok=True)
    public, path, tv_url = championship_in_play()
    # The TV at half its pixels: a 960x540 picture of the 1920x1080 screen.
    hall = browser.new_context(base_url=live_server.url, viewport=TV_SIZE,
                               device_scale_factor=0.5, service_workers="block")
    try:
        tv = hall.new_page()
        for code in LANGUAGES:
            # The language switch's cookie, as a volunteer who chose the language has it.
            for page in (phone, tv):
                page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME,
                                           "value": code, "url": live_server.url}])
            for name, url in (("page", public), ("pair", path)):
                assert_page_ok(phone, url)
                expect(phone.locator("html")).to_have_attribute("lang", code)
                phone.screenshot(path=out / f"championship-{name}-{code}.png", full_page=True)
            tv.goto(tv_url)
            expect(tv.locator("html")).to_have_attribute("lang", code)
            clocks = tv.locator(".tv-panel.is-shown [data-deadline]")
            expect(clocks).to_have_count(2)
            expect(clocks.first).to_have_text(re.compile(r"^\d+:\d\d$"))  # counting down
            no_scrollbar(tv)
            tv.screenshot(path=out / f"championship-tv-{code}.png")
    finally:
        hall.close()
