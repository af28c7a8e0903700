"""A Thursday-night liguilla on a phone: an organiser starts a club with 4 pairs and a
liguilla, draws it, plays one match to the end on a muscore table opened from the fixture
(the standings change with no other step), enters a second match by hand and a no-show,
and every league page passes the page check."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues.models import Competition, Match
from tests.browser.test_board import Thumb
from tests.browser.test_clubs import PAIRS, club_with_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def standings_row(page: Page, pair: str) -> list[str]:
    row = page.locator("table.standings tbody tr", has=page.get_by_role("link", name=pair))
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def win_a_juego_by_ordago(thumb: Thumb) -> None:
    """One hand: an órdago in chica, wanted, won by the first pair (side A)."""
    thumb.open_entry()
    thumb.button("bet:chica:B:ordago")
    thumb.button("end:chica:quiero")
    thumb.seg("w_chica", "A")
    thumb.save()


def test_a_liguilla_played_from_the_fixture(
    phone: Page, live_server: Any, assert_page_ok: Callable[..., None]
) -> None:
    page = phone
    club_with_pairs(page, live_server, PAIRS)
    page.get_by_role("link", name="Nueva competición").click()
    page.get_by_label("Nombre", exact=True).fill("Liga de los jueves")
    # None ticked to start with (issue 38.9): the organiser ticks those who play.
    expect(page.locator('input[name="pairs"]:checked')).to_have_count(0)
    page.locator('input[name="pairs"]').evaluate_all("boxes => boxes.forEach(b => b.click())")
    expect(page.locator('input[name="pairs"]:checked')).to_have_count(4)
    page.get_by_role("button", name="Crear y pasar al sorteo").click()
    expect(page.locator("h1")).to_have_text("Liga de los jueves")
    page.get_by_role("button", name="Sortear").click()
    expect(page.get_by_role("status")).to_contain_text("Sorteo hecho")
    competition = Competition.objects.get()
    assert competition.draw_method == "random" and len(competition.draw or []) == 4
    league_url = page.url
    assert_page_ok(page, league_url, screenshot="league-drawn")

    # The first match of the fixture, played on a muscore table opened with one tap.
    first = Match.objects.filter(competition=competition).order_by("number").first()
    assert first is not None and first.first is not None and first.second is not None
    winner, loser = first.first.pair.name, first.second.pair.name
    page.locator(f'#siguiente [data-match="{first.number}"] a').click()
    page.get_by_role("button", name="Jugar").click()
    edit_link = page.locator("[data-edit-link]").inner_text().strip()
    assert re.search(r"/t/[^/]+/k/[^/]+/$", edit_link), edit_link
    assert_page_ok(page, page.url.split("#")[0], screenshot="league-match-table")
    page.get_by_role("link", name="Anotar en este móvil").click()
    thumb = Thumb(page)
    thumb.settle()
    for _ in range(3):
        win_a_juego_by_ordago(thumb)
    expect(page.locator(".vaca-won")).to_contain_text(f"Vaca para {winner}")

    # The standings changed by themselves: nobody entered the result.
    page.goto(league_url)
    assert standings_row(page, winner)[:2] == ["1", winner]
    assert standings_row(page, winner)[2:7] == ["1", "1", "0", "0", "2"]
    assert standings_row(page, loser)[2:7] == ["1", "0", "1", "0", "0"]
    first.refresh_from_db()
    assert (first.outcome.source, first.outcome.juegos) == ("table", (3, 0))

    # The second match of the round, kept on paper and entered by hand: 1-3.
    second = Match.objects.filter(competition=competition, round=first.round).exclude(
        pk=first.pk
    ).get()
    assert second.second is not None
    page.locator(f'#siguiente [data-match="{second.number}"] a').click()
    page.locator("#a-mano summary").click()
    page.locator('input[name="juegos_first"]').fill("1")
    page.locator('input[name="juegos_second"]').fill("3")
    page.get_by_role("button", name="Guardar el resultado").click()
    expect(page.get_by_role("status")).to_contain_text("Resultado guardado.")
    expect(page.locator(".paper-mark")).to_have_text("en papel")
    page.goto(league_url)
    assert standings_row(page, second.second.pair.name)[6] == "2"

    # Round 2: the first pair of its first match did not show up.
    third = Match.objects.filter(competition=competition, round__number=2).order_by("number")[0]
    assert third.first is not None and third.second is not None
    page.locator(f'#siguiente [data-match="{third.number}"] a').click()
    page.locator("#no-presentado summary").click()
    page.locator("label.seg", has=page.locator('input[name="who"][value="0"]')).click()
    page.get_by_role("button", name="Anotar no presentado").click()
    expect(page.locator(".facts").first).to_be_visible()
    page.goto(league_url)
    assert standings_row(page, third.first.pair.name)[5] == "1"  # one no-show
    third.refresh_from_db()
    assert (third.outcome.source, third.outcome.winner) == ("no_show", 1)

    rounds_url = league_url + "jornadas"
    assert_page_ok(page, league_url, screenshot="league-standings")
    assert_page_ok(page, rounds_url, screenshot="league-rounds")
    assert_page_ok(page, league_url + "jornada/2/", screenshot="league-round-print")
    assert_page_ok(page, league_url + f"pareja/{first.first.index}/", screenshot="league-pair")
    assert_page_ok(page, league_url + f"partida/{first.number}/", screenshot="league-match")
    page.emulate_media(media="print")
    page.goto(league_url + "jornada/2/")
    expect(page.locator(".club-nav")).to_be_hidden()
    expect(page.locator("table.print-round")).to_be_visible()
    page.screenshot(path="test-artifacts/screenshots/league-round-printed.png", full_page=True)
