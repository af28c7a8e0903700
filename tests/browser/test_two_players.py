"""A 1 v 1 table on a 390x844 phone (issue 19): set up on /nueva, one hand entered by
taps (cards and bets) and counted on the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import board_in_place
from tests.browser.test_hand_entry import entry_path, settle, tap_cards, tap_seg

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_one_against_one_hand_is_entered_and_counted(phone: Page) -> None:
    page = phone
    page.goto("/nueva")
    tap_seg(page, "players", "2")
    # Only two names and two manos are offered at a table of two.
    expect(page.locator('.name-row[data-seat="2"]')).to_be_hidden()
    expect(page.locator('label.seg', has=page.locator('input[name="mano"][value="3"]'))) \
        .to_be_hidden()
    page.fill("#id_name_0", "Ana")
    page.fill("#id_name_1", "Bruno")
    with page.expect_navigation():
        page.locator("form.setup button.btn-primary").click()
    table = Table.objects.get()
    assert table.players == ["Ana", "Bruno"] and table.rules["players"] == 2

    page.goto(entry_path(table))
    settle(page)
    expect(page.locator("[data-picker-seat]")).to_have_count(2)
    tap_cards(page, "5 7 6 4")
    tap_cards(page, "R C 3 R")
    for value in ("bet:grande:B:2", "end:grande:no_quiero", "bet:chica:A:2",
                  "end:chica:no_quiero"):
        page.locator(f'button[value="{value}"]').click()
        settle(page)
    # The shared example "two players, each for himself (3)": A 1, B 5.
    expect(page.locator("#recuento, .recuento").first).to_contain_text("Bruno")
    with board_in_place(page):
        page.locator('[data-action="save"]').click()
    hand = services.table_state(table)["current"]["hands"][-1]
    assert hand["score"] == {"A": 1, "B": 5}
    assert Hand.objects.get().record["hands"] == {"0": "5 7 6 4", "1": "R C 3 R"}
    expect(page.locator("body")).to_contain_text("Mano: Bruno")


def test_a_two_player_vaca_speaks_of_one_player(phone: Page) -> None:
    """Issue 30.4: at a table of two each side is one player: "lo gana Bruno, que gana el
    juego", "(solo él tiene)"; /nueva for two does not seat partners; the home page offers 2."""
    page = phone
    table = services.create_table(players=["Ana", "Bruno"])
    # Bruno alone has juego (R C 3 R is 40 with 8 reyes): paid without a bet.
    services.add_hand(table, {"hands": {"0": "5 7 6 4", "1": "R C 3 R"}}, via="api")
    page.goto(f"/t/{table.id}/k/{table.edit_key}/historial")
    history = page.locator("main")
    expect(history).to_contain_text("(solo él tiene)")
    expect(history).not_to_contain_text("solo ellos tienen")
    services.add_hand(table, {"hands": {"0": "5 7 6 4", "1": "R C 3 R"}, "lances": {
        "grande": {"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"}}}, via="api")
    page.goto(f"/t/{table.id}/k/{table.edit_key}/")
    last = page.locator(".last-hand")
    expect(last).to_contain_text("lo gana Bruno, que gana el juego")
    expect(last).not_to_contain_text("ganan")
    page.goto("/nueva")
    tap_seg(page, "players", "2")
    expect(page.locator('[data-seat-note="two"]')).to_be_visible()
    expect(page.locator('[data-seat-note="pairs"]')).to_be_hidden()
    page.goto("/")
    expect(page.locator("main")).to_contain_text("de 2 a 6 jugadores")
