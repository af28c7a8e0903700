"""A small championship in a phone's browser, from the public entry form to the champion
(three bars, their heats, the quotas, a phase of groups, a knockout final with third
place), the bracket and champion on the hall's TV at 1920x1080, and the round clock
counting down."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from muscore.championships import services
from muscore.championships.models import Championship
from tests.championships.factory import (
    drawn_semifinal,
    open_games,
    play_all,
    play_heats,
    small_championship,
)
from tests.clubs.factory import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TV_SIZE = {"width": 1920, "height": 1080}


def log_in(page: Page, username: str) -> None:
    page.goto("/cuentas/entrar")
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    expect(page.locator(".club-nav .account")).to_contain_text(username)


def test_a_small_championship_from_the_entry_form_to_the_champion(
        phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None],
        screenshots_dir: Path) -> None:
    championship, boss, barmen = small_championship(
        seats=8, bars=[("Bar Txoko", 4), ("Herriko Taberna", 3), ("Gure Etxea", 3)])
    home = f"/campeonatos/{championship.pk}/"
    assert_page_ok(phone, home, screenshot="championship-open")

    # A pair enters from the public form on its phone.
    phone.get_by_role("link", name="Inscribir una pareja").click()
    phone.get_by_label("Sede").select_option(label="Herriko Taberna")
    phone.get_by_label("Nombre de la pareja").fill("Los de Leitza")
    phone.get_by_label("Jugador 1").fill("Iñaki")
    phone.get_by_label("Jugador 2").fill("Patxi")
    phone.get_by_label(re.compile("^Contacto")).fill("600 123 456")
    phone.get_by_role("button", name="Inscribir").click()
    expect(phone.locator("[data-entry-pending]")).to_contain_text("pendiente de confirmar")
    # The bar's volunteer confirms it on his phone (issue 28 point 3): until then it holds
    # no seat and nobody else sees it.
    volunteer = new_phone()
    log_in(volunteer, "barra1")
    sede = championship.sedes.get(name="Herriko Taberna")
    volunteer.goto(f"{home}sedes/{sede.pk}/")
    waiting = volunteer.locator("[data-pending-list]")
    expect(waiting).to_contain_text("1 inscripción por confirmar")
    expect(waiting).to_contain_text("Los de Leitza")
    expect(waiting.locator("[data-contact]")).to_have_text("600 123 456")
    assert_page_ok(volunteer, volunteer.url, screenshot="championship-entry-to-confirm")
    waiting.get_by_role("button", name="Confirmar").click()
    expect(volunteer.locator("[data-pending-list]")).to_have_count(0)
    expect(volunteer.locator("[data-enrolments] li[data-status=entered]").filter(
        has_text="Los de Leitza")).to_have_count(1)
    # The same person in a second pair is refused, naming the pair he is in.
    phone.goto(home + "inscripcion/")
    phone.get_by_label("Nombre de la pareja").fill("Otra")
    phone.get_by_label("Jugador 1").fill("iñaki")
    phone.get_by_label("Jugador 2").fill("Mikel")
    phone.get_by_role("button", name="Inscribir").click()
    expect(phone.locator(".errors")).to_contain_text("ya juega en la pareja Los de Leitza")

    # The organiser closes the entries: the seats and their arithmetic.
    organiser = new_phone()
    log_in(organiser, "federacion")
    organiser.goto(home)
    organiser.get_by_role("button", name="Cerrar las inscripciones y calcular las plazas").click()
    expect(organiser.locator("[data-arithmetic]")).to_contain_text("8 plazas: primero 1 por sede")
    expect(organiser.locator("[data-quotas] tbody tr td:last-child")).to_have_text(["3", "3", "2"])

    # The bars play their heats (each bar's organiser, through the league's results).
    play_heats(championship, barmen)
    organiser.reload()
    expect(organiser.locator("[data-qualified]")).to_have_count(3)
    expect(organiser.locator("[data-qualified]").first).to_contain_text("Bar Txoko 1")

    # A phase of groups, drawn in public with its seed; the best 2 of each go to the final.
    organiser.get_by_label("Nombre de la fase").fill("Semifinales")
    organiser.get_by_label("Pasan de cada grupo").fill("2")
    organiser.get_by_role("button", name="Añadir la fase").click()
    organiser.get_by_label("Semilla del sorteo (pública)").fill("Txapelketa 2026")
    organiser.get_by_role("button", name="Sortear los grupos").click()
    expect(organiser.locator("[data-group]")).to_have_count(2)
    expect(organiser.locator("[data-group]").first.locator("li")).to_have_count(4)
    semis = championship.phases.get()
    for group in semis.groups.all():
        play_all(group.competition, boss)

    # The last phase, a knockout of the 4 going on with a match for third place.
    organiser.get_by_label("Nombre de la fase").fill("Final")
    organiser.get_by_label("Nivel (1: tras las fases previas)").fill("2")
    organiser.get_by_label("Eliminatoria (la última fase)").check()
    organiser.get_by_label("Partida por el tercer puesto").check()
    organiser.get_by_role("button", name="Añadir la fase").click()
    organiser.locator("[data-phase]").last.get_by_label(
        "Semilla del sorteo (pública)").fill("final")
    organiser.locator("[data-phase]").last.get_by_role(
        "button", name="Sortear la eliminatoria").click()
    bracket = organiser.locator("[data-phase]").last.locator("[data-bracket]")
    expect(bracket.locator("[data-round]")).to_have_count(3)  # semifinals, final, third
    expect(bracket.locator("[data-round]").first.locator("[data-tie]")).to_have_count(2)
    final = championship.phases.get(name="Final")
    for game in open_games(final):  # the two semifinals: results through the league
        play_all(game, boss)
    # The results made the final and the third place: the phone reads them, nothing else.
    phone.goto(home)
    final_tie = phone.locator("[data-bracket] [data-round]").nth(1).locator("[data-tie]")
    expect(final_tie).not_to_contain_text("…")
    games = open_games(final)
    assert len(games) == 2  # the final and the third place
    for game in games:
        play_all(game, boss)

    # The public page names the champion; a tap shows its path through the phases.
    assert_page_ok(phone, home, screenshot="championship-champion")
    expect(phone.locator("[data-champion]")).to_contain_text("Campeones")
    expect(phone.locator("[data-bracket-champion]")).to_contain_text("Campeones")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    phone.locator("[data-champion] a").click()
    expect(phone.locator("[data-path] li")).to_have_count(4)  # heat, group, semi, final
    expect(phone.locator("[data-path]")).to_contain_text("Final")

    # The hall's TV at 1920x1080: the bracket and the champion, no scrolling sideways.
    tv = new_phone()
    tv.set_viewport_size(TV_SIZE)
    tv.goto(f"/campeonatos/{championship.pk}/fases/{final.pk}/tv/")
    expect(tv.locator("[data-bracket-champion]")).to_contain_text("Campeones")
    expect(tv.locator("[data-bracket] [data-round]")).to_have_count(3)
    tv.screenshot(path=str(screenshots_dir / "championship-tv-champion.png"))
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV_SIZE["width"]


def test_the_halls_tv_counts_down_the_round(
        phone: Page, assert_page_ok: Callable[..., None]) -> None:
    championship, boss, _, phase = drawn_semifinal(seats=8, bars=[
        ("Bar Txoko", 4), ("Herriko Taberna", 4), ("Gure Etxea", 3)])
    services.start_round_clock(phase, by=boss)
    Championship.objects.filter(pk=championship.pk).update(round_minutes=30)
    tv = phone
    tv.set_viewport_size(TV_SIZE)
    tv.goto(f"/campeonatos/{championship.pk}/fases/{phase.pk}/tv/", wait_until="networkidle")
    expect(tv.locator(".tv-group")).to_have_count(2)
    clock = tv.locator("[data-deadline]").first
    expect(clock).to_have_text(re.compile(r"^(29|30):\d\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # it counts down
    width = tv.evaluate("document.documentElement.scrollWidth")
    assert width <= TV_SIZE["width"]
