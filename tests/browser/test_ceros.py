"""A Friday "a ceros" on a phone: an organiser creates a tournament of 5 pairs out at 2
ceros from the new competition form, draws and publishes round 1 (a pair resting, the
tables numbered on the printable sheet), enters the results by hand; round 2 can only be
drawn once every result is in; and so on round after round until one pair is left."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import ceros_rounds
from muscore.leagues.models import Competition, Match
from tests.browser.test_clubs import club_with_pairs

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS = [("Ana", "Bea"), ("Carlos", "Dani"), ("Eva", "Fermín"), ("Gorka", "Hugo"),
         ("Irene", "Jon")]


def enter_result(page: Page, url: str, first: int, second: int) -> None:
    page.goto(url)
    page.locator("#a-mano summary").click()
    page.locator('input[name="juegos_first"]').fill(str(first))
    page.locator('input[name="juegos_second"]').fill(str(second))
    page.get_by_role("button", name="Guardar el resultado").click()
    expect(page.get_by_role("status")).to_contain_text("Resultado guardado.")


def publish_next(page: Page, tournament_url: str, number: int) -> list[str]:
    """Draw round `number`, check the draft, publish it: the round's match links."""
    page.goto(tournament_url)
    page.get_by_role("button", name=f"Sortear la ronda {number}").click()
    expect(page.get_by_role("status")).to_contain_text(f"Ronda {number} sorteada")
    expect(page.locator("[data-draft] tbody tr")).not_to_have_count(0)
    page.get_by_role("button", name=f"Publicar la ronda {number}").click()
    expect(page.locator("h2").first).to_have_text(f"Ronda {number}")
    links = page.locator("table.print-round tbody tr td:nth-child(2) a")
    return sorted(set(links.evaluate_all("els => els.map(e => e.href)")))


def test_a_ceros_tournament_played_to_its_winner_on_a_phone(
    phone: Page, live_server: Any, assert_page_ok: Callable[..., None]
) -> None:
    page = phone
    club_with_pairs(page, live_server, PAIRS)
    page.get_by_role("link", name="Nueva competición").click()
    page.get_by_label("Nombre", exact=True).fill("Ceros del viernes")
    page.locator("label", has=page.locator('input[name="format"][value="ceros"]')).click()
    page.locator("label", has=page.locator('input[name="ceros"][value="2"]')).click()
    # None ticked to start with (issue 38.9): the organiser ticks those who play.
    expect(page.locator('input[name="pairs"]:checked')).to_have_count(0)
    page.locator('input[name="pairs"]').evaluate_all("boxes => boxes.forEach(b => b.click())")
    expect(page.locator('input[name="pairs"]:checked')).to_have_count(5)
    page.get_by_role("button", name="Crear y pasar al sorteo").click()
    expect(page.locator("h1")).to_have_text("Ceros del viernes")
    tournament_url = page.url
    competition = Competition.objects.get()
    assert competition.format == "ceros" and competition.ceros == 2
    assert tournament_url.endswith(f"/liga/{competition.pk}/ceros/")

    # Round 1: drawn, checked (a pair rests), published as a sheet with numbered tables.
    page.get_by_role("button", name="Sortear la ronda 1").click()
    expect(page.locator("[data-draft] tbody tr")).to_have_count(2)
    expect(page.locator("#sorteo .bye")).to_contain_text("Descansa:")
    assert_page_ok(page, tournament_url, screenshot="ceros-draft")
    page.get_by_role("button", name="Publicar la ronda 1").click()
    expect(page.locator("table.print-round td.table-n")).to_have_text(["1", "2"])
    expect(page.locator(".bye")).to_contain_text("Descansa:")
    round_url = page.url
    assert_page_ok(page, round_url, screenshot="ceros-round-sheet")
    page.emulate_media(media="print")
    page.goto(round_url)
    expect(page.locator("table.print-round")).to_be_visible()
    expect(page.locator(".club-nav")).to_be_hidden()
    page.emulate_media(media="screen")
    links = page.locator("table.print-round tbody tr td:nth-child(2) a")
    matches = sorted(set(links.evaluate_all("els => els.map(e => e.href)")))
    assert len(matches) == 2

    # One result in: round 2 waits for the other.
    enter_result(page, matches[0], 3, 1)
    page.goto(tournament_url)
    expect(page.locator("[data-waiting]")).to_contain_text("Falta 1 resultado de la ronda 1")
    expect(page.get_by_role("button", name="Sortear la ronda 2")).to_have_count(0)
    enter_result(page, matches[1], 0, 3)

    # Round after round until one pair is left.
    number = 2
    while ceros_rounds.table(competition).winner is None:
        assert number < 20, "the tournament did not end"
        for url in publish_next(page, tournament_url, number):
            enter_result(page, url, 3, 2)
        number += 1
    winner = ceros_rounds.table(competition).winner
    assert winner is not None
    page.goto(tournament_url)
    expect(page.locator("#ganadora")).to_have_text(f"Gana la pareja {winner.pair.name}")
    expect(page.locator(".ceros-table tbody tr.out")).to_have_count(4)
    assert not Match.objects.filter(competition=competition).unplayed().exists()
    assert_page_ok(page, tournament_url, screenshot="ceros-winner")
