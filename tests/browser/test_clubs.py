"""A club's organiser on a phone: start a club with an account, add pairs, invite another
organiser; every club page passes the page check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from playwright.sync_api import Page, expect

from muscore.clubs.models import Club, Pair
from tests.clubs.factory import logged_in, make_club, make_pair, make_user

PASSWORD = "mus-de-los-jueves-2026"
PAIRS = [("Ana", "Bea"), ("Carlos", "Dani"), ("Eva", "Fermín"), ("Gorka", "Hugo")]


def start_club(phone: Page, name: str = "Bar Txoko", username: str = "maite") -> None:
    """From the clubs page: 'Crear un club' with a new organiser account."""
    phone.goto("/clubs/")
    phone.get_by_role("link", name="Crear un club").click()
    phone.get_by_label("Nombre del club").fill(name)
    phone.get_by_label("Tu nombre de usuario").fill(username)
    phone.get_by_label("Contraseña", exact=True).fill(PASSWORD)
    phone.get_by_label("Repite la contraseña").fill(PASSWORD)
    phone.get_by_role("button", name="Crear el club").click()
    expect(phone.locator("h1")).to_have_text(name)


def add_pairs(phone: Page, pairs: list[tuple[str, str]]) -> None:
    """'Nueva pareja', then 'Guardar y otra' for each pair but the last."""
    phone.get_by_role("link", name="Nueva pareja").click()
    for i, (one, two) in enumerate(pairs):
        phone.get_by_label("Jugador 1").fill(one)
        phone.get_by_label("Jugador 2").fill(two)
        last = i == len(pairs) - 1
        phone.get_by_role(
            "button", name="Guardar" if last else "Guardar y otra", exact=True
        ).click()
        expect(phone.get_by_role("status")).to_contain_text("Pareja guardada.")


def club_with_pairs(
    phone: Page, live_server: Any, pairs: list[tuple[str, str]], name: str = "Bar Txoko"
) -> Club:
    """What start_club and add_pairs leave, made through the services (the same calls the
    pages make) with the organiser's session given to the phone, which opens the club page:
    for the tests whose point comes after. The pages themselves are walked by
    test_an_organiser_starts_a_club_and_adds_four_pairs; through them this prefix cost
    seven page loads and form posts in each test that only needed a club."""
    organiser = make_user("maite")
    club = make_club(name, organiser)
    for one, two in pairs:
        make_pair(club, one, two)
    session = logged_in(organiser).cookies[settings.SESSION_COOKIE_NAME].value
    phone.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    phone.goto(f"/club/{club.slug}/")
    expect(phone.locator("h1")).to_have_text(name)
    return club


def test_an_organiser_starts_a_club_and_adds_four_pairs(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    assert_page_ok(phone, "/clubs/", screenshot="clubs-index")
    assert_page_ok(phone, "/clubs/nuevo", screenshot="clubs-new")
    start_club(phone)
    add_pairs(phone, PAIRS)
    for one, two in PAIRS:
        expect(phone.locator("#parejas")).to_contain_text(f"{one} y {two}")
    club = Club.objects.get()
    assert Pair.objects.filter(club=club).count() == 4
    assert_page_ok(phone, f"/club/{club.slug}/", screenshot="club-page")
    assert_page_ok(phone, f"/club/{club.slug}/parejas/nueva", screenshot="club-new-pair")


def test_an_invited_organiser_sets_a_password_from_the_link(
    phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None]
) -> None:
    start_club(phone)
    phone.get_by_role("link", name="Organizadores").click()
    phone.get_by_label("Nombre de usuario del nuevo organizador").fill("iker")
    phone.get_by_role("button", name="Invitar").click()
    link = phone.locator("[data-invite-link]").inner_text().strip()
    assert "/cuentas/clave/" in link
    assert_page_ok(phone, phone.url, screenshot="club-organisers")

    other = new_phone()
    other.goto(link)
    other.get_by_label("Contraseña nueva", exact=True).fill(PASSWORD)
    other.get_by_label("Contraseña nueva (confirmación)").fill(PASSWORD)
    other.get_by_role("button", name="Guardar la contraseña").click()
    other.get_by_role("link", name="Bar Txoko").click()
    expect(other.get_by_role("link", name="Nueva pareja")).to_be_visible()
    # A visitor sees the club but none of the organisers' buttons.
    visitor = new_phone()
    visitor.goto(other.url)
    expect(visitor.locator("h1")).to_have_text("Bar Txoko")
    expect(visitor.get_by_role("link", name="Nueva pareja")).to_have_count(0)
