"""The phone that saves sees its save first (issue 38.4): Guardar answers the board itself,
swapped in place of the hand page (its address the board's, the focus on "Anotar mano"),
no navigation and no second request; the board kept for offline use is the page as it
stands, with no fetch of it; Back comes to a fresh hand page, never the saved taps."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

from muscore import bus
from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.browser.conftest import WITH_SERVICE_WORKER, board_in_place
from tests.browser.test_hand_entry import DEAL, board_path, settle
from tests.browser.test_live import wait_for_kept_pages, wait_for_service_worker

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


def tap_deal(page: Page) -> None:
    seats = page.locator("[data-picker-seat]").evaluate_all(
        "rows => rows.map(r => r.getAttribute('data-picker-seat'))"
    )
    for seat in seats:
        for card in DEAL[int(seat)].split():
            page.locator(f'[data-card="{card}"]').click()
    settle(page)


def test_the_savers_board_changes_without_a_navigation(phone: Page) -> None:
    table = services.create_table(players=NAMES)
    page = phone
    page.goto(board_path(table))
    with page.expect_navigation():
        page.locator('[data-action="enter-hand"]').click()
    settle(page)
    tap_deal(page)
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    with board_in_place(page):
        page.locator('[data-action="save"]').click()
    assert Hand.objects.count() == 1
    # The board drawn by the save's answer: the score, the last hand, the title.
    expect(page.locator("#scoreboard [data-points]")).to_have_text(["2", "8"])
    expect(page.locator(".last-hand h2")).to_have_text("Mano 1")
    expect(page).to_have_title(re.compile(r"^2–8 "))
    # One request: the save, and its word that the board shows it (no body, 204). No
    # document loaded, no board fetched again.
    documents = [r for r in requests if r.resource_type == "document"]
    assert documents == [], [r.url for r in documents]
    for _ in range(50):
        if any("/mostrado/" in r.url for r in requests):
            break
        page.wait_for_timeout(50)
    posts = [r for r in requests if r.method == "POST"]
    assert len(posts) == 2 and "/mano" in posts[0].url and "/mostrado/" in posts[1].url
    board_gets = [r for r in requests if r.method == "GET" and re.search(r"/k/[^/]+/$", r.url)]
    assert board_gets == [], [r.url for r in board_gets]
    # The next thing a player does has the focus (issue 38.6), not <body>.
    expect(page.locator('[data-action="enter-hand"]')).to_be_focused()
    # And the board goes on: the next hand is entered from it as before.
    with page.expect_navigation():
        page.locator('[data-action="enter-hand"]').click()
    settle(page)
    expect(page.locator("h1")).to_contain_text("Mano 2")


def test_the_other_phones_are_told_only_once_the_savers_board_shows_it(
    phone: Page, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The saver is never later than the others (issue 38.4): the server tells the other
    phones (bus.send: the stream servers' push) only once the saver's page says it shows
    the board its save answered. The saver's answer is held 0.6 s in the browser after
    the server sent it (a slow phone, a slow network): a publish at the answer's close
    (before) came 0.6 s before the saver's board, the word after it."""
    monkeypatch.setattr(bus, "SHOWN_WAIT", 5.0)  # told by the page's word, not the timer
    table = services.create_table(players=NAMES)
    page = phone
    page.goto(board_path(table) + "mano")
    settle(page)
    tap_deal(page)
    page.evaluate("""() => {
        new MutationObserver(() => {
            if (!window.__boardAt && document.getElementById("board-live")) {
                window.__boardAt = Date.now();
            }
        }).observe(document.body, { childList: true, subtree: true });
    }""")
    sent: list[float] = []

    def slow_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()  # the server has sent it whole and closed it
        sent.append(time.time())
        time.sleep(0.6)
        route.fulfill(response=answer)

    page.route("**/mano", slow_answer)
    told: list[float] = []

    def listener(topics: list[str], at: float) -> None:
        if f"table:{table.pk}" in topics:
            told.append(time.time())

    bus.listen(listener)
    try:
        with board_in_place(page):
            page.locator('[data-action="save"]').click()
        for _ in range(100):
            if told:
                break
            page.wait_for_timeout(50)
    finally:
        bus.unlisten(listener)
    board_at = page.evaluate("() => window.__boardAt") / 1000
    assert sent and told, (sent, told)
    assert len(told) == 1  # once
    assert sent[0] + 0.5 < board_at <= told[0], (sent[0], board_at, told[0])
    assert told[0] - sent[0] < 3  # by the page's word, long before SHOWN_WAIT


def test_back_after_a_save_in_place_is_a_fresh_hand_page(phone: Page) -> None:
    """htmx keeps no snapshot of the hand page (historyCacheSize 0): Back loads it anew,
    the next hand's, empty, never the taps already saved (issue 19.1)."""
    table = services.create_table(players=NAMES)
    page = phone
    page.goto(board_path(table) + "mano")
    settle(page)
    tap_deal(page)
    with board_in_place(page):
        page.locator('[data-action="save"]').click()
    page.go_back()
    settle(page)
    expect(page.locator("h1")).to_contain_text("Mano 2")
    for seat in range(4):
        expect(page.locator(f'input[name="c{seat}"]')).to_have_value("")
    assert Hand.objects.count() == 1


@WITH_SERVICE_WORKER
def test_a_pushed_change_keeps_the_board_for_offline_use_without_fetching_it(
    new_phone: Any,
) -> None:
    """A view phone's board after another phone's save: its copy for the worker is the page
    as it stands (issue 38.4: each change cost a fetch of the whole board per phone)."""
    table = services.create_table(players=NAMES)
    viewer: Page = new_phone()
    path = f"/t/{table.id}/"
    viewer.goto(path)
    wait_for_service_worker(viewer)
    viewer.reload()
    wait_for_kept_pages(viewer, [path])
    fetched: list[str] = []
    viewer.on("request", lambda r: fetched.append(r.url) if re.search(
        rf"/t/{table.id}/$", r.url) and r.method == "GET" else None)
    services.add_hand(table, {"hands": {str(s): c for s, c in DEAL.items()}}, via="api")
    expect(viewer.locator("#scoreboard [data-points]")).to_have_text(["2", "8"], timeout=10_000)
    kept = """async (path) => {
        const cache = await caches.open("muscore-pages");
        const hit = await cache.match(location.origin + path);
        return hit ? await hit.text() : "";
    }"""
    revision = f'data-revision="{Table.objects.get(pk=table.pk).revision}"'
    copy = ""
    for _ in range(50):
        copy = viewer.evaluate(kept, path)
        if revision in copy:
            break
        viewer.wait_for_timeout(100)
    assert revision in copy and 'data-points="">2</p>' in copy
    assert fetched == [], fetched  # the poll's fragment alone: no full board fetched


FAKE_STREAM = """
(() => {
  window.__streams = [];
  class FakeStream {
    constructor(url) {
      this.url = url; this.readyState = 1; this.heard = {}; window.__streams.push(this);
    }
    addEventListener(name, f) { (this.heard[name] = this.heard[name] || []).push(f); }
    close() { this.readyState = 2; }
    say(name, data) { (this.heard[name] || []).forEach((f) => f({ data: JSON.stringify(data) })); }
  }
  FakeStream.CLOSED = 2;
  window.EventSource = FakeStream;
})();
"""


def test_a_pushed_fragment_older_than_the_board_is_not_swapped_in(
    phone: Page, settings: Any, client: Any,
) -> None:
    """The saver's board is newer than what its stream's server holds until the save is
    published (issue 38.4): the server gives a new stream the fragment it drew last, the
    old score, which was swapped in over the saver's board. An older revision is
    dropped; a newer one goes in as ever. The stream is the page's EventSource, stood in
    for to say what a stream server says."""
    settings.LIVE_STREAM_URL = "/events/"
    table = services.create_table(players=NAMES)
    page = phone
    page.add_init_script(FAKE_STREAM)
    poll = f"/t/{table.id}/k/{table.edit_key}/?live=1"

    def fragment() -> dict[str, str]:
        answer = client.get(poll, headers={"HX-Request": "true"})
        assert answer.status_code == 200
        return {"html": answer.content.decode(), "etag": answer["ETag"]}

    old = fragment()
    services.add_hand(table, {"hands": {str(s): c for s, c in DEAL.items()}}, via="api")
    page.goto(board_path(table))
    settle(page)
    page.wait_for_function("() => window.__streams.length > 0")
    expect(page.locator("#scoreboard [data-points]")).to_have_text(["2", "8"])
    page.evaluate("(data) => window.__streams[0].say('change', data)", old)
    page.wait_for_timeout(300)
    expect(page.locator("#scoreboard [data-points]")).to_have_text(["2", "8"])
    assert page.locator("#board-live").get_attribute("data-pushed") is None
    services.add_hand(table, {"hands": {str(s): c for s, c in DEAL.items()}}, via="api")
    page.evaluate("(data) => window.__streams[0].say('change', data)", fragment())
    expect(page.locator("#scoreboard [data-points]")).to_have_text(["4", "16"])
    assert page.locator("#board-live").get_attribute("data-pushed") is not None
