"""The evening at one table (issue 9), on a 390x844 phone: undo asks and can be
undone, the end of a vaca is a screen with the tally, dentro from 36, the audit
in words. Hands are stored through the services; the phone does what a thumb does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table
from tests.browser.conftest import wait_for_polls

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}


def no_cards(chica: str = "B", **lances: Any) -> dict[str, Any]:
    """Nobody has pares or juego; A wins grande, `chica` the chica, B the punto: 1-2."""
    record: dict[str, Any] = {
        "jugadas": NOBODY,
        "winners": {"grande": "A", "chica": chica, "punto": "B"},
    }
    if lances:
        record["lances"] = lances
    return record


def big(side: str, lance: str = "grande") -> dict[str, Any]:
    """A bet of 40 wanted in `lance`, won by `side`: the juego ends at the recuento."""
    winners = {"grande": "A", "chica": "B", "punto": "B", lance: side}
    return {
        "jugadas": NOBODY,
        "winners": winners,
        "lances": {lance: {"bets": [{"side": side, "n": 40}], "end": "quiero"}},
    }


def make_table(**rules: Any) -> Table:
    return services.create_table(players=NAMES, rules=rules or None)


def edit_path(table: Table) -> str:
    return f"/t/{table.id}/k/{table.edit_key}/"


def points(page: Page) -> list[str]:
    return page.locator("#scoreboard [data-points]").all_inner_texts()


def test_undo_asks_first_and_a_hand_undone_by_mistake_comes_back(
    phone: Page, screenshots_dir: Path
) -> None:
    table = make_table()
    services.add_hand(table, no_cards(), via="api")
    services.add_hand(table, no_cards(chica="A"), via="api")
    phone.goto(edit_path(table))
    assert points(phone) == ["3", "3"]
    # Undo sits well away from "Anotar mano": a slip of the thumb cannot reach it.
    enter = phone.locator('[data-action="enter-hand"]').bounding_box()
    undo = phone.get_by_role("button", name="Deshacer la última mano").bounding_box()
    assert enter and undo
    assert undo["y"] - (enter["y"] + enter["height"]) >= 80, (enter, undo)

    with phone.expect_navigation():
        phone.get_by_role("button", name="Deshacer la última mano").click()
    expect(phone.locator("h1")).to_have_text("¿Deshacer la mano 2?")
    expect(phone.locator("[data-undo-hand] .recuento")).to_contain_text("Chica")
    phone.screenshot(path=screenshots_dir / "undo-confirm.png", full_page=True)
    # "No" changes nothing.
    with phone.expect_navigation():
        phone.get_by_role("link", name="No, volver al marcador").click()
    assert Hand.objects.count() == 2 and points(phone) == ["3", "3"]

    with phone.expect_navigation():
        phone.get_by_role("button", name="Deshacer la última mano").click()
    with phone.expect_navigation():
        phone.get_by_role("button", name="Sí, deshacer la mano 2").click()
    expect(phone.locator("main .notice")).to_contain_text("Mano 2 deshecha")
    assert points(phone) == ["1", "2"] and Hand.objects.count() == 1

    # Undone by mistake: the board offers it back, and the redo restores it as it was.
    redo = phone.get_by_role("button", name="Rehacer la mano 2 (deshecha)")
    expect(redo).to_be_visible()
    with phone.expect_navigation():
        redo.click()
    expect(phone.locator("main .notice")).to_contain_text("Mano 2 rehecha")
    assert points(phone) == ["3", "3"]
    expect(phone.get_by_role("button", name="Rehacer la mano 2 (deshecha)")).to_have_count(0)
    assert list(Change.objects.values_list("action", flat=True)) == [
        "add", "add", "undo", "redo"]

    with phone.expect_navigation():
        phone.get_by_role("link", name="Historial y correcciones").click()
    actions = [a.strip() for a in phone.locator(".change strong").all_inner_texts()]
    assert actions[:2] == ["mano 2 rehecha", "mano 2 deshecha"]


def test_the_end_of_a_vaca_is_a_screen_with_the_tally(
    new_phone: Callable[..., Page], screenshots_dir: Path
) -> None:
    table = make_table(juegos=2)
    for record in (no_cards(), big("A"), no_cards(), big("B", "chica"), big("A")):
        services.add_hand(table, record, via="api")
    for scheme in ("light", "dark"):
        page = new_phone(color_scheme=scheme)
        page.goto(edit_path(table))
        end = page.locator("[data-vaca-end]")
        expect(end.locator("h1")).to_have_text("Vaca para Ana y Carla")
        expect(end.locator(".vaca-end-juegos")).to_have_text("Vaca 1: 2–1 en juegos")
        juegos = end.locator(".vaca-juegos li").all_inner_texts()
        assert [j.split(" (")[0] for j in juegos] == [
            "Juego 1 para Ana y Carla", "Juego 2 para Bruno y Diego", "Juego 3 para Ana y Carla"]
        # The chart of the whole vaca: a pair of lines per juego, separators, the dentro
        # line labelled, the legend with both pairs, the hands on the x axis.
        chart = end.locator("figure.chart")
        assert chart.locator("polyline").count() == 6
        assert chart.locator(".chart-separator").count() == 2
        expect(chart.locator("[data-dentro-label]")).to_have_text("dentro (36)")
        expect(chart.locator(".chart-legend")).to_contain_text("Ana y Carla")
        expect(chart.locator(".chart-legend")).to_contain_text("Bruno y Diego")
        expect(page.locator("[data-tally]")).to_have_text(
            "Vacas: Ana y Carla 1 – Bruno y Diego 0")
        page.screenshot(path=screenshots_dir / f"vaca-end-{scheme}.png", full_page=True)
    page.locator('[data-action="otra-vaca"]').click()
    page.wait_for_url("**otra-vaca=1")
    expect(page.locator("#scoreboard [data-points]").first).to_have_text("0")
    expect(page.locator("[data-tally]")).to_have_text("Vacas: Ana y Carla 1 – Bruno y Diego 0")
    # Still the new vaca's board after a few polls, not the end screen again.
    poll = urlsplit(page.locator("[data-poll]").get_attribute("hx-get") or "").path
    wait_for_polls(page, poll, 2)
    expect(page.locator("[data-vaca-end]")).to_have_count(0)
    expect(page.locator('[data-action="enter-hand"]')).to_have_text("Anotar mano")
    # The board keeps the current vaca's won juegos with their final score.
    services.add_hand(table, big("B"), via="api")
    expect(page.locator("[data-juegos-results]")).to_contain_text(
        "Juego 1 para Bruno y Diego", timeout=3_000)


def test_dentro_shows_at_36_and_not_at_35(phone: Page) -> None:
    table = make_table()
    services.add_hand(
        table, no_cards(grande={"bets": [{"side": "A", "n": 33}], "end": "quiero"}), via="api"
    )
    services.add_hand(table, no_cards(), via="api")
    services.add_hand(table, no_cards(), via="api")
    phone.goto(edit_path(table))
    assert points(phone)[0] == "35"
    expect(phone.locator(".side-A .dentro")).to_have_count(0)
    services.add_hand(table, no_cards(), via="api")
    expect(phone.locator("#scoreboard [data-points]").first).to_have_text("36", timeout=3_000)
    expect(phone.locator(".side-A .dentro")).to_be_visible()
    expect(phone.locator(".side-B .dentro")).to_have_count(0)


def test_the_audit_says_the_change_in_words_and_marks_the_corrected_hand(
    phone: Page, screenshots_dir: Path
) -> None:
    table = make_table()
    for _ in range(3):
        services.add_hand(table, no_cards(), via="api")
    services.replace_hand(table, 3, no_cards(chica="A"), via="edit_link")
    phone.goto(f"/t/{table.id}/k/{table.edit_key}/historial")
    first = phone.locator("[data-change-words]").first
    expect(first).to_have_text(
        "Chica: Bruno y Diego -> Ana y Carla; tantos de la mano 3: 1-2 -> 2-1")
    expect(phone.locator("#mano-3 [data-corrected]")).to_have_text("corregida")
    expect(phone.locator("#mano-2 [data-corrected]")).to_have_count(0)
    # Grouped by vaca and juego, newest first.
    expect(phone.locator(".history-vaca").first.locator("h2")).to_contain_text("Vaca 1")
    expect(phone.locator(".history-juego").first.locator("h3")).to_contain_text("Juego 1")
    phone.screenshot(path=screenshots_dir / "history-audit-words.png", full_page=True)


def test_piedras_by_hand_end_a_juego_at_the_target(phone: Page, screenshots_dir: Path) -> None:
    table = make_table(target=30, juegos=2)
    phone.goto(edit_path(table))
    side_a = phone.locator("[data-piedras-side='A']")

    def tap(side: str, label: str) -> None:
        with phone.expect_navigation():
            phone.locator(f"[data-piedras-side='{side}'] button", has_text=label).click()

    for _ in range(5):
        tap("A", "+5")
    assert points(phone) == ["25", "0"]
    expect(phone.locator(".side-A .dentro")).to_have_count(0)
    tap("A", "+1")
    assert points(phone) == ["26", "0"]
    expect(phone.locator(".side-A .dentro")).to_be_visible()  # target 30: dentro from 26
    tap("B", "−1")
    assert points(phone) == ["26", "0"]
    expect(phone.locator(".last-hand")).to_contain_text("ya estaban a 0")
    phone.screenshot(path=screenshots_dir / "board-piedras-by-hand.png", full_page=True)
    tap("A", "+5")
    # The juego is won at the target: the next starts at 0-0, the won one stays listed.
    expect(phone.locator(".juego-line")).to_contain_text("Juego 2")
    assert points(phone) == ["0", "0"]
    expect(phone.locator("[data-juegos-results]")).to_contain_text("Juego 1 para Ana y Carla")
    expect(phone.locator(".side-A .juego-mark.won")).to_have_count(1)
    expect(side_a).to_be_visible()
    assert Hand.objects.count() == 8
