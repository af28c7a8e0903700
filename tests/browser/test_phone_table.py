"""The phone at the table (issue 9 points 5 and 8): the screen kept awake, the share
links copied with one tap, the table's options on the board, the mano picker naming
the players just typed, disclosures that look like disclosures, seven amarracos in
even rows, and English words that never break in two."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}
RECORD = {"jugadas": NOBODY, "winners": {"grande": "A", "chica": "B", "punto": "B"}}
SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
LONG = ["Bartolomeoooo1", "Maximilianooo2", "Bartolomeoooo3", "Maximilianooo4"]

# Every word of the page's text whose letters land on two lines (cut in two).
BROKEN_WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    // A URL may break anywhere (.link-url): it is not a word.
    if (!node.parentElement || !node.parentElement.offsetParent
        || node.parentElement.closest('.link-url')) continue;
    const re = /[A-Za-zÁÉÍÓÚáéíóúñÑü]{2,}/g;
    let m;
    while ((m = re.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def make_table(players: list[str] | None = None, **rules: Any) -> Table:
    return services.create_table(players=players or ["Ana", "Bruno", "Carla", "Diego"],
                                 rules=rules or None)


def edit_path(table: Table) -> str:
    return f"/t/{table.id}/k/{table.edit_key}/"


def test_the_board_keeps_the_screen_awake(phone: Page) -> None:
    table = make_table()
    phone.goto(edit_path(table))
    # Chromium grants the lock to a visible page on 127.0.0.1 (a secure context).
    expect(phone.locator("html[data-wake-lock='on']")).to_have_count(1)
    # Pages without a board do not ask for it.
    phone.goto("/nueva")
    phone.wait_for_load_state("networkidle")
    assert phone.locator("html[data-wake-lock]").count() == 0


def test_a_share_link_is_copied_with_one_tap(new_phone: Callable[..., Page]) -> None:
    table = make_table()
    page = new_phone(permissions=["clipboard-read", "clipboard-write"])
    page.goto(edit_path(table))
    box = page.locator("[data-share='view']")
    button = box.locator("[data-share-url]")
    expect(button).to_be_visible()
    if page.evaluate("typeof navigator.share") == "function":  # pragma: no cover - headless
        pytest.skip("this Chromium has Web Share: the share sheet cannot be driven")
    expect(button).to_have_text("Copiar el enlace")
    button.click()
    expect(box.locator("[data-share-done]")).to_have_text("Enlace copiado.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"/t/{table.id}/")
    edit_box = page.locator("[data-share='edit']")
    edit_box.locator("[data-share-url]").click()
    assert page.evaluate("navigator.clipboard.readText()").endswith(edit_path(table))


def test_the_board_shows_the_tables_options(phone: Page) -> None:
    table = make_table(reyes=4, target=30, juegos=3, real31="rey")
    phone.goto(f"/t/{table.id}/")
    expect(phone.locator("[data-options]")).to_have_text(
        "Reglas de la mesa: 4 jugadores · 4 reyes · a 30 piedras · vaca a 3 juegos · "
        "31 real: 7 7 7 R")


def test_the_mano_picker_names_the_players_just_typed(phone: Page) -> None:
    phone.goto("/nueva")
    manos = phone.locator('label.seg:has(input[name="mano"])')
    expect(manos.nth(0)).to_have_text("A1")
    phone.fill('input[name="name_0"]', "Ana")
    phone.fill('input[name="name_1"]', "Bruno")
    expect(manos.nth(0)).to_have_text("Ana")
    expect(manos.nth(1)).to_have_text("Bruno")
    expect(manos.nth(2)).to_have_text("A2")
    phone.fill('input[name="name_0"]', "")
    expect(manos.nth(0)).to_have_text("A1")


def _arrow(page: Page, summary: str) -> str:
    return str(page.locator(summary).first.evaluate(
        "s => getComputedStyle(s, '::before').borderLeftWidth"))


def test_disclosures_show_an_arrow_that_turns(phone: Page) -> None:
    table = make_table()
    services.add_hand(table, RECORD, via="api")
    phone.goto("/nueva")
    assert _arrow(phone, "details.field > summary") == "9px"
    phone.goto(edit_path(table))
    summary = phone.locator("details.share > summary")
    assert _arrow(phone, "details.share > summary") == "9px"
    closed = summary.evaluate("s => getComputedStyle(s, '::before').transform")
    summary.click()
    opened = summary.evaluate("s => getComputedStyle(s, '::before').transform")
    assert closed != opened
    phone.goto(edit_path(table) + "historial")
    assert _arrow(phone, "details.changes > summary") == "9px"
    services.add_hand(table, {"hands": SEED}, via="api")
    phone.goto(edit_path(table) + "mano/2")
    assert _arrow(phone, "details.declared > summary") == "9px"


def test_seven_amarracos_sit_in_even_rows_and_the_cards_stay_level(phone: Page) -> None:
    table = make_table()
    services.add_hand(
        table, {**RECORD, "lances": {"grande": {"bets": [{"side": "A", "n": 36}],
                                                 "end": "quiero"}}}, via="api")
    phone.goto(edit_path(table))
    assert phone.locator("#scoreboard [data-points]").first.inner_text() == "36"
    tops = phone.locator(".side-A .amarraco").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(tops) == 7
    rows = sorted(set(tops))
    assert [tops.count(t) for t in rows] == [4, 3]
    # Both cards as tall, their numbers and their piedras words on the same lines.
    for selector in (".side", "[data-points]", ".piedras-words"):
        boxes = phone.locator(f"#scoreboard {selector}").evaluate_all(
            "els => els.map(e => [Math.round(e.getBoundingClientRect().top),"
            " Math.round(e.getBoundingClientRect().height)])")
        assert boxes[0] == boxes[1], (selector, boxes)


ENGLISH_PAGES = ["", "historial", "mano", "mano/2", "deshacer", "/", "/nueva", "/calculadora/",
                 "/lector/", "/reglas/", "/api/"]


def test_english_words_never_break_in_two(phone: Page) -> None:
    """The table's pages (relative to its edit board) and the site's, in English at 360 px,
    walked in one tab with the language chosen once: every page with a word cut in two is
    named at the end, with its words."""
    table = make_table(LONG)
    services.add_hand(table, RECORD, via="api")
    services.add_hand(table, {"hands": SEED}, via="api")
    page = phone
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(edit_path(table))
    with page.expect_navigation():
        page.locator('.lang button[value="en"]').click()
    broken: dict[str, Any] = {}
    for page_path in ENGLISH_PAGES:
        page.goto(page_path if page_path.startswith("/") else edit_path(table) + page_path)
        expect(page.locator("html[lang='en']"), page_path).to_have_count(1)
        page.locator("details").evaluate_all("ds => ds.forEach(d => d.open = true)")
        if words := page.evaluate(BROKEN_WORDS):
            broken[page_path or "(board)"] = words
    assert broken == {}
