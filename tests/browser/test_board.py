"""A vaca played through the phone pages in Chromium at 390x844, with the taps counted.

Issue 3's limits, from the board to the saved hand: everything passed without
cards <= 12 taps; the same with its 16 cards <= 18; bets in two lances and all
16 cards <= 30. Each tap is one click on something a thumb would press.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from muscore.tables.models import Hand, Table
from tests.browser.conftest import board_in_place

pytestmark = pytest.mark.django_db(transaction=True)

# One deal, by seat: Ana R R 5 4, Bruno R C C 5, Carla 1 1 6 7, Diego S S 7 7.
# Ana's par of reyes (1), Bruno's par of caballos (1), Carla's par of ases (1),
# Diego's duples (3); nobody has juego; punto Diego (30) > Bruno (30?) decided by cards.
DEAL = {0: "R R 5 4", 1: "R C C 5", 2: "1 1 6 7", 3: "S S 7 7"}
NAMES = ["Ana", "Bruno", "Carla", "Diego"]


class Thumb:
    """Taps on the phone, counted, each followed by the page settling."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        self.count += 1
        target.click()
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_load_state()
        # A selector, not wait_for_function: the page's CSP forbids evaluating strings.
        expect(self.page.locator("body[data-busy]")).to_have_count(0)

    def save(self) -> None:
        """The save tap: htmx answers with a redirect to the board."""
        self.settle()
        self.count += 1
        with board_in_place(self.page):
            self.page.locator('[data-action="save"]').click()
        self.settle()

    # the things a thumb presses -------------------------------------------------------------

    def open_entry(self) -> None:
        self.count += 1
        with self.page.expect_navigation():
            self.page.locator('[data-action="enter-hand"]').click()
        self.settle()

    def seg(self, name: str, value: str) -> None:
        self.tap(self.page.locator("label.seg", has=self.page.locator(
            f'input[name="{name}"][value="{value}"]')))

    def button(self, act: str) -> None:
        self.tap(self.page.locator(f'button[name="act"][value="{act}"]'))

    def cards(self, deal: dict[int, str]) -> None:
        """Tap every shown card in the picker's order (speaking order from the mano)."""
        seats = [int(s) for s in self.page.locator("[data-picker-seat]").evaluate_all(
            "rows => rows.map(r => r.getAttribute('data-picker-seat'))")]
        for seat in seats:
            for card in deal[seat].split():
                self.count += 1
                self.page.locator(f'[data-card="{card}"]').click()
        self.settle()


def points(page: Page) -> tuple[int, int]:
    shown = page.locator("#scoreboard [data-points]").all_inner_texts()
    return int(shown[0]), int(shown[1])


def edit_board_url(page: Page) -> str:
    return re.sub(r"\?.*$", "", page.url)


def make_table_through_setup(page: Page, thumb: Thumb) -> None:
    page.goto("/nueva")
    for seat, name in enumerate(NAMES):
        page.fill(f'input[name="name_{seat}"]', name)
    page.locator("label.seg", has=page.locator('input[name="mano"][value="0"]')).click()
    with page.expect_navigation():
        page.get_by_role("button", name="Empezar").click()
    thumb.settle()


def test_a_vaca_played_on_the_phone(
    phone: Page, assert_page_ok: Callable[..., None], screenshots_dir: Path
) -> None:
    page = phone
    assert_page_ok(page, "/", screenshot="home")
    assert_page_ok(page, "/nueva", screenshot="setup")
    thumb = Thumb(page)
    make_table_through_setup(page, thumb)
    table = Table.objects.get()
    assert table.players == NAMES
    board_url = edit_board_url(page)
    expect(page.locator(".turn")).to_contain_text("Mano: Ana")
    expect(page.locator(".turn")).to_contain_text("da: Diego")
    assert points(page) == (0, 0)
    assert_page_ok(page, board_url, screenshot="board-empty")

    # Hand 1: everything passed, no cards. Ana par, Bruno par, Diego 33 de juego.
    thumb.count = 0
    thumb.open_entry()
    assert_page_ok(page, page.url, screenshot="hand-entry-empty")
    thumb.seg("p0", "par")
    thumb.seg("p1", "par")
    thumb.seg("j3", "33")
    thumb.seg("w_grande", "A")
    thumb.seg("w_chica", "B")
    thumb.seg("w_pares", "A")
    expect(page.locator(".preview .recuento")).to_contain_text("Grande: Ana y Carla +1, 1.")
    thumb.save()
    assert thumb.count <= 12, f"all passed without cards took {thumb.count} taps"
    no_cards_taps = thumb.count
    # A: grande 1 + pares 1 (Ana's par); B: chica 1 + juego 2 (only Diego).
    assert points(page) == (2, 3)
    expect(page.locator(".turn")).to_contain_text("Mano: Bruno")
    expect(page.locator(".last-hand")).to_contain_text("Juego: Bruno y Diego +2")

    # Hand 2: everything passed, all 16 cards.
    thumb.count = 0
    thumb.open_entry()
    thumb.cards(DEAL)
    expect(page.locator('[name="w_grande"]')).to_have_count(0)
    expect(page.locator(".preview .recuento")).to_be_visible()
    page.screenshot(path=screenshots_dir / "hand-entry-cards.png", full_page=True)
    thumb.save()
    assert thumb.count <= 18, f"all passed with 16 cards took {thumb.count} taps"
    cards_taps = thumb.count
    after_2 = points(page)
    assert after_2[0] > 2 or after_2[1] > 3
    assert Hand.objects.get(number=2).record["hands"] == {str(s): c for s, c in DEAL.items()}

    # Hand 3: bets in two lances and all 16 cards: grande envido quiero, pares envido no quiero.
    thumb.count = 0
    thumb.open_entry()
    thumb.cards(DEAL)
    thumb.button("bet:grande:A:2")
    thumb.button("end:grande:quiero")
    thumb.button("bet:pares:B:2")
    thumb.button("end:pares:no_quiero")
    expect(page.locator('[data-lance="pares"] .deje')).to_contain_text("+1")
    thumb.save()
    assert thumb.count <= 30, f"bets in two lances with 16 cards took {thumb.count} taps"
    bets_taps = thumb.count
    after_3 = points(page)
    assert Hand.objects.get(number=3).record["lances"]["grande"]["end"] == "quiero"

    # An undo of hand 3 brings back the board after hand 2; enter it again.
    with page.expect_navigation():
        page.get_by_role("button", name="Deshacer la última mano").click()
    # It asks first, naming the hand.
    expect(page.locator("h1")).to_contain_text("¿Deshacer la mano 3?")
    with page.expect_navigation():
        page.get_by_role("button", name="Sí, deshacer la mano 3").click()
    expect(page.locator(".notice")).to_contain_text("Mano 3 deshecha")
    assert points(page) == after_2
    assert not Hand.objects.filter(number=3).exists()
    thumb.open_entry()
    thumb.cards(DEAL)
    thumb.button("bet:grande:A:2")
    thumb.button("end:grande:quiero")
    thumb.button("bet:pares:B:2")
    thumb.button("end:pares:no_quiero")
    thumb.save()
    assert points(page) == after_3

    # Hand 4: an accepted órdago in chica, won by Ana y Carla: juego 1 is theirs.
    thumb.open_entry()
    thumb.button("bet:chica:B:ordago")
    thumb.button("end:chica:quiero")
    expect(page.locator('[name="w_grande"]')).to_have_count(0)
    thumb.seg("w_chica", "A")
    expect(page.locator(".preview")).to_contain_text("Órdago a chica querido")
    thumb.save()
    assert points(page) == (0, 0)
    expect(page.locator('[data-side="A"] .juegos-n')).to_contain_text("1 juego")
    expect(page.locator(".juegos-results")).to_contain_text("Juego 1 para Ana y Carla")

    # Hand 5: a big envido wanted, no cards: Ana y Carla 30, Bruno y Diego 2.
    thumb.open_entry()
    page.fill('input[name="a_grande"]', "30")
    thumb.button("bet:grande:A:amt")
    thumb.button("end:grande:quiero")
    thumb.seg("w_grande", "A")
    thumb.seg("w_chica", "B")
    thumb.seg("w_punto", "B")
    thumb.save()
    assert points(page) == (30, 2)

    # Hand 6: envido, diez más, treinta más, no quiero: the deje of 12 ends the juego
    # and the vaca (2-0), and the entry stops there.
    thumb.open_entry()
    thumb.button("bet:grande:A:2")
    page.fill('input[name="a_grande"]', "10")
    thumb.button("bet:grande:B:amt")
    page.fill('input[name="a_grande"]', "30")
    thumb.button("bet:grande:A:amt")
    thumb.button("end:grande:no_quiero")
    expect(page.locator('[data-lance="grande"] .deje')).to_contain_text("+12, 42")
    expect(page.locator('[data-lance="chica"]')).to_contain_text("No se juega")
    expect(page.locator('[name="w_chica"]')).to_have_count(0)
    thumb.save()
    expect(page.locator(".vaca-won")).to_contain_text("Vaca para Ana y Carla")
    expect(page.locator(".vaca-end-juegos")).to_contain_text("2–0")
    page.screenshot(path=screenshots_dir / "board-vaca-won.png", full_page=True)
    with page.expect_navigation():
        page.locator('[data-action="otra-vaca"]').click()
    expect(page.locator("[data-tally]")).to_contain_text("Vacas: Ana y Carla 1 – Bruno y Diego 0")

    # An edit of hand 1 (Bruno y Diego win the grande too): the board says what changed.
    history = page.get_by_role("link", name="Historial y correcciones")
    with page.expect_navigation():
        history.click()
    assert_page_ok(page, page.url, screenshot="history")
    with page.expect_navigation():
        page.get_by_role("link", name="Corregir la mano 1").click()
    thumb.settle()
    thumb.seg("w_grande", "B")
    thumb.save()
    expect(page.locator(".notice")).to_contain_text("Mano 1 corregida")
    assert Hand.objects.get(number=1).record["winners"]["grande"] == "B"

    # The view link shows the same board, with nothing to change.
    view_url = f"/t/{table.id}/"
    assert_page_ok(page, view_url, screenshot="board-view")
    expect(page.locator('[data-action="enter-hand"]')).to_have_count(0)
    print(f"taps: no cards {no_cards_taps}, 16 cards {cards_taps}, bets + cards {bets_taps}")


def test_card_picker_refuses_a_fifth_card_of_a_value(phone: Page) -> None:
    page = phone
    table = Table.objects.create(players=NAMES, rules={"players": 4, "reyes": 8, "target": 40,
                                                       "juegos": 2, "real31": "no"})
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    for _ in range(4):
        page.locator('[data-card="R"]').click()
    expect(page.locator('[data-card="R"]')).to_be_disabled()
    # The fifth tap goes to the next player with another value: auto-advance after four.
    page.locator('[data-card="5"]').click()
    expect(page.locator("#id_c0")).to_have_value("R R R R")
    expect(page.locator("#id_c1")).to_have_value("5")


def test_long_names_and_html_in_names_fit_a_360_px_phone(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    long_name = "Maximiliano de la Santísima Trinidad Ruiz"[:40]
    table = Table.objects.create(
        players=[long_name, "<script>alert(1)</script>", "Carla", "W" * 40],
        rules={"players": 4, "reyes": 8, "target": 40, "juegos": 2, "real31": "no"},
    )
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    assert_page_ok(phone, edit, screenshot="board-long-names")
    expect(phone.locator(".side-names").first).to_contain_text(long_name)
    expect(phone.locator(".side-names").nth(1)).to_contain_text("<script>")
    assert_page_ok(phone, edit + "mano", screenshot="hand-entry-long-names")
    assert_page_ok(phone, edit + "historial")
    assert_page_ok(phone, f"/t/{table.id}/")


def test_the_hand_entry_works_without_javascript(new_phone: Callable[..., Page]) -> None:
    page = new_phone(java_script_enabled=False)
    table = Table.objects.create(
        players=NAMES, rules={"players": 4, "reyes": 8, "target": 40, "juegos": 2, "real31": "no"}
    )
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    for seat, cards in DEAL.items():
        page.fill(f"#id_c{seat}", cards)
    with page.expect_navigation():
        page.locator('button[value="bet:grande:A:2"]').click()
    expect(page.locator('[data-lance="grande"] .bets')).to_contain_text("envido 2")
    with page.expect_navigation():
        page.locator('button[value="end:grande:quiero"]').click()
    expect(page.locator(".preview .recuento")).to_contain_text("Grande: Ana y Carla +2 querido")
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    assert page.url.endswith(f"/t/{table.id}/k/{table.edit_key}/")
    assert Hand.objects.get().record["lances"]["grande"]["end"] == "quiero"


def test_a_lie_is_entered_behind_its_disclosure_and_the_board_says_who_lied(phone: Page) -> None:
    """Issue 5.2 at the table: Bruno said "pares sí" holding R C 6 5. Closed by default
    (the honest hand costs no tap); opened, one tap on his "sí" makes pares a bet."""
    page = phone
    thumb = Thumb(page)
    make_table_through_setup(page, thumb)
    thumb.open_entry()
    declared = page.locator("[data-declared]")
    expect(declared).to_have_count(0)  # nothing to declare before any card is shown
    thumb.cards({0: "R R 5 4", 1: "R C 6 5", 2: "1 1 6 7", 3: "S 4 7 6"})
    expect(declared).not_to_have_attribute("open", "")
    expect(page.locator('[data-lance="pares"]')).to_contain_text("Solo Ana·Carla tienen pares")
    thumb.tap(declared.locator("summary"))
    # Opened, it stays open while the hand changes (a card taken back and tapped again).
    thumb.tap(page.locator("[data-picker-seat='3']"))
    thumb.tap(page.locator("[data-card-back]"))
    thumb.tap(page.locator('[data-card="6"]'))
    expect(declared).to_have_attribute("open", "")
    bruno = declared.locator('[data-said-seat="1"]')
    thumb.tap(bruno.locator("label.seg", has=page.locator('input[name="dp1"][data-said="si"]')))
    expect(declared).to_have_attribute("open", "")
    thumb.button("bet:pares:A:2")
    thumb.button("end:pares:quiero")
    expect(page.locator(".preview")).to_contain_text("Bruno dijo pares y no los tiene")
    thumb.save()
    assert Hand.objects.get().record["declared"] == {"1": {"pares": True}}
    expect(page.locator(".last-hand")).to_contain_text(
        "Bruno dijo pares y no los tiene: el lance es para Ana y Carla"
    )
