"""A 1 v 1 table on a 390x844 phone (issue 19): set up on /nueva, one hand entered by
taps (cards and bets) and counted on the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
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
    with page.expect_navigation():
        page.locator('[data-action="save"]').click()
    hand = services.table_state(table)["current"]["hands"][-1]
    assert hand["score"] == {"A": 1, "B": 5}
    assert Hand.objects.get().record["hands"] == {"0": "5 7 6 4", "1": "R C 3 R"}
    expect(page.locator("body")).to_contain_text("Mano: Bruno")
