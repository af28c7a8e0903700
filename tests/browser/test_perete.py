"""Perete at a phone's table (issue 19): on a table that plays it, a player shows 4 5 6 7
and one tap notes it; the board and the history name it, the score counts its piedra,
and it is undone like a piedras tap."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.tables import services
from muscore.tables.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def test_a_perete_is_noted_seen_in_history_and_score_and_undone(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"],
                                  rules={"perete": True})
    services.add_hand(table, {"hands": SEED}, via="api")  # A 2, B 8
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    assert_page_ok(phone, edit)
    expect(phone.locator("body")).to_contain_text("con perete")
    button = phone.get_by_role("button", name="Perete: un tanto para Ana y Carla (4 5 6 7)")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's target
    with phone.expect_navigation():
        button.click()
    points = phone.locator("#scoreboard [data-points]")
    expect(points.first).to_have_text("3")
    expect(points.last).to_have_text("8")
    last = phone.locator(".last-hand")
    expect(last.locator("h2")).to_have_text("Anotación 2: perete")
    expect(last).to_contain_text("Perete de Ana y Carla: 1 piedra, 3.")
    assert [h.record for h in Hand.objects.order_by("number")][1] == {"perete": {"side": "A"}}

    phone.goto(edit + "historial")
    hand = phone.locator("#mano-2")
    expect(hand.locator("h4")).to_have_text("Anotación 2: perete")
    expect(hand).to_contain_text("Perete de Ana y Carla: 1 piedra, 3.")
    expect(phone.locator("[data-action='add']").first).to_contain_text("anotación 2 (perete)")

    phone.goto(edit)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Deshacer la última anotación").click()
    expect(phone.locator("h1")).to_have_text("¿Deshacer la anotación 2 (perete)?")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Sí, deshacer la anotación 2").click()
    expect(points.first).to_have_text("2")
    expect(phone.locator("body")).to_contain_text("Anotación 2 deshecha.")
    expect(phone.get_by_role("button", name="Rehacer la anotación 2 (deshecha)")).to_be_visible()
    assert Hand.objects.count() == 1
