"""Individual play on a phone (issue 37): three at a bar, five at a family table, six read
at a glance, each for himself. Every tap is counted where the issue sets a limit (the
figures are in docs/benchmarks.md); the board of six is read at 360 px and on a TV."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import WITH_SERVICE_WORKER, check_page
from tests.browser.test_hand_entry import board_path, entry_path, settle

pytestmark = pytest.mark.django_db(transaction=True)

THREE = ["Ana", "Bruno", "Carla"]
# The shared examples' deal of three: Ana R R 5 4, Bruno R C C 5, Carla 1 1 6 7.
DEAL3 = ["R R 5 4", "R C C 5", "1 1 6 7"]
SIX = ["Ana", "Bruno", "Carla", "Diego", "Eva", "Fede"]
DEAL6 = ["R R 5 4", "R C C 5", "1 1 6 7", "S S 7 7", "R 7 6 5", "C 4 3 2"]
TAP_LIMITS = {"three_no_cards": 5, "three_cards_envido": 18, "six_cards": 30}


class Thumb:
    """A phone's taps, counted (a tap is a click; a typed amount is no tap here)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str, *, navigates: bool = False) -> None:
        self.count += 1
        if navigates:
            with self.page.expect_navigation():
                self.page.locator(selector).first.click()
        else:
            self.page.locator(selector).first.click()
        settle(self.page)

    def act(self, value: str, *, navigates: bool = False) -> None:
        self.tap(f'button[name="act"][value="{value}"]', navigates=navigates)

    def cards(self, hands: list[str]) -> None:
        for cards in hands:
            for card in cards.split():
                self.count += 1
                self.page.locator(f'[data-card="{card}"]').click()
        settle(self.page)

    def winner(self, lance: str, side: str) -> None:
        self.tap(f'label.seg:has(input[name="w_{lance}"][value="{side}"])')


def score(table: Table) -> dict[str, int]:
    return dict(services.table_state(table)["current"]["hands"][-1]["score"])


def test_three_at_a_bar_a_vaca_to_its_winner(phone: Page) -> None:
    """/nueva's "Tres en el bar"; an envido where one leaves and one holds on; a correction
    of that hand; an órdago accepted by one of two; an undo and the hand again; the vaca
    to its winner, said for one player."""
    page = phone
    page.goto("/nueva")
    page.locator('[data-preset="tres-en-el-bar"]').click()
    expect(page.locator('input[name="players"][value="3"]')).to_be_checked()
    expect(page.locator('.name-row[data-seat="3"]')).to_be_hidden()
    expect(page.locator('[data-seat-note="alone"]')).to_be_visible()
    expect(page.locator('.name-row[data-seat="2"] [data-side-tag]')).to_have_text("C")
    for seat, name in enumerate(THREE):
        page.fill(f"#id_name_{seat}", name)
    page.locator("[data-options-box] summary").click()
    page.locator("label.seg", has=page.locator('input[name="juegos"][value="1"]')).click()
    with page.expect_navigation():
        page.locator("form.setup button.btn-primary").click()
    table = Table.objects.get()
    assert table.players == THREE and table.rules["players"] == 3

    # Hand 1: Ana envida, Bruno leaves, Carla raises 3, Ana holds on.
    thumb = Thumb(page)
    thumb.tap('[data-action="enter-hand"]', navigates=True)
    thumb.cards(DEAL3)
    thumb.act("bet:grande:A:2")
    thumb.act("end:grande:no_quiero:B")
    grande = page.locator('[data-lance="grande"]')
    expect(grande.locator('[data-talk-side="B"][data-out]')).to_contain_text("fuera")
    expect(grande.locator(".talk-who")).to_have_text("Habla Carla")
    page.fill("#a_grande", "3")
    thumb.act("bet:grande:C:amt")
    thumb.act("end:grande:quiero:A")
    expect(page.locator(".preview")).to_contain_text("Queda Ana 6, Bruno 2 y Carla 1.")
    thumb.tap('[data-action="save"]', navigates=True)
    assert score(table) == {"A": 6, "B": 2, "C": 1}
    expect(page.locator('[data-side="A"] [data-points]')).to_have_text("6")

    # A correction: Ana did not hold on to Carla's raise; Carla takes the deje, 2.
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano/1")
    settle(page)
    page.locator('button[value="pop:grande"]').click()
    settle(page)
    page.locator('button[value="end:grande:no_quiero:A"]').click()
    settle(page)
    expect(page.locator('[data-lance="grande"] .deje')).to_contain_text("Carla +2")
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    expect(page.locator(".notice")).to_contain_text("Mano 1 corregida")
    assert score(table) == {"A": 1, "B": 2, "C": 3}

    # Hand 2: Bruno, mano now, passes; Carla goes órdago; Ana holds on, Bruno leaves.
    with page.expect_navigation():
        page.locator('[data-action="enter-hand"]').click()
    settle(page)
    for cards in DEAL3:
        for card in cards.split():
            page.locator(f'[data-card="{card}"]').click()
    settle(page)
    mano = services.table_state(table)["current"]["next_mano"]
    assert mano == 1  # Bruno
    page.locator('button[value="paso:grande:B"]').click()
    settle(page)
    page.locator('button[value="bet:grande:C:ordago"]').click()
    settle(page)
    page.locator('button[value="end:grande:quiero:A"]').click()
    settle(page)
    page.locator('button[value="end:grande:no_quiero:B"]').click()
    settle(page)
    # The keypad fills the seats from the mano: Bruno R R 5 4, Carla R C C 5, Ana 1 1 6 7.
    # Of the two still in, Carla (R C C 5) beats Ana at grande: the juego, the vaca.
    expect(page.locator(".preview")).to_contain_text("Órdago: juego para Carla")
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    expect(page.locator(".vaca-won")).to_have_text("Vaca para Carla")
    expect(page.locator(".vaca-end-juegos")).to_contain_text(
        "juegos ganados: Ana 0, Bruno 0 y Carla 1")

    # An undo takes the órdago back; the board is the juego as it stood.
    page.locator('[data-action="undo"], .btn-undo').first.click()
    page.wait_for_load_state()
    confirm = page.locator('button.btn-danger, [data-confirm-undo]')
    if confirm.count():
        with page.expect_navigation():
            confirm.first.click()
    settle(page)
    expect(page.locator(".notice")).to_contain_text("Mano 2 deshecha")
    assert Hand.objects.count() == 1
    expect(page.locator('[data-side="C"] [data-points]')).to_have_text("3")
    expect(page.locator("body")).not_to_contain_text("ganan")


def test_tap_counts_of_three_players(phone: Page) -> None:
    page = phone
    counts: dict[str, int] = {}
    # A hand passed by all without cards: the winners of grande, chica and punto.
    table = services.create_table(players=THREE)
    page.goto(board_path(table))
    thumb = Thumb(page)
    thumb.tap('[data-action="enter-hand"]', navigates=True)
    for lance, side in (("grande", "A"), ("chica", "C"), ("punto", "B")):
        thumb.winner(lance, side)
    thumb.tap('[data-action="save"]', navigates=True)
    counts["three_no_cards"] = thumb.count
    assert score(table) == {"A": 1, "B": 1, "C": 1}

    # All twelve cards and an envido answered by both.
    thumb = Thumb(page)
    thumb.tap('[data-action="enter-hand"]', navigates=True)
    thumb.cards(DEAL3)
    # Bruno is mano: he envida, Carla and Ana answer.
    thumb.act("bet:grande:B:2")
    thumb.act("end:grande:quiero:C")
    thumb.act("end:grande:no_quiero:A")
    thumb.tap('[data-action="save"]', navigates=True)
    counts["three_cards_envido"] = thumb.count
    record = Hand.objects.order_by("number").last()
    assert record is not None
    assert record.record["lances"]["grande"] == {"bets": [{"side": "B", "n": 2}],
                                                 "end": "quiero", "out": ["A"]}
    print(f"\ntaps, 3 players: {counts}")
    for name, count in counts.items():
        assert count <= TAP_LIMITS[name], (name, count)


def test_six_players_with_twenty_four_cards(phone: Page) -> None:
    page = phone
    table = services.create_table(players=SIX, rules={"individual": True})
    page.goto(board_path(table))
    thumb = Thumb(page)
    thumb.tap('[data-action="enter-hand"]', navigates=True)
    thumb.cards(DEAL6)
    thumb.tap('[data-action="save"]', navigates=True)
    print(f"\ntaps, 6 players with 24 cards: {thumb.count}")
    assert thumb.count <= TAP_LIMITS["six_cards"]
    assert Hand.objects.get().record["hands"]["5"] == "C 4 3 2"


def test_five_at_a_family_table_without_cards(phone: Page) -> None:
    """No cards: each player's jugadas, the pares bet by two holders, the winners asked
    only where the engine needs them."""
    page = phone
    page.goto("/nueva")
    page.locator('[data-preset="cinco-en-familia"]').click()
    names = ["Abuela", "Tío Juan", "Marta", "Pablo", "Lucía"]
    for seat, name in enumerate(names):
        page.fill(f"#id_name_{seat}", name)
    with page.expect_navigation():
        page.locator("form.setup button.btn-primary").click()
    table = Table.objects.get()
    assert table.rules["players"] == 5
    with page.expect_navigation():
        page.locator('[data-action="enter-hand"]').click()
    settle(page)
    # Marta medias, Pablo par; Lucía juego 31, alone: she collects without a bet.
    for field, value in (("p2", "medias"), ("p3", "par"), ("j4", "31")):
        page.locator("label.seg", has=page.locator(
            f'input[name="{field}"][value="{value}"]')).click()
        settle(page)
    pares = page.locator('[data-lance="pares"]')
    expect(pares.locator(".talk-who")).to_have_text("Habla Marta")
    expect(pares.locator("[data-talk-side]")).to_have_count(2)
    pares.locator('button[value="bet:pares:C:2"]').click()
    settle(page)
    pares.locator('button[value="end:pares:quiero:D"]').click()
    settle(page)
    expect(page.locator('[data-lance="juego"]')).to_contain_text(
        "Solo Lucía tiene juego: cobra sin apostar.")
    # Grande and chica are asked among all five; pares is settled by the jugadas.
    expect(page.locator('input[name="w_pares"]')).to_have_count(0)
    for lance, side in (("grande", "B"), ("chica", "E")):
        page.locator("label.seg", has=page.locator(
            f'input[name="w_{lance}"][value="{side}"]')).click()
        settle(page)
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    # Marta: medias 2 + the stake 2 = 4; Lucía juego 31: 3; Tío Juan 1; Lucía 1 more.
    assert score(table) == {"A": 0, "B": 1, "C": 4, "D": 0, "E": 4}


def test_the_board_of_six_reads_at_360_px_and_on_a_tv(browser: Browser, live_server: Any,
                                                      phone: Page) -> None:
    table = services.create_table(players=SIX, rules={"individual": True})
    for side, n in (("A", 17), ("B", 36), ("C", 5), ("D", 40), ("E", 12), ("F", 9)):
        services.add_piedras(table, side, n, via="api")
    path = f"/t/{table.id}/"
    check_page(phone, path)
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.reload()
    cards = phone.locator("article.side")
    expect(cards).to_have_count(6)
    boxes = [cards.nth(i).bounding_box() for i in range(6)]
    assert all(box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
               for box in boxes)
    # Two a row, three rows, all six on one screen of a phone (no scroll within the cards).
    rows = sorted({round(box["y"]) for box in boxes if box})
    assert len(rows) == 3, rows
    assert max(box["y"] + box["height"] for box in boxes if box) < 900
    size = phone.locator('[data-side="A"] [data-points]').evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 36
    # D won the juego at 40: the board starts juego 2 at 0, with D's juego marked.
    expect(phone.locator('[data-side="D"] .juegos-n')).to_have_text("1 juego")
    expect(phone.locator(".juegos-results")).to_contain_text("Juego 1 para Diego")
    # The TV at the bar: three a row, the numbers larger.
    tv = browser.new_context(base_url=live_server.url, viewport={"width": 1920, "height": 1080},
                             service_workers="block")
    screen = tv.new_page()
    screen.goto(path)
    tv_cards = screen.locator("article.side")
    tops = sorted({round(tv_cards.nth(i).bounding_box()["y"]) for i in range(6)})  # type: ignore[index]
    assert len(tops) == 2, tops
    big = screen.locator('[data-side="A"] [data-points]').evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")
    assert big >= 60
    tv.close()


@pytest.mark.parametrize(("language", "words"), [
    ("es", {"alone": "Cada uno por su cuenta", "speaks": "Habla Bruno", "out": "fuera",
            "title": "Marcador: Ana, Bruno y Carla, cada uno por su cuenta"}),
    ("en", {"alone": "Each for himself", "speaks": "Bruno speaks", "out": "out",
            "title": "Scoreboard: Ana, Bruno and Carla, each for himself"}),
    ("eu", {"alone": "Bakoitza bere kontura", "speaks": "Hitza: Bruno", "out": "kanpoan",
            "title": "Markagailua: Ana, Bruno eta Carla, bakoitza bere kontura"}),
    ("fr", {"alone": "Chacun pour soi", "speaks": "Bruno parle", "out": "sorti",
            "title": "Tableau : Ana, Bruno et Carla, chacun pour soi"}),
])
def test_each_for_himself_in_four_languages(
    browser: Browser, live_server: Any, language: str, words: dict[str, str]
) -> None:
    context = browser.new_context(base_url=live_server.url, locale=language,
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, service_workers="block")
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    page = context.new_page()
    page.goto("/nueva")
    expect(page.locator("[data-players-choice]")).to_contain_text(words["alone"])
    table = services.create_table(players=THREE)
    page.goto(entry_path(table))
    settle(page)
    page.locator('button[value="paso:grande:A"]').click()
    settle(page)
    expect(page.locator('[data-lance="grande"] .talk-who')).to_have_text(words["speaks"])
    page.locator('button[value="bet:grande:B:2"]').click()
    settle(page)
    page.locator('button[value="end:grande:no_quiero:C"]').click()
    settle(page)
    expect(page.locator('[data-lance="grande"] [data-talk-side="C"]')).to_contain_text(
        words["out"])
    page.goto(board_path(table))
    expect(page.locator("h1.visually-hidden")).to_have_text(words["title"])
    text = page.locator("main").inner_text().lower()
    if language == "es":
        assert "pareja" not in text and "compañer" not in text
    assert not re.search(r"\bganan\b", text)
    context.close()


def test_three_players_by_keyboard_alone(browser: Browser, live_server: Any) -> None:
    """The hand of 12 cards and an envido answered by both (17 taps on a phone) at a
    laptop's keyboard: the focus follows the talk from one player's words to the next."""
    from tests.browser.test_keyboard_a11y import Keys, idle, laptop

    table = services.create_table(players=THREE)
    page = laptop(browser, live_server)
    page.goto(entry_path(table))
    idle(page)
    keys = Keys(page)
    # The hand page opened by its address starts on its heading (issue 38.6): a Tab to
    # the first seat's cards.
    keys.press("Tab")
    expect(page.locator("#id_c0")).to_be_focused()
    for seat, cards in enumerate(["rr54", "rcc5", "1167"]):
        expect(page.locator(f"#id_c{seat}")).to_be_focused()
        keys.type(cards)
        # Enter after the last seat: the first control after the cards (static/js/a11y.js),
        # the talk's first words, Ana's paso.
        keys.press("Tab" if seat < 2 else "Enter")
        idle(page)
    for _ in range(8):
        if page.evaluate("document.activeElement.value") == "bet:grande:A:2":
            break
        keys.press("Tab")
        idle(page)
    expect(page.get_by_role("button", name="Envido de Ana a la grande", exact=True)) \
        .to_be_focused()
    keys.press("Enter")
    idle(page)
    # The focus stays in grande, on Bruno's words now.
    focused = page.evaluate("document.activeElement.value") or ""
    assert focused.startswith(("end:grande:", "bet:grande:B")), focused
    for _ in range(4):
        if page.evaluate("document.activeElement.value") == "end:grande:quiero:B":
            break
        keys.press("Shift+Tab")
    keys.press("Enter")
    idle(page)
    for _ in range(4):
        if page.evaluate("document.activeElement.value") == "end:grande:no_quiero:C":
            break
        keys.press("Tab")
    keys.press("Enter")
    idle(page)
    # Grande closed, the focus on chica's first words: back to grande's skip link to
    # "Guardar" (nobody bets in chica, pares or punto).
    for _ in range(6):
        keys.press("Shift+Tab")
        if page.evaluate("document.activeElement.matches('a[data-skip]')"):
            break
    keys.press("Enter")
    expect(page.locator("#save-hand")).to_be_focused()
    with page.expect_navigation():
        keys.press("Enter")
    hand = Hand.objects.get()
    assert hand.record["lances"]["grande"] == {"bets": [{"side": "A", "n": 2}],
                                               "end": "quiero", "out": ["C"]}
    print(f"\nkeyboard-only hand of three: 12 cards and an envido answered by both in "
          f"{keys.count} keys (17 taps on a phone)")
    assert keys.count <= 30
    page.context.close()


def test_a_second_phone_sees_each_players_piedras(phone: Page, new_phone: Any) -> None:
    table = services.create_table(players=THREE)
    phone.goto(board_path(table))
    other = new_phone()
    other.goto(f"/t/{table.id}/")
    phone.locator('[data-piedras-side="C"] button[value="5"]').click()
    settle(phone)
    expect(other.locator('[data-side="C"] [data-points]')).to_have_text("5", timeout=8_000)


@WITH_SERVICE_WORKER
def test_a_hand_of_three_entered_without_signal_is_said_in_turn_when_sent(
    phone: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without signal every player gets his words in each lance; the taps are kept and the
    server says them to the engine in turn when the signal is back."""
    from tests.browser.test_live import (
        SYNC_MS,
        Signal,
        tap_cards_offline,
        wait_for_kept_pages,
        wait_for_service_worker,
    )

    signal = Signal(monkeypatch)
    table = services.create_table(players=THREE)
    phone.goto(board_path(table))
    signal.name(phone, "A")
    wait_for_service_worker(phone)
    wait_for_kept_pages(phone, [board_path(table) + "mano"])
    signal.off(phone, "A")
    with phone.expect_navigation():
        phone.locator('[data-action="enter-hand"]').click()
    settle(phone)
    tap_cards_offline(phone, dict(enumerate(DEAL3)))
    grande = phone.locator('[data-offline-lance="grande"]')
    expect(grande.locator("[data-offline-side]")).to_have_count(3)
    for act in ("bet:grande:A:2", "end:grande:no_quiero:B", "end:grande:quiero:C"):
        grande.locator(f'[data-offline-tap="{act}"]').click()
    expect(grande.locator("[data-offline-said]")).to_contain_text(
        "Ana: envido 2 · Bruno: no quiero · Carla: quiero")
    with phone.expect_navigation():
        phone.locator('[data-action="save"]').click()
    settle(phone)
    signal.on(phone, "A")
    expect(phone.locator("[data-synced]")).to_contain_text("sincronizada", timeout=SYNC_MS)
    hand = Hand.objects.get()
    assert hand.record["lances"] == {"grande": {"bets": [{"side": "A", "n": 2}],
                                                "end": "quiero", "out": ["B"]}}
    assert score(table) == {"A": 3, "B": 2, "C": 1}


def test_the_entry_of_six_fits_a_360_px_phone(phone: Page) -> None:
    """Six players' chips, the speaker's buttons and six winners' choices, long names too,
    on the narrowest phone: nothing scrolls sideways."""
    names = ["Maximiliano Ro", "Bartolomé Juan", "Constantino Pe", "Desideria Luna",
             "Evaristo Galán", "Filomena Sanz"]
    table = services.create_table(players=names, rules={"individual": True})
    check_page(phone, entry_path(table))
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.locator('button[value="bet:grande:A:2"]').click()
    settle(phone)
    phone.locator('button[value="end:grande:no_quiero:B"]').click()
    settle(phone)
    expect(phone.locator('[data-lance="grande"] [data-talk-side]')).to_have_count(6)
    expect(phone.locator('input[name="w_chica"]')).to_have_count(6)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def test_six_players_pages_have_no_axe_violation(phone: Page) -> None:
    """The players' colours C to F read on both schemes (axe's contrast), and the talk's
    chips and buttons are named, on the board, the entry and the history of six."""
    from tests.browser.test_axe import axe_violations

    table = services.create_table(players=SIX, rules={"individual": True})
    for side, n in (("C", 12), ("D", 37), ("E", 3), ("F", 8)):
        services.add_piedras(table, side, n, via="api")
    problems = []
    for path in (board_path(table), entry_path(table), board_path(table) + "historial"):
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            phone.goto(path, wait_until="load")
            if path.endswith("mano") and scheme == "light":
                phone.locator('button[value="bet:grande:A:2"]').click()
                settle(phone)
            elif path.endswith("mano"):
                # Ana's envido is kept on this phone (the hand in progress): the page
                # draws it again, Bruno to answer, as the light pass had it.
                expect(phone.locator("[data-draft-note]")).to_be_visible()
                expect(phone.locator('button[value="bet:grande:A:2"]')).to_have_count(0)
                expect(phone.locator('button[value^="end:grande:quiero:B"]')).to_have_count(1)
                settle(phone)
            problems += [f"{path} {scheme}: {found}" for found in
                         axe_violations(phone, only_contrast=scheme == "dark")]
    assert not problems, problems
