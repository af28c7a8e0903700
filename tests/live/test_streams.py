"""The streams over real HTTP (issue 32): uvicorn serving muscore.asgi on a SQLite file,
no Redis (the writes of its own pages reach its streams in the process; a write made by
another server reaches them by the stream server's check of the revisions).

A phone hears a save as an event carrying the new fragment, its ETag as the event id; a
reconnect with Last-Event-ID gets what it missed and nothing it has; what is not a live
screen, a wrong key, too many streams from one address are refused with the status the
page then polls on; an idle stream hears heartbeats; a stopping server tells its phones
to come back (bye, with a retry) and ends their streams.
"""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.sse import Stream
from tests.multiserver.servers import Server, Uvicorn, base_env, http, running, sqlite_copy


def api(server: Server, method: str, path: str, body: Any = None, **headers: str) -> Any:
    status, _, content = http(method, f"{server.url}/api/v1{path}", body, headers)
    return status, json.loads(content) if content else None


def new_table(server: Server) -> dict[str, Any]:
    status, table = api(server, "POST", "/tables", {"players": ["Ana", "Bruno", "Carla", "Diego"]})
    assert status == 201, table
    return dict(table)


def piedras(server: Server, table: dict[str, Any], n: int, client_id: str) -> dict[str, Any]:
    status, state = api(server, "POST", f"/tables/{table['id']}/piedras",
                        {"side": "A", "n": n, "client_id": client_id},
                        **{"X-Table-Key": table["edit_key"]})
    assert status == 201, state
    return dict(state)


def view_poll(table: dict[str, Any]) -> str:
    return f"/t/{table['id']}/?live=1"


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[Server]:
    """One stream server for the module's tests, each on a table of its own (a uvicorn's
    start is 2 s of CPU). Its limit of one address's streams is the default: the test of
    that limit has a server of its own (`limited`), nothing opened before it counted."""
    folder = tmp_path_factory.mktemp("streams")
    env = base_env(DATABASE_URL=sqlite_copy(migrated_sqlite, folder / "live.sqlite3"),
                   LIVE_HEARTBEAT_SECONDS="1")
    with running(Uvicorn(env, folder / "uvicorn")) as (server,):
        yield server


@pytest.fixture
def limited(sqlite_env: dict[str, str], tmp_path: Path) -> Iterator[Server]:
    env = {**sqlite_env, "LIVE_HEARTBEAT_SECONDS": "1", "LIVE_MAX_PER_ADDRESS": "3"}
    with running(Uvicorn(env, tmp_path / "uvicorn")) as (server,):
        yield server


def test_a_save_reaches_the_view_link_as_an_event_with_the_new_fragment(streams: Server) -> None:
    table = new_table(streams)
    stream = Stream(streams.url, view_poll(table), etag="none")
    try:
        assert stream.status == 200
        assert stream.response_headers["content-type"].startswith("text/event-stream")
        assert stream.response_headers["x-accel-buffering"] == "no"
        hello = stream.until("hello")
        assert hello is not None and hello.retry == 2000
        first = stream.until("change")  # its copy ("none") is not the screen's: sent at once
        assert first is not None and first.id == first.json()["etag"]
        piedras(streams, table, 3, "p1")
        saved = time.time()
        event = stream.until("change", timeout=5)
        assert event is not None, "no event within 5 s of the save"
        data = event.json()
        assert data["etag"] != first.json()["etag"] and event.id == data["etag"]
        assert 'id="board-live"' in data["html"] and 'data-revision="2"' in data["html"]
        assert 0 < data["published"] <= data["drawn"] <= time.time()
        assert data["drawn"] - saved < 5
    finally:
        stream.close()


def test_a_reconnect_with_last_event_id_gets_what_it_missed_and_nothing_it_has(
    streams: Server,
) -> None:
    table = new_table(streams)
    stream = Stream(streams.url, view_poll(table))
    first = stream.until("change")
    stream.close()
    assert first is not None
    piedras(streams, table, 1, "m1")
    piedras(streams, table, 1, "m2")  # two saves while the phone was away

    back = Stream(streams.url, view_poll(table), last_event_id=first.id)
    try:
        missed = back.until("change")
        assert missed is not None and 'data-revision="3"' in missed.json()["html"]
    finally:
        back.close()
    current = Stream(streams.url, view_poll(table), last_event_id=missed.id)
    try:
        assert current.until("hello") is not None
        assert current.until("change", timeout=1.5) is None  # it holds the newest already
    finally:
        current.close()


def test_what_is_not_a_live_screen_and_a_wrong_key_are_refused_with_404(streams: Server) -> None:
    table = new_table(streams)
    for url in ("/clubs/", "/api/v1/tables", "http://example.com/t/x/",
                f"/t/{table['id']}/k/wrong/", "/t/nosuchtable/", "", "/" + "x" * 3000):
        stream = Stream(streams.url, url)
        assert stream.status == 404, (url, stream.status)
        stream.close()
    edit = Stream(streams.url, f"/t/{table['id']}/k/{table['edit_key']}/?live=1")
    try:
        assert edit.status == 200 and edit.until("hello") is not None
    finally:
        edit.close()


def test_streams_past_the_limit_of_one_address_are_refused_with_429(limited: Server) -> None:
    streams = limited
    table = new_table(streams)
    open_ones = [Stream(streams.url, view_poll(table)) for _ in range(3)]
    try:
        assert [s.status for s in open_ones] == [200, 200, 200]
        extra = Stream(streams.url, view_poll(table))
        assert extra.status == 429 and extra.response_headers.get("retry-after")
        extra.close()
    finally:
        for stream in open_ones:
            stream.close()
    time.sleep(0.5)  # the server sees them go
    again = Stream(streams.url, view_poll(table))
    assert again.status == 200
    again.close()


def test_an_idle_stream_hears_a_heartbeat(streams: Server) -> None:
    table = new_table(streams)
    stream = Stream(streams.url, view_poll(table))
    try:
        stream.until("change")
        assert stream.next(timeout=2.5) is None  # nothing changed: no event...
        assert stream.comments >= 1  # ...but the comments that keep a proxy from closing it
    finally:
        stream.close()


def test_a_stopping_server_tells_its_phones_to_come_back_and_ends_their_streams(
    sqlite_env: dict[str, str], tmp_path: Path,
) -> None:
    server = Uvicorn(sqlite_env, tmp_path / "stopping")
    with running(server):
        table = new_table(server)
        stream = Stream(server.url, view_poll(table))
        assert stream.until("change") is not None
        assert server.process is not None
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        bye = stream.until("bye", timeout=5)
        assert bye is not None and bye.retry is not None and 500 <= bye.retry <= 3000
        assert stream.next(timeout=5) is None  # the stream ended
        server.process.wait(timeout=10)
        assert time.monotonic() - started < 8
        stream.close()


def test_a_write_through_another_server_reaches_the_stream_by_its_check(
    sqlite_env: dict[str, str], tmp_path: Path,
) -> None:
    # gunicorn serves the pages, uvicorn the streams, one SQLite file, no Redis: the stream
    # server reads the watched revisions every half second.
    pages = Server(sqlite_env, tmp_path / "g", workers=1)
    streams = Uvicorn(sqlite_env, tmp_path / "u")
    with running(pages, streams):
        table = new_table(pages)
        stream = Stream(streams.url, view_poll(table))
        try:
            first = stream.until("change")
            assert first is not None
            piedras(pages, table, 2, "g1")
            event = stream.until("change", timeout=4)
            assert event is not None, "the other server's save was not heard within 4 s"
            assert 'data-revision="2"' in event.json()["html"]
        finally:
            stream.close()


def draws(server: Server) -> float:
    """The stream server's drawings so far (its /metrics)."""
    status, _, content = http("GET", f"{server.url}/metrics")
    assert status == 200
    for line in content.decode().splitlines():
        if line.startswith("muscore_live_draws_total "):
            return float(line.split()[1])
    raise AssertionError("no muscore_live_draws_total in /metrics")


def test_a_save_is_drawn_once_not_again_at_the_check_of_the_revisions(streams: Server) -> None:
    # Its publish draws it; the check (every 0.5 s here, no Redis) compares each screen
    # with the tokens it was drawn at and finds nothing moved. It drew every save twice.
    table = new_table(streams)
    stream = Stream(streams.url, view_poll(table), etag="none")
    try:
        assert stream.until("change") is not None
        time.sleep(1.2)  # the first drawing's checks behind it
        before = draws(streams)
        piedras(streams, table, 2, "once")
        event = stream.until("change", timeout=5)
        assert event is not None and 'data-revision="2"' in event.json()["html"]
        time.sleep(1.6)  # three checks
        assert draws(streams) - before == 1
        assert stream.next(timeout=0.5) is None  # and no event either
    finally:
        stream.close()


def test_a_stream_at_a_languages_address_draws_that_languages_page(streams: Server) -> None:
    """A board at /fr/ (muscore.addresses) streams its French page, its links at /fr/, as
    its poll would answer it; a save reaches it like any other."""
    table = new_table(streams)
    edit = f"/fr/t/{table['id']}/k/{table['edit_key']}/?live=1"
    stream = Stream(streams.url, edit, language="fr", etag="none")
    try:
        assert stream.status == 200
        first = stream.until("change")
        assert first is not None
        links = re.findall(r'href="(/[^"]*)"', first.json()["html"])
        assert links and all(link.startswith(("/fr/", "/static/")) for link in links), links
        # The poll's own answer, whatever language the phone asks: the same links.
        status, _headers, poll = http("GET", f"{streams.url}{edit}",
                                      headers={"HX-Request": "true", "Accept-Language": "en"})
        assert status == 200
        assert sorted(set(re.findall(r'href="(/[^"]*)"', poll.decode()))) == sorted(set(links))
        piedras(streams, table, 3, "p-fr")
        event = stream.until("change", timeout=5)
        assert event is not None and 'data-revision="2"' in event.json()["html"]
    finally:
        stream.close()
