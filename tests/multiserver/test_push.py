"""Live screens by push across servers (issue 32): PostgreSQL, Redis, two gunicorn servers
for the pages and writes, two uvicorn servers for the streams (muscore.asgi).

A save on one server reaches a phone on another by the event (Redis pub/sub, published
after the commit); a phone whose stream server died reconnects to the other with its
Last-Event-ID and gets what it missed; in a real browser, two phones on two servers see
each other's taps by the event (and a tap on a pushed fragment is accepted: its CSRF
token is the page's), and a page whose stream is refused polls as before.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.live.sse import Stream
from tests.multiserver.conftest import Cluster
from tests.multiserver.servers import Uvicorn, running
from tests.multiserver.test_two_servers import call, new_table

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver")]


def piedras(server: Any, table_id: str, headers: dict[str, str], n: int, client_id: str) -> None:
    status, _, body = call(server, "POST", f"/api/v1/tables/{table_id}/piedras",
                           {"side": "A", "n": n, "client_id": client_id}, **headers)
    assert status == 201, body


def test_a_save_on_one_server_reaches_a_phone_on_another_by_the_event(
    cluster: Cluster, streams: Cluster,
) -> None:
    table_id, headers = new_table(cluster.a, "198.51.100.201")
    stream = Stream(streams.b.url, f"/t/{table_id}/?live=1")
    try:
        assert stream.until("change") is not None
        saved = time.time()
        piedras(cluster.a, table_id, headers, 2, "push-1")  # gunicorn A; the phone is on uvicorn B
        event = stream.until("change", timeout=5)
        assert event is not None, "the save on server A did not reach server B's stream"
        data = event.json()
        assert 'data-revision="2"' in data["html"] and event.id == data["etag"]
        assert saved <= data["published"] <= data["drawn"]
    finally:
        stream.close()


def test_a_phone_whose_server_died_gets_what_it_missed_from_the_other(
    cluster: Cluster, streams: Cluster, tmp_path: Path,
) -> None:
    table_id, headers = new_table(cluster.a, "198.51.100.202")
    doomed = Uvicorn(cluster.a.env, tmp_path / "doomed")
    with running(doomed):
        stream = Stream(doomed.url, f"/t/{table_id}/?live=1")
        first = stream.until("change")
        assert first is not None
        assert doomed.process is not None
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait(timeout=10)
        assert stream.next(timeout=2) is None  # the stream is gone with its server
        stream.close()
    piedras(cluster.b, table_id, headers, 1, "dead-1")  # saved while the phone had no stream
    back = Stream(streams.a.url, f"/t/{table_id}/?live=1", last_event_id=first.id)
    try:
        missed = back.until("change")
        assert missed is not None and 'data-revision="2"' in missed.json()["html"]
    finally:
        back.close()


def open_phone(browser: Browser, url: str) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def points(page: Page, side: str) -> str:
    return page.locator(f"#board-live [data-side='{side}'] [data-points]").first.inner_text()


@pytest.mark.browser
def test_two_phones_on_two_servers_see_each_others_taps_by_the_event(
    cluster: Cluster, streams: Cluster, browser: Browser,
) -> None:
    table_id, headers = new_table(cluster.a, "198.51.100.203")
    key = headers["X-Table-Key"]
    one = open_phone(browser, f"{streams.a.url}/t/{table_id}/k/{key}/")
    two = open_phone(browser, f"{streams.b.url}/t/{table_id}/k/{key}/")
    # Selectors, not wait_for_function: the page's CSP forbids evaluating strings.
    for page in (one, two):
        page.wait_for_selector("html[data-stream='open']", state="attached")
    polls: list[str] = []
    two.on("request", lambda r: polls.append(r.url) if "live=1" in r.url else None)

    one.locator("[data-piedras-side='A'] button", has_text="+5").click()
    two.wait_for_selector("#board-live[data-pushed]", state="attached", timeout=5_000)
    assert points(two, "A") == points(one, "A")
    assert not polls, f"phone two polled instead of hearing the event: {polls}"

    # A tap on the fragment the event brought: its form carries phone two's own token.
    two.locator("[data-piedras-side='B'] button", has_text="+1").click()
    expect(one.locator("#board-live [data-side='B'] [data-points]")).to_have_text(
        "1", timeout=5_000)
    status, _, state = call(cluster.a, "GET", f"/api/v1/tables/{table_id}")
    assert status == 200 and state["revision"] == 3


@pytest.mark.browser
def test_a_page_whose_stream_is_refused_polls_as_before(
    cluster: Cluster, browser: Browser, tmp_path: Path,
) -> None:
    refusing = Uvicorn({**cluster.a.env, "LIVE_MAX_PER_ADDRESS": "0"}, tmp_path / "refusing")
    with running(refusing):
        table_id, headers = new_table(cluster.a, "198.51.100.204")
        page = open_phone(browser, f"{refusing.url}/t/{table_id}/")
        page.wait_for_selector("html[data-stream='polling']", state="attached")
        piedras(cluster.b, table_id, headers, 5, "refused-1")
        page.wait_for_selector("#board-live[data-revision='2']", state="attached",
                               timeout=5_000)
        assert not page.locator("#board-live[data-pushed]").count()
