"""The dispute pages on a phone: a disputed hand in the calculator, its permalink opened
on a second phone, the hand lector in both modes, and every page passing assert_page_ok."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = ["R R 5 4", "R C C 5", "1 1 6 7", "S S 7 7"]


def settle(page: Page) -> None:
    page.wait_for_load_state()
    expect(page.locator("body[data-busy]")).to_have_count(0)


def tap_cards(page: Page, cards: str) -> None:
    for card in cards.split():
        page.locator(f'[data-keypad] [data-card="{card}"]').click()


def steps_text(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#result .step").all_inner_texts()]


@pytest.mark.parametrize(
    "path", ["/calculadora/", "/calculadora/?players=6", "/lector/", "/lector/?c0=R+3+5+4",
             "/reglas/", "/reglas/lances/", "/reglas/apuestas/", "/reglas/primas/",
             "/reglas/recuento/", "/reglas/opciones/", "/reglas/mentiras/", "/reglas/senas/",
             "/api/"],
)
def test_dispute_pages_pass_the_page_check(
    phone: Page, assert_page_ok: Callable[..., None], path: str
) -> None:
    name = "disputes" + re.sub(r"\W+", "-", path).rstrip("-")
    assert_page_ok(phone, path, screenshot=name)


def test_disputed_hand_in_the_calculator_and_its_permalink_on_another_phone(
    phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None]
) -> None:
    phone.goto("/calculadora/")
    # The score before: A 38, B 35.
    phone.fill("#id_sa", "38")
    phone.fill("#id_sb", "35")
    # The sixteen cards, tapped on the keypad seat after seat.
    for cards in DEAL:
        tap_cards(phone, cards)
    for seat, cards in enumerate(DEAL):
        expect(phone.locator(f"#id_c{seat}")).to_have_value(cards)
    # Grande: A envido, B cinco más, A no quiero.
    lance = phone.locator('[data-lance="grande"]')
    lance.locator('input[name="f_grande"][value="A"] + span').click()
    lance.locator("#id_b_grande").fill("2 5")
    lance.locator('input[name="e_grande"][value="no_quiero"] + span').click()
    settle(phone)
    phone.get_by_role("button", name="Ver el recuento").click()
    settle(phone)
    expect(phone.locator("#result .step")).to_have_count(3)
    steps = steps_text(phone)
    assert "Rechazado un reenvite: se cobra lo que había antes, 2." in steps[0]
    expect(phone.locator("#result .calc-score-final")).to_contain_text("Queda 39–41")
    expect(phone.locator("#result .step-end")).to_contain_text("Llegan a 40")
    # The address bar is the permalink now; the page also shows it.
    link = phone.locator("[data-permalink]").get_attribute("href")
    assert link and link.startswith("/calculadora/?h=")
    assert "/calculadora/?h=" in phone.url
    # The rule link goes to the rule.
    phone.locator("#result .step").first.get_by_role("link").click()
    expect(phone).to_have_url(re.compile(r"/reglas/apuestas/#deje$"))
    expect(phone.locator("#deje")).to_be_visible()

    other = new_phone()
    assert_page_ok(other, link, screenshot="disputes-permalink")
    assert steps_text(other) == steps
    expect(other.locator("#result .calc-score-final")).to_contain_text("Queda 39–41")
    expect(other.locator("#id_c0")).to_have_value("R R 5 4")


def test_a_rejected_raise_entered_by_taps_is_paid_what_stood_before(phone: Page) -> None:
    phone.goto("/calculadora/")
    phone.fill("#id_sa", "38")
    phone.fill("#id_sb", "35")
    for cards in DEAL:
        tap_cards(phone, cards)
    # Grande by taps, as on the board: A envido, B envido más, A no quiero.
    lance = phone.locator('[data-lance="grande"]')
    lance.locator(".bet-row", has_text="A1 y A2").get_by_role("button", name="Envido").click()
    settle(phone)
    expect(lance.locator(".bets")).to_have_text("A1 y A2: envido 2")
    lance.get_by_role("button", name="Envido más").click()
    settle(phone)
    lance.get_by_role("button", name="No quiero").click()
    settle(phone)
    expect(lance.locator(".bets")).to_have_text(
        "A1 y A2: envido 2 · B1 y B2: 2 más · A1 y A2: no quiero")
    # The taps filled the typed fields: the no-JS entry shows the same bets.
    expect(lance.locator("#id_b_grande")).to_have_value("2 2")
    first = phone.locator("#result .step").first
    expect(first).to_contain_text("Rechazado un reenvite: se cobra lo que había antes, 2.")
    expect(first).to_have_class(re.compile(r"\bside-B\b"))  # B raised last: B collects


def test_a_lie_is_said_in_the_recuento(phone: Page) -> None:
    phone.goto("/calculadora/")
    phone.locator("details.field", has=phone.locator("#id_n0")).locator("summary").click()
    for seat, name in enumerate(["Ana", "Bruno", "Carla", "Diego"]):
        phone.fill(f"#id_n{seat}", name)
    for cards in ["R R 5 4", "R C 6 5", "1 1 6 7", "S C 7 4"]:
        tap_cards(phone, cards)
    phone.locator("details.declared summary").click()
    phone.locator('input[name="dp1"][value="si"] + span').click()
    lance = phone.locator('[data-lance="pares"]')
    lance.locator('input[name="f_pares"][value="B"] + span').click()
    lance.locator("#id_b_pares").fill("2")
    lance.locator('input[name="e_pares"][value="quiero"] + span').click()
    phone.get_by_role("button", name="Ver el recuento").click()
    settle(phone)
    expect(phone.locator("#result .lies")).to_contain_text(
        "Bruno dijo pares y no los tiene: el lance es para Ana y Carla")
    expect(phone.locator("#result .calc-score-final")).to_contain_text("Queda 6–6")


@pytest.mark.parametrize(
    ("cards", "eight", "four"),
    [
        ("R 3 5 4", "par de reyes", "sin pares"),
        ("3 3 2 2", "duples de reyes y ases", "duples de treses y doses"),
        ("7 7 7 R", "medias de sietes", "medias de sietes"),
    ],
)
def test_lector_reads_a_tapped_hand_in_both_modes(
    phone: Page, cards: str, eight: str, four: str
) -> None:
    phone.goto("/lector/")
    tap_cards(phone, cards)
    settle(phone)
    expect(phone.locator('[data-reyes="8"] [data-lance="pares"]')).to_contain_text(eight)
    expect(phone.locator('[data-reyes="4"] [data-lance="pares"]')).to_contain_text(four)
    if cards == "7 7 7 R":
        expect(phone.locator('[data-reyes="8"] [data-lance="juego"]')).to_contain_text("31")
        expect(phone.locator('[data-reyes="8"] [data-lance="real31"]')).to_contain_text("rey")
