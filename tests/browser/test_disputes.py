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


DISPUTE_PAGES = ["/calculadora/", "/calculadora/?players=6", "/lector/", "/lector/?c0=R+3+5+4",
                 "/reglas/", "/reglas/lances/", "/reglas/apuestas/", "/reglas/primas/",
                 "/reglas/recuento/", "/reglas/opciones/", "/reglas/mentiras/",
                 "/reglas/senas/", "/api/"]


def test_dispute_pages_pass_the_page_check(
    phone: Page, assert_pages_ok: Callable[..., None]
) -> None:
    """Every dispute page in one tab (conftest.check_pages): a tab each cost 13 times the
    tab's price for the same checks."""
    assert_pages_ok(phone, {
        path: "disputes" + re.sub(r"\W+", "-", path).rstrip("-") for path in DISPUTE_PAGES})


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
    # Typed instead of tapped: the typed fields are folded away under the buttons.
    lance.locator("[data-calc-typed] > summary").click()
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
    expect(lance.locator("#id_b_grande")).to_have_value("A2 B2")
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
    lance.locator("[data-calc-typed] > summary").click()
    lance.locator('input[name="f_pares"][value="B"] + span').click()
    lance.locator("#id_b_pares").fill("2")
    lance.locator('input[name="e_pares"][value="quiero"] + span').click()
    phone.get_by_role("button", name="Ver el recuento").click()
    settle(phone)
    expect(phone.locator("#result .lies")).to_contain_text(
        "Bruno dijo pares y no los tiene: el lance es para Ana y Carla")
    expect(phone.locator("#result .calc-score-final")).to_contain_text("Queda 6–6")


LECTOR_HANDS = [
    ("R 3 5 4", "par de reyes", "sin pares"),
    ("3 3 2 2", "duples de reyes y ases", "duples de treses y doses"),
    ("7 7 7 R", "medias de sietes", "medias de sietes"),
]


def test_lector_reads_a_tapped_hand_in_both_modes(phone: Page) -> None:
    """Each hand tapped on a lector loaded anew, in the one tab; every hand read wrong is
    named at the end."""
    wrong: list[str] = []
    for cards, eight, four in LECTOR_HANDS:
        try:
            phone.goto("/lector/")
            tap_cards(phone, cards)
            settle(phone)
            expect(phone.locator('[data-reyes="8"] [data-lance="pares"]')).to_contain_text(eight)
            expect(phone.locator('[data-reyes="4"] [data-lance="pares"]')).to_contain_text(four)
            if cards == "7 7 7 R":
                expect(phone.locator('[data-reyes="8"] [data-lance="juego"]')).to_contain_text(
                    "31")
                expect(phone.locator('[data-reyes="8"] [data-lance="real31"]')).to_contain_text(
                    "rey")
        except AssertionError as error:
            wrong.append(f"{cards}: {error}")
    assert not wrong, "\n".join(wrong)


def test_the_calculator_folds_the_typed_bets_away_and_its_links_are_tap_targets(
    phone: Page, new_phone: Callable[..., Page]
) -> None:
    """Issue 9.10 and 9.8: with JS, the bet buttons and not the typed fields too; the
    4 / 6 players links are 44 px targets."""
    phone.goto("/calculadora/")
    for lance in ("grande", "chica", "pares", "juego"):
        section = phone.locator(f'[data-lance="{lance}"]')
        expect(section.locator(".btn-bet").first).to_be_visible()
        expect(section.locator("[data-calc-typed]")).not_to_have_attribute("open", "")
        expect(section.locator(f"#id_b_{lance}")).to_be_hidden()
    for link in phone.locator(".calc-players a").all():
        box = link.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (link.inner_text(), box)
    # A tap draws the lance again: still folded.
    grande = phone.locator('[data-lance="grande"]')
    grande.locator(".bet-row", has_text="A1 y A2").get_by_role("button", name="Envido").click()
    settle(phone)
    expect(grande.locator(".bets")).to_have_text("A1 y A2: envido 2")
    expect(grande.locator("#id_b_grande")).to_be_hidden()
    # Without JS the typed fields are the way in, and they are open.
    plain = new_phone(java_script_enabled=False)
    plain.goto("/calculadora/")
    expect(plain.locator("#id_b_grande")).to_be_visible()


def test_a_permalink_opens_at_the_result(phone: Page) -> None:
    """Issue 9.10: the permalink opened at the top, the result 2,900 px below."""
    from muscore.permalink import permalink_url

    record = {"score": {"A": 38, "B": 35}, "mano": 0,
              "hands": {str(seat): cards for seat, cards in enumerate(DEAL)},
              "lances": {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}],
                                    "end": "no_quiero"}}}
    link = permalink_url(record)
    assert link.endswith("#result")
    phone.goto(link)
    settle(phone)
    result = phone.locator("#result")
    expect(result.locator(".calc-score-final")).to_contain_text("Queda 39–41")
    box = result.bounding_box()
    assert box and 0 <= box["y"] < 200, f"the result is not on screen: {box}"
    assert phone.evaluate("() => window.scrollY") > 500


def test_a_missing_winner_is_asked_in_a_referees_words(phone: Page) -> None:
    """Issue 9.7: "El asiento 0 no enseñó cartas: indica el ganador de grande en 'winners'"."""
    phone.goto("/calculadora/")
    phone.get_by_role("button", name="Ver el recuento").click()
    settle(phone)
    error = phone.locator("#result [role=alert]")
    expect(error).to_contain_text("Grande: sin las cartas de A1 no se sabe quién ganó.")
    assert "winners" not in error.inner_text() and "asiento" not in error.inner_text()


def test_the_lector_counts_its_four_cards_without_a_seats_name(phone: Page) -> None:
    """Issue 30.6: the lector's one field has no player, and its live region read
    "Cartas de Cartas: 0 de 4"; it says how many of the four cards are in."""
    phone.goto("/lector/")
    status = phone.locator("[data-picker-status]")
    phone.locator("#id_c0").focus()
    expect(status).to_have_text("Cartas: 0 de 4")
    phone.locator("#id_c0").press_sequentially("rr5")
    expect(status).to_have_text("Cartas: 3 de 4")
    expect(status).not_to_contain_text("Cartas de")
