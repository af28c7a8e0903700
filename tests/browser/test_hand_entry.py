"""The hand entry on a 390x844 phone (issue 9.1, 9.2, 9.5, 9.8): nothing entered is lost.

A refused save keeps the whole page and everything entered, says what is missing in the
table's words and scrolls to it; the hand in progress survives a reload and a closed tab
until it is saved or thrown away on purpose; a second phone's stale form shows the stored
hand where it can be seen and no save that cannot succeed; long names are never clipped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Locator, Page, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import board_in_place

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
DEAL = {0: "R R 5 4", 1: "R C C 5", 2: "1 1 6 7", 3: "S S 7 7"}
# Two 14-letter names a side: the longest a button must show whole (issue 9.8).
LONG = ["Maximiliano Ro", "Bartolomé Juan", "Constantino Pe", "Desideria Luna"]
LONG_SIX = [*LONG, "Evaristo Galán", "Filomena Sanz"]
VIEWPORT_HEIGHT = 844


def settle(page: Page) -> None:
    page.wait_for_load_state()
    expect(page.locator("body[data-busy]")).to_have_count(0)


def entry_path(table: Table) -> str:
    return f"/t/{table.id}/k/{table.edit_key}/mano"


def board_path(table: Table) -> str:
    return f"/t/{table.id}/k/{table.edit_key}/"


def tap_seg(page: Page, name: str, value: str) -> None:
    page.locator("label.seg", has=page.locator(f'input[name="{name}"][value="{value}"]')).click()
    settle(page)


def tap_cards(page: Page, cards: str) -> None:
    for card in cards.split():
        page.locator(f'[data-card="{card}"]').click()
    settle(page)


def in_view(locator: Locator) -> bool:
    box = locator.bounding_box()
    assert box is not None
    return box["y"] >= 0 and box["y"] + min(box["height"], 40) <= VIEWPORT_HEIGHT


def accept_dialogs(page: Page, seen: list[str]) -> None:
    def on_dialog(dialog: Dialog) -> None:
        seen.append(dialog.type)
        dialog.accept()

    page.on("dialog", on_dialog)


def test_a_refused_save_keeps_the_page_and_scrolls_to_what_is_missing(
    phone: Page, screenshots_dir: Path
) -> None:
    """Issue 9.1: only a grande winner, then save. The page stays whole with every
    entry, the refusal is read over the save button, and the first lance still to
    answer is on screen, marked, in the table's words."""
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    tap_cards(page, DEAL[0])
    tap_seg(page, "w_grande", "A")
    url = page.url
    page.locator('[data-action="save"]').click()
    settle(page)

    alert = page.locator("[data-save-errors]")
    expect(alert).to_contain_text("Chica: falta quién gana, Ana y Carla o Bruno y Diego.")
    assert in_view(alert)
    # The whole page is still there: header, title, cards, the way back.
    assert page.url == url
    expect(page.locator("header.top")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Mano 1")
    expect(page.locator("#id_c0")).to_have_value("R R 5 4")
    expect(page.locator('input[name="w_grande"][value="A"]')).to_be_checked()
    expect(page.locator('[data-action="discard"]')).to_have_count(1)
    missing = page.locator("[data-missing]")
    expect(missing.first).to_have_attribute("data-lance", "chica")
    assert in_view(missing.first), "the page did not scroll to what is missing"
    page.screenshot(path=screenshots_dir / "hand-entry-refused-save.png")
    assert not Hand.objects.exists()

    # Answered where it was shown, the same page saves the hand.
    for lance in missing.evaluate_all("els => els.map(e => e.getAttribute('data-lance'))"):
        tap_seg(page, f"w_{lance}", "B")
    with board_in_place(page):
        page.locator('[data-action="save"]').click()
    assert Hand.objects.get().record["winners"]["grande"] == "A"


def test_a_bet_left_unanswered_is_named_with_the_side_that_must_answer(phone: Page) -> None:
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    for seat in range(4):
        tap_cards(page, DEAL[seat])
    page.locator('button[value="bet:grande:B:2"]').click()
    settle(page)
    page.locator('[data-action="save"]').click()
    settle(page)
    expect(page.locator("[data-save-errors]")).to_contain_text(
        "Grande: falta si Ana y Carla quieren o no."
    )
    expect(page.locator('[data-lance="grande"][data-missing]')).to_be_visible()
    expect(page.locator('[data-lance="grande"] .bets')).to_contain_text("envido 2")


def test_the_hand_in_progress_survives_a_reload_and_a_closed_tab(
    phone: Page, new_phone: Callable[..., Page]
) -> None:
    """Issue 9.2: five cards and an envido, then pull-to-refresh, then the tab closed."""
    page = phone
    dialogs: list[str] = []
    accept_dialogs(page, dialogs)
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    tap_cards(page, DEAL[0])
    page.locator('button[value="bet:grande:A:2"]').click()
    settle(page)
    expect(page.locator('[data-lance="grande"] .bets')).to_contain_text("envido 2")
    tap_cards(page, "R")

    page.reload()
    settle(page)
    assert dialogs == ["beforeunload"], "leaving with entries must ask first"
    expect(page.locator("[data-draft-note]")).to_be_visible()
    expect(page.locator("#id_c0")).to_have_value("R R 5 4")
    expect(page.locator("#id_c1")).to_have_value("R")
    expect(page.locator('[data-lance="grande"] .bets')).to_contain_text("Ana·Carla: envido 2")

    # The tab closed and opened again on the same phone: still there.
    context = page.context
    page.close()
    again = context.new_page()
    again.goto(entry_path(table))
    settle(again)
    expect(again.locator("#id_c1")).to_have_value("R")
    expect(again.locator('[data-lance="grande"] .bets')).to_contain_text("envido 2")
    # Kept on that phone only: another phone opens an empty hand.
    other = new_phone()
    other.goto(entry_path(table))
    settle(other)
    expect(other.locator("#id_c0")).to_have_value("")

    # The hand, completed and saved, is gone from the phone; the next hand starts empty.
    for seat, cards in DEAL.items():
        again.locator(f"[data-picker-seat='{seat}']").click()
        filled = again.locator(f"#id_c{seat}").input_value().split()
        for _ in filled:
            again.locator("[data-card-back]").click()
        tap_cards(again, cards)
    again.locator('button[value="end:grande:quiero"]').click()
    settle(again)
    with board_in_place(again):
        again.locator('[data-action="save"]').click()
    assert Hand.objects.get().record["lances"]["grande"]["end"] == "quiero"
    kept = again.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('muscore:draft:'))"
    )
    assert kept == []
    again.goto(entry_path(table))
    expect(again.locator("h1")).to_have_text("Mano 2")
    expect(again.locator("[data-draft-note]")).to_be_hidden()


def test_leaving_without_saving_asks_and_then_forgets_the_hand(phone: Page) -> None:
    page = phone
    table = services.create_table(players=NAMES)
    page.goto(entry_path(table))
    tap_cards(page, DEAL[0])
    asked: list[str] = []

    def refuse(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.locator('[data-action="discard"]').click()
    assert asked == ["¿Salir sin guardar? Se borra lo anotado de la mano 1."]
    expect(page.locator("h1")).to_have_text("Mano 1")  # stayed
    expect(page.locator("#id_c0")).to_have_value("R R 5 4")
    page.remove_listener("dialog", refuse)
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator('[data-action="discard"]').click()
    assert page.url.endswith(board_path(table))
    page.goto(entry_path(table))
    settle(page)
    expect(page.locator("#id_c0")).to_have_value("")
    expect(page.locator("[data-draft-note]")).to_be_hidden()
    # With nothing entered, "Volver sin guardar" just goes back.
    with page.expect_navigation():
        page.locator('[data-action="discard"]').click()
    assert page.url.endswith(board_path(table))


def test_a_correction_in_progress_comes_back_too(phone: Page) -> None:
    page = phone
    dialogs: list[str] = []
    accept_dialogs(page, dialogs)
    table = services.create_table(players=NAMES)
    services.add_hand(table, {"hands": {str(s): c for s, c in DEAL.items()}}, via="api")
    page.goto(f"/t/{table.id}/k/{table.edit_key}/mano/1")
    page.locator('button[value="bet:chica:B:2"]').click()
    settle(page)
    page.reload()
    settle(page)
    expect(page.locator("h1")).to_have_text("Corregir la mano 1")
    expect(page.locator('[data-lance="chica"] .bets')).to_contain_text("Bruno·Diego: envido 2")
    # The next new hand is another hand: it does not pick up the correction.
    page.goto(entry_path(table))
    settle(page)
    expect(page.locator('[data-lance="chica"] .bets')).to_have_text("En paso")


def test_a_stale_form_shows_the_stored_hand_where_it_is_seen_and_no_save(
    phone: Page, new_phone: Callable[..., Page], screenshots_dir: Path
) -> None:
    """Issue 9.5: phone A stores hand 1 while B is entering it. B's refusal is on screen
    (not under the save bar) and B is offered the stored hand, not a save that cannot be."""
    table = services.create_table(players=NAMES)
    a, b = phone, new_phone()
    for p in (a, b):
        p.goto(entry_path(table))
        for seat in range(4):
            tap_cards(p, DEAL[seat])
    with board_in_place(a):
        a.locator('[data-action="save"]').click()
    b.locator('[data-action="save"]').click()
    settle(b)
    alert = b.locator("[data-save-errors]")
    expect(alert).to_contain_text("Otro móvil guardó la mano 1: aquí está.")
    assert in_view(alert)
    bar = b.locator("[data-entry-actions]").bounding_box()
    box = alert.bounding_box()
    assert bar and box
    assert bar["y"] <= box["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"]
    stored = b.locator('[data-conflict="1"]')
    expect(stored).to_be_visible()
    assert in_view(stored), "the stored hand is not on screen"
    expect(b.locator('[data-action="save"]')).to_have_count(0)
    b.screenshot(path=screenshots_dir / "hand-entry-conflict.png")
    with b.expect_navigation():
        b.locator('[data-action="to-board"]').click()
    assert b.url.endswith(board_path(table))
    assert Hand.objects.count() == 1


def unclipped(page: Page, selector: str) -> list[str]:
    """The texts of the matching elements whose content overflows their box."""
    return page.locator(selector).evaluate_all(
        """els => els.filter(e => e.offsetParent !== null
                && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1))
              .map(e => e.textContent.trim())"""
    )


@pytest.mark.parametrize("names", [LONG, LONG_SIX], ids=["4 players", "6 players"])
def test_team_buttons_show_two_14_letter_names_whole(
    phone: Page, names: list[str], screenshots_dir: Path
) -> None:
    """Issue 9.8: "Otra cantidad" clipped "iruno·Diego"; 6 players clipped "B1, B2 y B3"."""
    page = phone
    rules = {"players": len(names), "reyes": 8, "target": 40, "juegos": 2, "real31": "no"}
    table = services.create_table(players=names, rules=rules)
    page.goto(entry_path(table))
    buttons = page.locator('[data-lance="grande"] .btn-side')
    expect(buttons).to_have_count(2)
    a_side = "·".join(names[0::2])
    b_side = "·".join(names[1::2])
    expect(buttons.first).to_have_text(a_side)
    expect(buttons.last).to_have_text(b_side)
    page.locator('[data-lance="grande"]').screenshot(
        path=screenshots_dir / f"hand-entry-long-names-{len(names)}.png"
    )
    for selector in (".btn-side", ".bet-who", ".seg-side span", ".btn-bet"):
        assert unclipped(page, selector) == [], selector
    # Each name on one line: a button wraps between partners, never inside a name.
    for name in names[:2]:
        lines = page.locator('[data-lance="grande"] .btn-side').evaluate_all(
            """(els, name) => els.map(e => {
                const range = document.createRange();
                const box = e.querySelector('.names') || e;
                const node = [...box.childNodes].find(
                    n => n.nodeType === 3 && n.textContent.includes(name));
                if (!node) return 0;
                const at = node.textContent.indexOf(name);
                range.setStart(node, at); range.setEnd(node, at + name.length);
                return range.getClientRects().length;
            })""",
            name,
        )
        assert max(lines) == 1, f"{name} is broken across lines"


def test_the_calculators_six_player_buttons_are_whole(phone: Page) -> None:
    page = phone
    page.goto("/calculadora/?players=6")
    expect(page.locator('[data-lance="grande"] .btn-side').first).to_have_text("A1, A2 y A3")
    assert unclipped(page, ".btn-side") == []
