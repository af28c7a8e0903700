"""Issue 19, the web part: what a slip at the table, a laptop's keyboard and the web's
conventions expect of the hand entry and the pages (items 1, 2, 3, 8, 9, 10)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import WITH_SERVICE_WORKER, board_in_place
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def settle(page: Page) -> None:
    page.wait_for_load_state()
    expect(page.locator("body[data-busy]")).to_have_count(0)


def tap_seg(page: Page, name: str, value: str) -> None:
    page.locator("label.seg", has=page.locator(f'input[name="{name}"][value="{value}"]')).click()
    settle(page)


def entry_path(table: Table) -> str:
    return f"/t/{table.id}/k/{table.edit_key}/mano"


def enter_passed_hand(page: Page) -> None:
    tap_seg(page, "p0", "par")
    tap_seg(page, "p1", "par")
    tap_seg(page, "j3", "33")
    tap_seg(page, "w_grande", "A")
    tap_seg(page, "w_chica", "B")
    tap_seg(page, "w_pares", "A")


def save(page: Page) -> None:
    settle(page)
    with board_in_place(page):
        page.locator('[data-action="save"]').click()
    settle(page)


def test_back_after_saving_shows_the_next_hand_empty(phone: Page) -> None:
    """Item 1: save a hand, press Back: the form is the next hand's, empty (the browser
    does not put the last hand's taps back), and a save without taps stores nothing."""
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(f"/t/{table.id}/k/{table.edit_key}/")
    page.goto(entry_path(table))
    settle(page)
    enter_passed_hand(page)
    save(page)
    assert Hand.objects.filter(table=table).count() == 1
    page.go_back()
    settle(page)
    expect(page.locator("h1")).to_contain_text("2")
    checked = page.locator("#entry input:checked").evaluate_all(
        "els => els.map(e => e.name + '=' + e.value)")
    fresh = page.context.new_page()
    fresh.goto(entry_path(table))
    settle(fresh)
    assert checked == fresh.locator("#entry input:checked").evaluate_all(
        "els => els.map(e => e.name + '=' + e.value)")
    fresh.close()
    hidden = page.locator('#entry input[type="hidden"][data-restored]')
    expect(hidden).to_have_count(0)
    assert page.locator('#entry input[name="number"]').input_value() == "2"
    expect(page.locator("[data-draft-note]")).to_be_hidden()
    page.locator('[data-action="save"]').click()
    settle(page)
    expect(page.locator("[data-save-errors]")).to_be_visible()
    assert Hand.objects.filter(table=table).count() == 1


# The WCAG contrast ratio of an element's text against the first opaque background behind
# it, computed in the page from the styles the browser applied.
CONTRAST = """el => {
    const rgb = c => c.match(/[\\d.]+/g).map(Number);
    const lum = c => {
        const [r, g, b] = rgb(c).slice(0, 3).map(v => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    let back = el, bg = null;
    while (back) {
        const c = getComputedStyle(back).backgroundColor;
        const parts = rgb(c);
        if (parts.length < 4 || parts[3] > 0.5) { bg = c; break; }
        back = back.parentElement;
    }
    const fg = getComputedStyle(el).color;
    const [hi, lo] = [lum(fg), lum(bg || 'rgb(255,255,255)')].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
}"""


def test_the_picked_winners_names_can_be_read(new_phone: Any) -> None:
    """Item 2: the names in the picked "¿Quién gana?" button are readable (contrast
    of at least 4.5:1, computed in the page), picked or not, light or dark (the scheme
    switched on the loaded page, as the phone switches it)."""
    page = new_phone(color_scheme="light")
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    settle(page)
    tap_seg(page, "w_grande", "A")
    picked = page.locator("label.seg", has=page.locator('input[name="w_grande"][value="A"]'))
    other = page.locator("label.seg", has=page.locator('input[name="w_grande"][value="B"]'))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for label in (picked, other):
            names = label.locator("span.names")
            expect(names).to_contain_text("Ana" if label is picked else "Bruno")
            ratio = names.evaluate(CONTRAST)
            assert ratio >= 4.5, f"{scheme}: contrast {ratio:.2f}"


def test_under_debug_a_refused_save_keeps_the_page(phone: Page, settings: Any) -> None:
    """Item 3: with DEBUG on (./scripts/run), django-htmx's debug script is on the page;
    a save without every winner still keeps the page whole and says what is missing."""
    settings.DEBUG = True
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    settle(page)
    expect(page.locator('script[src*="django-htmx"]')).to_have_count(1)
    tap_seg(page, "w_grande", "A")
    page.locator('[data-action="save"]').click()
    settle(page)
    expect(page.locator("[data-save-errors]")).to_be_visible()
    expect(page.locator("form#entry")).to_have_count(1)
    expect(page.locator("[data-card-picker]")).to_have_count(1)
    assert page.locator('input[name="w_grande"][value="A"]').is_checked()
    assert Hand.objects.filter(table=table).count() == 0


# The targets issue 19.8 found under 44 px, by page: the juegos choice of /nueva, the
# home's tools (its footer), the rules' index and the import link.
NAMED_TARGETS = {
    "/": ".home-tools a",
    "/nueva": "label.seg:has(input[name='juegos']), label.seg:has(input[name='reyes']), "
              "a[href='/importar']",
    "/reglas/": ".rules-index a",
    "/calculadora/": "label.seg:has(input[name='reyes'])",
    # Issue 30.7: each rules page's nav and the import's file field.
    "/reglas/lances/": ".rules-nav a",
    "/importar": "input[type='file']",
}


def test_the_named_tap_targets_are_44_px(phone: Page) -> None:
    """Item 8: at phone size every one of them is at least 44x44 px."""
    for url, selector in NAMED_TARGETS.items():
        phone.goto(url)
        phone.locator("details").evaluate_all("els => els.forEach(e => e.open = true)")
        boxes = phone.locator(selector).evaluate_all(
            """els => els.map(e => { const r = e.getBoundingClientRect();
                return [e.textContent.trim().slice(0, 30), r.width, r.height]; })"""
        )
        assert boxes, url
        small = [b for b in boxes if b[1] < 44 or b[2] < 44]
        assert small == [], (url, small)


LAPTOP = {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False,
          "service_workers": "block"}  # as PHONE (conftest): the test is not about the worker
DEAL = ["R R 5 4", "R C C 5", "1 1 6 7", "S S 7 7"]


def focused_id(page: Page) -> str:
    return str(page.evaluate("document.activeElement ? document.activeElement.id : ''"))


def test_the_calculator_filled_by_keyboard_alone(browser: Browser, live_server: Any) -> None:
    """Item 9: a referee's laptop. Tab reaches the first seat's cards, typing "R R 5 4"
    fills it, the live region says whose cards are being entered, Tab goes to the next
    seat; the sixteen cards typed give the recuento. The keys' names say the figures."""
    context = browser.new_context(base_url=live_server.url, locale="es-ES", **LAPTOP)
    page = context.new_page()
    page.goto("/calculadora/")
    status = page.locator("[data-picker-status]")
    expect(status).to_have_attribute("aria-live", "polite")
    for _ in range(80):
        page.keyboard.press("Tab")
        if focused_id(page) == "id_c0":
            break
    assert focused_id(page) == "id_c0", "Tab never reached the first seat's cards"
    for seat, cards in enumerate(DEAL):
        assert focused_id(page) == f"id_c{seat}"
        expect(status).to_have_text(f"Cartas de {['A1', 'B1', 'A2', 'B2'][seat]}: 0 de 4")
        page.keyboard.type(cards)
        expect(status).to_have_text(f"Cartas de {['A1', 'B1', 'A2', 'B2'][seat]}: 4 de 4")
        page.keyboard.press("Tab")
        settle(page)
    for seat, cards in enumerate(DEAL):
        expect(page.locator(f"#id_c{seat}")).to_have_value(cards)
    expect(page.locator("#result .step").first).to_be_visible()
    expect(page.locator("#result")).to_contain_text("Grande")
    # The keypad's figures are named for a screen reader.
    for card, name in (("S", "Sota"), ("C", "Caballo"), ("R", "Rey")):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute(
            "data-card", card)
    context.close()


def test_the_tv_can_be_paused(phone: Page) -> None:
    """Item 9 (WCAG 2.2.2): the bar's screen turns every 12 s; its pause button stops it
    where it is until pressed again, and says which it does."""
    club = make_club()
    make_league(club, 6, results=1)
    page = phone
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.clock.install()
    page.goto(f"/club/{club.slug}/tv/")
    expect(page.locator("main [data-tv-live]")).to_have_count(1)
    shown = page.locator(".tv-panel.is-shown")
    first = shown.get_attribute("data-panel")
    page.clock.run_for(13_000)
    second = shown.get_attribute("data-panel")
    assert second != first
    pause = page.locator("[data-tv-pause]")
    expect(pause).to_have_attribute("aria-pressed", "false")
    pause.click()
    expect(pause).to_have_attribute("aria-pressed", "true")
    expect(pause).to_have_text("Seguir pasando")
    page.clock.run_for(40_000)
    assert shown.get_attribute("data-panel") == second
    pause.click()
    expect(pause).to_have_text("Pausar")
    page.clock.run_for(13_000)
    assert shown.get_attribute("data-panel") != second


def test_the_tvs_pause_and_screen_tabs_are_a_thumbs_target_on_a_phone(phone: Page) -> None:
    """Issue 30.7: the club TV opened on a phone: "Pausar" was 53x20 px, the screens'
    tabs 19 px tall."""
    club = make_club()
    make_league(club, 6, results=1)
    phone.goto(f"/club/{club.slug}/tv/")
    expect(phone.locator("[data-tv-pause]")).to_be_visible()
    boxes = phone.locator("[data-tv-pause], [data-tv-dots] button").evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect();
            return [e.textContent.trim(), r.width, r.height]; })"""
    )
    assert len(boxes) >= 2, boxes
    assert [b for b in boxes if b[1] < 44 or b[2] < 44] == []


def test_the_calculator_keeps_what_was_entered_across_a_language_switch(phone: Page) -> None:
    """Item 7: half a hand in the calculator (a score, two seats' cards), then EN: the
    page comes back in English with everything entered still there."""
    page = phone
    page.goto("/calculadora/")
    page.fill("#id_sa", "38")
    for cards in DEAL[:2]:
        for card in cards.split():
            page.locator(f'[data-card="{card}"]').click()
    settle(page)
    with page.expect_navigation():
        page.locator('form.lang button[value="en"]').click()
    settle(page)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#id_sa")).to_have_value("38")
    expect(page.locator("#id_c0")).to_have_value(DEAL[0])
    expect(page.locator("#id_c1")).to_have_value(DEAL[1])
    expect(page.locator("#id_c2")).to_have_value("")


def wait_for_worker(page: Page) -> None:
    # Polled from here: the page's CSP forbids the string evaluation wait_for_function uses.
    for _ in range(100):
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control")


@WITH_SERVICE_WORKER
def test_offline_the_kept_pages_open_and_the_others_say_so_styled(phone: Page) -> None:
    """Item 10: once the app has been opened, without signal the start page, the
    calculator and the rules open from the phone (kept at install), and a board it never
    kept answers the site's own 503 page, styled, in the phone's language."""
    page = phone
    table = services.create_table(players=NAMES)
    page.goto("/reglas/")
    wait_for_worker(page)
    page.reload()
    wait_for_worker(page)
    # Everything the worker keeps at install is in its cache before the signal goes.
    for _ in range(100):
        kept = page.evaluate("""async () => {
            const cache = await caches.open("muscore-pages");
            const paths = ["/", "/calculadora/", "/lector/", "/reglas/"];
            const hits = await Promise.all(paths.map(p => cache.match(location.origin + p)));
            return hits.every(Boolean);
        }""")
        if kept:
            break
        page.wait_for_timeout(100)
    assert kept
    page.context.set_offline(True)
    try:
        for path, selector in (("/", "form[action='/mesa']"), ("/calculadora/", "form#calc"),
                               ("/reglas/", ".rules-index")):
            response = page.goto(path)
            assert response is not None and response.status == 200, path
            expect(page.locator(selector)).to_have_count(1)
        response = page.goto(f"/t/{table.id}/historial")
        assert response is not None and response.status == 503
        expect(page.locator("h1")).to_have_text("Sin conexión")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        # Styled by the site's stylesheet (from the worker's cache): the brand bar is there.
        expect(page.locator("header.top .brand")).to_be_visible()
        weight = page.locator("header.top .brand").evaluate("e => getComputedStyle(e).fontWeight")
        assert weight != "400", weight
    finally:
        page.context.set_offline(False)


@pytest.mark.parametrize("scheme", ["dark"])
def test_pages_print_black_on_white_without_buttons(new_phone: Any, scheme: str) -> None:
    """Item 10: printed from a phone in dark mode, the board, its history and the
    calculator have no header, buttons or keypad, and are black on white."""
    page = new_phone(color_scheme=scheme)
    table = services.create_table(players=NAMES)
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    page.emulate_media(media="print")
    for url in (edit, edit + "historial", "/calculadora/"):
        page.goto(url)
        for selector in ("header.top", ".btn", "[data-keypad]", "form.lang"):
            visible = page.locator(selector).evaluate_all(
                "els => els.filter(e => e.getBoundingClientRect().height > 0).length")
            assert visible == 0, (url, selector)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        ink = page.evaluate("getComputedStyle(document.body).color")
        assert background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), (url, background)
        assert ink == "rgb(0, 0, 0)", (url, ink)


@WITH_SERVICE_WORKER
def test_one_hand_waiting_to_be_sent_is_said_as_a_hand(phone: Page) -> None:
    """Item 6: one hand kept on the phone is "La mano 17 está guardada en este móvil...",
    never "sin enviar todavía: 17", which reads as seventeen hands; two are listed."""
    page = phone
    table = services.create_table(players=NAMES)
    board = f"/t/{table.id}/k/{table.edit_key}/"
    page.goto(board)
    wait_for_worker(page)
    page.reload()  # through the worker, which keeps the board for the offline reloads below
    queue = [{"table": table.id, "number": 17, "clientId": "x17", "fields": [],
              "action": board + "mano"}]
    page.evaluate("q => localStorage.setItem('muscore:queue', JSON.stringify(q))", queue)
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("[data-pending]")).to_have_text(
            "La mano 17 está guardada en este móvil, sin enviar todavía.")
        queue.append({**queue[0], "number": 18, "clientId": "x18"})
        page.evaluate("q => localStorage.setItem('muscore:queue', JSON.stringify(q))", queue)
        page.reload()
        expect(page.locator("[data-pending]")).to_contain_text("sin enviar todavía: 17, 18.")
    finally:
        page.context.set_offline(False)
