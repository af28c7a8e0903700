"""The hand page an edit-link phone keeps for entering a hand without signal (issue 38.4):
fetched when the board opens, then brought up to date by each change itself (the next hand
the edit board's live part carries), never fetched again after a change. It cost a whole
page a phone a save. Opened without signal after other phones' saves, the kept copy is the
next hand's page as the server would draw it now (its number, the mano, the seats in
speaking order from the mano, the score before), with an id of its own, and the hand
entered from it is stored as that hand."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Request, expect

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import WITH_SERVICE_WORKER, board_in_place
from tests.browser.test_live import (
    DEAL,
    RECORD,
    SYNC_MS,
    Signal,
    edit_path,
    make_table,
    settle,
    tap_cards_offline,
    wait_for_kept_pages,
    wait_for_service_worker,
)

pytestmark = pytest.mark.django_db(transaction=True)


def page_fetches(page: Page, table: Table) -> list[str]:
    """The table's pages this phone asks for whole from now on (a board, a hand page: not
    a poll's fragment, not the stream), through the page or its service worker."""
    fetched: list[str] = []

    def seen(request: Request) -> None:
        path = request.url.split("://", 1)[1].split("/", 1)[1]
        if (request.method == "GET" and f"t/{table.id}/" in path and "live=1" not in path
                and request.headers.get("hx-request") != "true"):
            fetched.append(path)

    page.context.on("request", seen)
    return fetched


def saved_elsewhere(table: Table, phone: Page, step: Callable[[], object]) -> None:
    """A change made by another phone, and this phone's board showing it."""
    step()
    revision = Table.objects.get(pk=table.pk).revision
    phone.wait_for_selector(f"#board-live[data-revision='{revision}']", state="attached",
                            timeout=10_000)


def entry_as_drawn(page: Page) -> dict[str, object]:
    """What the hand page says of the hand: number, title, words above the cards, seats in
    order with their fields' names."""
    seats = page.locator("[data-picker-seat]").evaluate_all(
        "rows => rows.map(r => r.getAttribute('data-picker-seat'))")
    return {
        "number": page.locator('input[name="number"]').get_attribute("value"),
        "h1": page.locator("h1").inner_text(),
        "title": page.title(),
        "before": " ".join(page.locator("[data-entry-before]").inner_text().split()),
        "seats": seats,
        "jugadas": page.locator("[data-jugada-seat]").evaluate_all(
            "rows => rows.map(r => r.getAttribute('data-jugada-seat'))"),
        "labels": [page.locator(f"#id_c{seat}").get_attribute("aria-label") for seat in seats],
    }


@WITH_SERVICE_WORKER
def test_a_watching_phone_enters_the_next_hand_offline_from_the_push_alone(
    phone: Page, new_phone: Callable[..., Page], signal: Signal,
) -> None:
    table = make_table()
    hand = edit_path(table) + "mano"
    a = phone
    a.goto(edit_path(table))
    signal.name(a, "A")
    wait_for_service_worker(a)
    wait_for_kept_pages(a, [edit_path(table), hand])
    fetched = page_fetches(a, table)
    # Other phones save: a hand, piedras tapped by hand (an entry, not a hand dealt), a hand.
    saved_elsewhere(table, a, lambda: services.add_hand(table, RECORD, via="api"))
    saved_elsewhere(table, a, lambda: services.add_piedras(table, "B", 5, via="api"))
    saved_elsewhere(table, a, lambda: services.add_hand(table, RECORD, via="api"))
    a.wait_for_timeout(1_500)  # what followed a change (the copies kept) had time to come
    assert fetched == [], f"a pushed change cost a whole page: {fetched}"

    # The hand page as the server draws it now, on a phone with signal.
    b = new_phone()
    b.goto(hand)
    settle(b)
    drawn = entry_as_drawn(b)
    assert drawn["h1"] == "Mano 3" and drawn["seats"][0] == "2"  # Carla is mano

    signal.off(a, "A")
    with a.expect_navigation():
        a.locator('[data-action="enter-hand"]').click()
    settle(a)
    # The copy kept when the board opened (hand 1, Ana mano), made the next hand's.
    assert entry_as_drawn(a) == drawn
    kept_id = a.locator('input[name="client_id"]').get_attribute("value")
    tap_cards_offline(a, DEAL)
    with a.expect_navigation():
        a.locator('[data-action="save"]').click()
    settle(a)
    expect(a.locator("[data-synced]")).to_contain_text("la mano 3 queda guardada")
    signal.on(a, "A")
    expect(a.locator("[data-synced]")).to_have_text("Mano 3 sincronizada.", timeout=SYNC_MS)
    stored = Hand.objects.get(table=table, number=4)
    assert stored.client_id == kept_id
    assert services.table_state(table)["current"]["hands"][-1]["mano"] == 2


@WITH_SERVICE_WORKER
def test_the_saver_enters_the_next_hand_offline_from_the_page_it_saved_with(
    phone: Page, signal: Signal,
) -> None:
    """The saver's copy of the hand page is the one it saved hand 1 with (kept by the
    worker on the way in): offline it is hand 2's, with a new id, never hand 1's id, which
    the server would take for hand 1 sent again and drop."""
    table = make_table()
    a = phone
    a.goto(edit_path(table))
    signal.name(a, "A")
    wait_for_service_worker(a)
    with a.expect_navigation():
        a.locator('[data-action="enter-hand"]').click()
    settle(a)
    first_id = a.locator('input[name="client_id"]').get_attribute("value")
    tap_cards_offline(a, DEAL)
    settle(a)
    fetched = page_fetches(a, table)
    with board_in_place(a):
        a.locator('[data-action="save"]').click()
    expect(a.locator(".last-hand h2")).to_have_text("Mano 1")
    a.wait_for_timeout(1_500)
    assert fetched == [], f"the save cost a whole page besides its answer: {fetched}"
    assert Hand.objects.get().client_id == first_id

    signal.off(a, "A")
    with a.expect_navigation():
        a.locator('[data-action="enter-hand"]').click()
    settle(a)
    expect(a.locator("h1")).to_have_text("Mano 2")
    assert re.sub(r"\s+", " ", a.locator("[data-entry-before]").inner_text()) == (
        "Antes de la mano: 2–8 · mano: Bruno")
    assert a.locator("[data-picker-seat]").first.get_attribute("data-picker-seat") == "1"
    assert a.locator('input[name="client_id"]').get_attribute("value") != first_id
    tap_cards_offline(a, DEAL)
    with a.expect_navigation():
        a.locator('[data-action="save"]').click()
    settle(a)
    signal.on(a, "A")
    expect(a.locator("[data-synced]")).to_have_text("Mano 2 sincronizada.", timeout=SYNC_MS)
    assert sorted(Hand.objects.values_list("number", flat=True)) == [1, 2]


@WITH_SERVICE_WORKER
def test_the_next_hand_kept_offline_says_the_score_once_its_hands_are_sent(
    phone: Page, signal: Signal,
) -> None:
    """After a hand saved without signal, the next hand's page (the phone's copy) cannot
    count the score before it ("tanteo al volver la señal"). When the signal comes back
    and the kept hand is sent, the page says the score as the server counts it, as online,
    and the hand entered on it is stored as the next: never under the id of the hand just
    sent, which the server would take for that hand sent again."""
    table = make_table()
    a = phone
    a.goto(edit_path(table))
    signal.name(a, "A")
    wait_for_service_worker(a)
    wait_for_kept_pages(a, [edit_path(table), edit_path(table) + "mano"])
    signal.off(a, "A")
    for _ in range(2):
        with a.expect_navigation():
            a.locator('[data-action="enter-hand"]').click()
        settle(a)
        if a.locator("h1").inner_text() == "Mano 1":
            tap_cards_offline(a, DEAL)
            with a.expect_navigation():
                a.locator('[data-action="save"]').click()
            settle(a)
    before = a.locator("[data-entry-before]")
    expect(before).to_have_text("Antes de la mano: tanteo al volver la señal · mano: Bruno")
    signal.on(a, "A")
    expect(a.locator("[data-synced]")).to_have_text("Mano 1 sincronizada.", timeout=SYNC_MS)
    expect(before).to_have_text(re.compile(r"^\s*Antes de la mano: 2–8\s+·\s+mano: Bruno\s*$"))
    tap_cards_offline(a, DEAL)
    settle(a)
    a.locator('[data-action="save"]').click()
    expect(a.locator(".last-hand h2")).to_have_text("Mano 2")
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
