"""A result both pairs agree on, on three phones: the organiser hands each pair its link
(from the match page), pair A enters the result from its link and it waits (not in the
standings), pair B confirms it from its own phone, and the standings count it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import confirmations
from muscore.leagues.models import Match, ResultClaim
from tests.browser.test_leagues import standings_row
from tests.clubs.factory import PASSWORD, make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page) -> None:
    page.goto("/cuentas/entrar")
    page.get_by_label("Nombre de usuario").fill("maite")
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    expect(page.locator(".club-nav .account")).to_contain_text("maite")


def test_a_pending_result_confirmed_from_the_other_pairs_phone(
    phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None]
) -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = Match.objects.select_related("first__pair", "second__pair").get(
        competition=competition, number=1
    )
    assert match.first is not None and match.second is not None
    first, second = match.first.pair.name, match.second.pair.name
    league_url = f"/club/{club.slug}/liga/{competition.pk}/"

    # The organiser opens the match page and reads out each pair's link.
    organiser = phone
    log_in(organiser)
    organiser.goto(league_url + "partida/1/")
    organiser.locator("#enlaces-parejas summary").click()
    expect(organiser.locator("#enlaces-parejas svg.qr")).to_have_count(2)
    links = [organiser.locator(f'[data-pair-link="{side}"]').inner_text().strip()
             for side in (0, 1)]
    assert all("/resultado/" in link for link in links) and links[0] != links[1]
    assert_page_ok(organiser, league_url + "partida/1/", screenshot="confirm-organiser-links")
    assert_page_ok(organiser, league_url + "jornada/1/enlaces", screenshot="confirm-round-slips")
    expect(organiser.locator(".pair-slip")).to_have_count(4)

    # Pair A enters 3-1 from its own phone.
    pair_a = new_phone()
    pair_a.goto(links[0])
    expect(pair_a.locator(".you-are")).to_contain_text(first)
    pair_a.get_by_label(f"Juegos de {first}").fill("3")
    pair_a.get_by_label(f"Juegos de {second}").fill("1")
    pair_a.get_by_role("button", name="Anotar el resultado").click()
    expect(pair_a.get_by_role("status")).to_contain_text("falta que la otra pareja")
    expect(pair_a.locator("#resultado-parejas")).to_have_attribute("data-claim", "pending")
    expect(pair_a.get_by_role("button", name="Confirmar el resultado")).to_have_count(0)
    assert_page_ok(pair_a, links[0], screenshot="confirm-pair-pending")

    # Pending: the standings do not count it yet.
    organiser.goto(league_url)
    assert standings_row(organiser, first)[2] == "0"
    assert standings_row(organiser, second)[2] == "0"

    # Pair B, on another phone, sees it and confirms.
    pair_b = new_phone()
    pair_b.goto(links[1])
    expect(pair_b.locator("#resultado-parejas h2")).to_contain_text("3–1")
    assert_page_ok(pair_b, links[1], screenshot="confirm-pair-to-confirm")
    pair_b.get_by_role("button", name="Confirmar el resultado").click()
    expect(pair_b.get_by_role("status")).to_contain_text("ya cuenta en la clasificación")
    expect(pair_b.locator("#resultado-parejas")).to_have_attribute("data-claim", "settled")

    # The standings count it now, with no other step.
    organiser.goto(league_url)
    assert standings_row(organiser, first)[2:7] == ["1", "1", "0", "0", "2"]
    assert standings_row(organiser, second)[2:7] == ["1", "0", "1", "0", "0"]
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 1))
    assert ResultClaim.objects.get().status == "confirmed"
    # Pair A's link now only shows the result.
    pair_a.reload()
    expect(pair_a.locator("#resultado-parejas")).to_have_attribute("data-claim", "settled")


def test_a_disputed_result_opens_the_calculator_and_the_organiser_decides(
    phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None]
) -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = Match.objects.select_related("first__pair", "second__pair").get(
        competition=competition, number=1
    )
    assert match.first is not None and match.second is not None
    first, second = match.first.pair.name, match.second.pair.name
    keys = confirmations.keys_for([match])[match.pk]
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    links = [f"{base}partida/1/resultado/{keys[side]}/" for side in (0, 1)]

    pair_b = phone
    pair_b.goto(links[1])
    pair_b.get_by_label(f"Juegos de {first}").fill("0")
    pair_b.get_by_label(f"Juegos de {second}").fill("3")
    pair_b.get_by_role("button", name="Anotar el resultado").click()
    expect(pair_b.locator("#resultado-parejas")).to_have_attribute("data-claim", "pending")

    # Pair A does not agree: it says why, and checks the recuentos in the calculator.
    pair_a = new_phone()
    pair_a.goto(links[0])
    pair_a.locator("#discutir summary").click()
    pair_a.get_by_label("Nota (opcional)").fill("Fue 2-3: la última mano era nuestra")
    pair_a.get_by_role("button", name="Discutir el resultado").click()
    expect(pair_a.get_by_role("status")).to_contain_text("decide la organización")
    expect(pair_a.locator("#resultado-parejas")).to_have_attribute("data-claim", "disputed")
    assert_page_ok(pair_a, links[0], screenshot="confirm-pair-disputed")
    pair_a.get_by_role("link", name="Abrir la calculadora de recuentos").click()
    expect(pair_a).to_have_url(re.compile(r"/calculadora/\?"))
    names = match.first.pair.player_names()
    expect(pair_a.locator('input[name="n0"]')).to_have_value(names[0])
    juegos = str(competition.rules["juegos"])
    expect(pair_a.locator('input[name="juegos"]')).to_have_value(juegos)

    # The organiser reads the dispute on the match page and accepts the result with a note.
    organiser = new_phone()
    log_in(organiser)
    assert_page_ok(organiser, base + "partida/1/", screenshot="confirm-organiser-dispute")
    expect(organiser.locator("#resultado-parejas")).to_contain_text(f"discutido por {first}")
    expect(organiser.locator("#registro-parejas")).to_contain_text("la última mano era nuestra")
    organiser.get_by_label("Nota (opcional)").fill("Revisado en la calculadora: 0-3")
    organiser.get_by_role("button", name="Aceptar el resultado").click()
    expect(organiser.get_by_role("status")).to_contain_text("Resultado aceptado.")
    organiser.locator("#registro-parejas summary").click()
    expect(organiser.locator("#registro-parejas")).to_contain_text("Revisado en la calculadora")
    organiser.goto(base)
    assert standings_row(organiser, second)[2:7] == ["1", "1", "0", "0", "2"]
    claim = ResultClaim.objects.get()
    assert claim.status == "accepted" and claim.note == "Revisado en la calculadora: 0-3"
