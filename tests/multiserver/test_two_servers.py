"""Two app servers, one PostgreSQL, one Redis (issue #13): they agree on every table.

Each test speaks as its own client (X-Forwarded-For, trusted: the servers run behind a
"proxy"), so the creation limit one test reaches is not another's.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from muscore import rules
from tests.multiserver.conftest import CREATE_RATE, Cluster
from tests.multiserver.servers import Server, http
from tests.tables.factory import make_deje_record, make_record


def client_address(n: int) -> str:
    return f"198.51.100.{n}"


def call(
    server: Server, method: str, path: str, body: Any = None, **headers: str
) -> tuple[int, dict[str, str], Any]:
    """One API request; retried when the connection drops, which these tests make safe
    (client ids, idempotency keys) or harmless (reads)."""
    for attempt in range(6):
        try:
            status, answer_headers, raw = http(method, server.url + path, body, headers)
            return status, answer_headers, json.loads(raw) if raw else None
        except (ConnectionError, urllib.error.URLError):
            if attempt == 5:
                raise
            time.sleep(0.1 * (attempt + 1))
    raise AssertionError("unreachable")


def new_table(server: Server, client: str) -> tuple[str, dict[str, str]]:
    status, _, table = call(server, "POST", "/api/v1/tables", {}, **{"X-Forwarded-For": client})
    assert status == 201, table
    return table["id"], {"X-Table-Key": table["edit_key"], "X-Forwarded-For": client}


def storm(calls: list[Callable[[], tuple[int, dict[str, str], Any]]]) -> list[tuple[int, Any]]:
    """Every call at the same moment (a barrier), from as many threads; (status, body) each."""
    barrier = threading.Barrier(len(calls))

    def one(fn: Callable[[], tuple[int, dict[str, str], Any]]) -> tuple[int, Any]:
        barrier.wait()
        status, _, body = fn()
        return status, body

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(one, calls))


def stored_hands(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for vaca in [*state["finished"], state["current"]] for h in vaca["hands"]]


def state_on(server: Server, table_id: str) -> dict[str, Any]:
    status, _, state = call(server, "GET", f"/api/v1/tables/{table_id}?finished=full")
    assert status == 200
    return state


def test_a_hand_saved_through_one_server_is_on_the_others_board_within_2_seconds(
    cluster: Cluster,
) -> None:
    table_id, key = new_table(cluster.a, client_address(1))
    # B has drawn the board (and cached its state) before the hand exists.
    status, board_headers, _ = http("GET", f"{cluster.b.url}/t/{table_id}/?live=1")
    assert status == 200
    before = state_on(cluster.b, table_id)
    assert stored_hands(before) == []

    status, _, saved = call(
        cluster.a, "POST", f"/api/v1/tables/{table_id}/hands", make_record(), **key
    )
    assert status == 201
    started = time.monotonic()
    while True:
        # B's board, polled as the phones poll it: with the ETag of what they show.
        status, _, _ = http(
            "GET", f"{cluster.b.url}/t/{table_id}/?live=1",
            headers={"If-None-Match": board_headers["ETag"], "HX-Request": "true"},
        )  # fmt: skip
        if status == 200:
            break
        assert status == 304
        assert time.monotonic() - started < 2, "B still shows the board without the hand"
        time.sleep(0.1)
    seen = time.monotonic() - started
    on_b = state_on(cluster.b, table_id)
    assert seen < 2
    assert on_b["revision"] == saved["revision"]
    assert on_b["current"] == saved["current"]
    assert len(stored_hands(on_b)) == 1


def test_fifty_identical_saves_split_across_both_servers_store_one_hand(cluster: Cluster) -> None:
    table_id, key = new_table(cluster.a, client_address(2))
    body = {**make_record(), "number": 1, "client_id": "phone-7-hand-1"}
    path = f"/api/v1/tables/{table_id}/hands"
    servers = [cluster.a, cluster.b] * 25
    answers = storm([lambda s=s: call(s, "POST", path, body, **key) for s in servers])
    assert [status for status, _ in answers] == [201] * 50
    # Every retry, on either server, answers as the first did.
    assert all(answer == answers[0][1] for _, answer in answers)
    for server in (cluster.a, cluster.b):
        state = state_on(server, table_id)
        assert len(stored_hands(state)) == 1
        assert state["revision"] == answers[0][1]["revision"]


def test_fifty_conflicting_saves_store_one_hand_and_answer_409_to_the_rest(
    cluster: Cluster,
) -> None:
    table_id, key = new_table(cluster.b, client_address(3))
    path = f"/api/v1/tables/{table_id}/hands"
    records = [make_record(), make_deje_record("A"), make_deje_record("B")]
    calls = [
        lambda n=n: call(
            [cluster.a, cluster.b][n % 2],
            "POST",
            path,
            {**records[n % 3], "number": 1, "client_id": f"phone-{n}"},
            **key,
        )  # fmt: skip
        for n in range(50)
    ]
    answers = storm(calls)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * 49
    (winner,) = [body for status, body in answers if status == 201]
    stored = stored_hands(winner)[0]
    record = stored_record(cluster, table_id)
    for status, body in answers:
        if status == 409:
            # Each loser is shown the hand that was stored, whichever server it asked.
            assert body["hand"]["number"] == 1
            assert body["hand"]["record"] == record
    for server in (cluster.a, cluster.b):
        state = state_on(server, table_id)
        assert len(stored_hands(state)) == 1
        assert stored_hands(state)[0] == stored


def stored_record(cluster: Cluster, table_id: str) -> dict[str, Any]:
    status, _, hand = call(cluster.a, "GET", f"/api/v1/tables/{table_id}/hands/1")
    assert status == 200
    record: dict[str, Any] = hand["record"]
    return record


def window_left(address: str, period: int) -> int:
    """Seconds left in django-ratelimit's current window for `address` (staggered by hash)."""
    now = int(time.time())
    end = now - now % period + zlib.crc32(address.encode()) % period
    return end + period - now if end < now else end - now


def test_a_rate_limit_counts_the_requests_to_both_servers_together(cluster: Cluster) -> None:
    # An address whose hourly window does not end during the test.
    client = next(
        a for a in (f"203.0.113.{n}" for n in range(1, 255)) if window_left(a, 3600) > 300
    )
    headers = {"X-Forwarded-For": client}
    servers = [cluster.a, cluster.b] * (CREATE_RATE // 2)
    for server in servers:
        status, _, body = call(server, "POST", "/api/v1/tables", {}, **headers)
        assert status == 201, body
    # Each server has seen only half the limit: only a shared count refuses these.
    for server in (cluster.a, cluster.b):
        status, answer_headers, body = call(server, "POST", "/api/v1/tables", {}, **headers)
        assert status == 429
        assert body["error"].startswith("too many requests")
        assert 1 <= int(answer_headers["Retry-After"]) <= 3601
    # Another client behind the same proxy is not held back.
    assert (
        call(cluster.b, "POST", "/api/v1/tables", {}, **{"X-Forwarded-For": "203.0.113.0"})[0]
        == 201
    )


def test_an_undo_on_one_server_and_an_edit_on_the_other_end_as_a_fresh_replay(
    cluster: Cluster,
) -> None:
    table_id, key = new_table(cluster.a, client_address(4))
    hands = f"/api/v1/tables/{table_id}/hands"
    for _ in range(4):
        assert call(cluster.a, "POST", hands, make_record(), **key)[0] == 201
    for round_ in range(6):
        undo_on, edit_on = (cluster.a, cluster.b) if round_ % 2 else (cluster.b, cluster.a)
        record = [make_deje_record("A"), make_deje_record("B"), make_record()][round_ % 3]
        answers = storm(
            [
                lambda s=undo_on: call(s, "DELETE", f"{hands}/last", **key),
                lambda s=edit_on, r=record: call(s, "PUT", f"{hands}/2", r, **key),
            ]
        )
        assert [status for status, _ in answers] == [200, 200], answers
        assert call(edit_on, "POST", hands, make_record(), **key)[0] == 201

    status, _, export = call(cluster.b, "GET", f"/api/v1/tables/{table_id}/export")
    assert status == 200
    fresh = rules.replay(
        {"rules": export["rules"], "mano": export["mano"], "hands": export["hands"]}
    )
    on_a, on_b = state_on(cluster.a, table_id), state_on(cluster.b, table_id)
    assert on_a == on_b
    assert on_a["finished"] == []
    assert {k: v for k, v in on_a["current"].items() if k not in ("first_hand", "mano")} == fresh
    assert len(export["hands"]) == 4
