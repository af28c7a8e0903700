"""A player's page at phone size: the nivel and its chart are there, readable, and the page
passes the page check (no outside request, no script error, no sideways scroll)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.clubs.models import Player
from muscore.leagues import results
from muscore.leagues.models import Match, PlayerRating
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_players_page_on_a_phone_shows_the_nivel_and_the_chart(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    competition, user = liguilla(4, legs=2)
    for m in Match.objects.filter(competition=competition).order_by("number")[:8]:
        results.record_result(m, by=user, juegos=[3, 1] if m.number % 3 else [1, 3])
    club = competition.club
    rating = PlayerRating.objects.filter(club=club).order_by("-matches", "-nivel").first()
    assert rating is not None and rating.matches >= 3
    player = Player.objects.get(pk=rating.player_id)
    url = f"/club/{club.slug}/jugador/{player.pk}/"
    assert_page_ok(phone, url, screenshot="player")
    expect(phone.locator("h1")).to_have_text(player.name)
    nivel = phone.locator(".nivel strong")
    expect(nivel).to_have_text(f"{rating.nivel:.1f}".replace(".", ","))  # Spanish decimals
    chart = phone.locator("[data-nivel-chart] svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 300 and box["height"] >= 100
    assert phone.locator("polyline.chart-nivel").get_attribute("points").count(",") == (
        rating.matches + 1)
    # From the page: the method, then back to the club's niveles.
    phone.get_by_role("link", name="Cómo se calcula").first.click()
    expect(phone.locator("h1")).to_have_text("Cómo se calcula el nivel")
    assert_page_ok(phone, f"/club/{club.slug}/niveles/", screenshot="player-ranking")
    expect(phone.get_by_role("link", name=player.name)).to_be_visible()
    unplayed = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert unplayed is not None
    assert_page_ok(phone, f"/club/{club.slug}/liga/{competition.pk}/partida/{unplayed.number}/",
                   screenshot="match-prediction")
    expect(phone.locator("#pronostico")).to_contain_text("Probabilidad de ganar")


def test_the_links_on_the_players_pages_are_44_px(phone: Page) -> None:
    competition, user = liguilla(4)
    for m in Match.objects.filter(competition=competition).order_by("number")[:3]:
        results.record_result(m, by=user, juegos=[3, 1])
    club = competition.club
    rating = PlayerRating.objects.filter(club=club).first()
    assert rating is not None
    unplayed = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert unplayed is not None
    small = {}
    for url, within in ((f"/club/{club.slug}/jugador/{rating.player_id}/", "main"),
                        (f"/club/{club.slug}/niveles/", "main"),
                        (f"/club/{club.slug}/liga/{competition.pk}/partida/{unplayed.number}/",
                         "#pronostico")):
        phone.goto(url)
        boxes = phone.locator(f"{within} a").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return {t: e.textContent.trim(), h: r.height}; })")
        low = [b["t"] for b in boxes if b["h"] < 44 and not b["t"].startswith(("Clubs", club.name))]
        if low:
            small[url] = low
    assert not small, small
