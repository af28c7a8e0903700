"""Issue 36 on a phone: the federation's club page shows its championship once (its name,
its state, its link), not its heats, groups and games among the club's leagues; the
organiser's night shows tonight's tables of it under its name; a bar's page shows its
heat under the championship. Each link is a finger's size and leads where it says; axe
finds nothing on the three pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from muscore.leagues import pages
from tests.browser.test_axe import axe_violations
from tests.championships.test_club_lists import part_ids, whole_championship
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db(transaction=True)

#: The smallest a link to tap may be (WCAG 2.5.5's 44 CSS px, as the rest of the site).
TAP = 44


def sign_in(page: Page, live_server: Any, user: Any) -> None:
    session = logged_in(user).cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                               "url": live_server.url}])


def test_the_championship_is_one_entry_on_the_club_night_and_bar_pages(
    phone: Page, live_server: Any, assert_page_ok: Callable[..., None],
) -> None:
    championship, boss, _barmen, _final, own = whole_championship()
    club = championship.club
    detail = f"/campeonatos/{championship.pk}/"
    assert_page_ok(phone, f"/club/{club.slug}/", screenshot="club-championship")
    assert not axe_violations(phone)
    listed = phone.locator("#competiciones li")
    expect(listed).to_have_count(1)  # the club's own league only
    expect(listed).to_contain_text(own.title)
    entry = phone.locator("[data-current-championships] > li")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("en juego: Final a cuatro")
    link = entry.get_by_role("link", name=championship.name)
    box = link.bounding_box()
    assert box is not None and box["height"] >= TAP - 0.5, box
    link.click()
    expect(phone).to_have_url(f"{live_server.url}{detail}")

    # The organiser's night: the championship once, its groups' matches to mark under it.
    sign_in(phone, live_server, boss)
    assert_page_ok(phone, f"/club/{club.slug}/noche/", screenshot="night-championship")
    assert not axe_violations(phone)
    whole = phone.locator(f'[data-whole="championship-{championship.pk}"]')
    expect(whole).to_have_count(1)
    expect(whole.get_by_role("link", name=championship.name)).to_have_attribute("href", detail)
    sections = phone.locator("section.night-competition[data-competition]")
    expect(sections).to_have_count(1)  # the club's own league
    shown = {int(pk) for pk in phone.locator("[data-parts] [data-competition]").evaluate_all(
        "items => items.map(i => i.dataset.competition)")}
    assert shown <= part_ids(championship)

    # A bar: its heat under the championship's name, not among its leagues.
    sede = championship.sedes.order_by("id").first()
    assert sede is not None and sede.heat is not None
    bar = phone.context.new_page()
    assert_page_ok(bar, f"/club/{sede.club.slug}/", screenshot="bar-championship")
    assert not axe_violations(bar)
    expect(bar.locator("#competiciones li")).to_have_count(0)
    heat = bar.locator("[data-hosted] [data-heat]")
    expect(heat).to_have_attribute("href", pages.competition_url(sede.heat))
    box = heat.bounding_box()
    assert box is not None and box["height"] >= TAP - 0.5, box
    heat.click()
    expect(bar).to_have_url(f"{live_server.url}{pages.competition_url(sede.heat)}")
