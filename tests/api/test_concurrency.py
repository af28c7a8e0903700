"""Several phones at once against a real server (issue #4 point 3).

Each test fires requests from many threads through a barrier, so they reach
the live server together; the live server answers each on its own thread and
database connection, as gunicorn would. Run on SQLite and PostgreSQL by CI.
"""

from __future__ import annotations

import http.client as http_client
import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from muscore import rules
from muscore.tables.models import Hand, Table
from tests.tables.factory import SEED_CARDS, make_bad_record, make_deje_record, make_record

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def http_retrying(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None):
    """A phone that resends when the connection drops, which is safe only with an idempotency
    key or a client id. The test server's listen queue is short (10), so a storm of 20 at once
    gets some connections reset: exactly the dropped signal the keys exist for."""
    safe = "Idempotency-Key" in (headers or {}) or "client_id" in (body or {})
    for attempt in range(8):
        try:
            return http(method, url, body, headers)
        except (ConnectionError, urllib.error.URLError, http_client.RemoteDisconnected):
            if not safe or attempt == 7:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def storm(calls: list[tuple]) -> list[tuple[int, Any]]:
    """Run every (method, url, body, headers) at the same moment; the answers in order."""
    barrier = threading.Barrier(len(calls))

    def one(call: tuple) -> tuple[int, Any]:
        barrier.wait()
        return http_retrying(*call)

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(one, calls))


def new_table(live_server, **body: Any) -> tuple[str, dict[str, str]]:
    status, table = http("POST", f"{live_server.url}/api/v1/tables", body)
    assert status == 201
    return f"{live_server.url}/api/v1/tables/{table['id']}", {"X-Table-Key": table["edit_key"]}


def assert_state_is_the_replay_of_the_stored_hands(url: str) -> dict[str, Any]:
    status, state = http("GET", f"{url}?finished=full")
    assert status == 200
    table = Table.objects.get(pk=state["id"])
    records = list(
        Hand.objects.filter(table=table).order_by("number").values_list("record", flat=True)
    )
    hands = [h for vaca in [*state["finished"], state["current"]] for h in vaca["hands"]]
    assert len(hands) == len(records)
    if not state["finished"]:
        vaca = {"rules": state["rules"], "mano": table.first_mano, "hands": records}
        expected = rules.replay(vaca)
        assert {k: v for k, v in state["current"].items() if k not in ("first_hand", "mano")} == (
            expected
        )
    return state


def test_twenty_identical_submissions_store_exactly_one_hand(live_server):
    url, key = new_table(live_server)
    headers = {**key, "Idempotency-Key": "double-tap-1"}
    answers = storm([("POST", f"{url}/hands", make_record(), headers)] * 20)
    assert [status for status, _ in answers] == [201] * 20
    # Every retry answers as the first did: the same state, the same revision.
    assert all(body == answers[0][1] for _, body in answers)
    assert Hand.objects.count() == 1
    assert_state_is_the_replay_of_the_stored_hands(url)


def test_twenty_identical_submissions_with_one_client_id_store_one_hand(live_server):
    url, key = new_table(live_server)
    body = {**make_record(), "client_id": "form-uuid-1"}
    answers = storm([("POST", f"{url}/hands", body, key)] * 20)
    assert [status for status, _ in answers] == [201] * 20
    assert Hand.objects.count() == 1


def test_two_phones_saving_the_same_hand_number_one_stored_one_conflict(live_server):
    # Several rounds, so that a lucky ordering cannot hide a race.
    url, key = new_table(live_server)
    for number in range(1, 6):
        answers = storm(
            [
                ("POST", f"{url}/hands", {**make_record(), "number": number}, key),
                ("POST", f"{url}/hands", {**make_deje_record("B"), "number": number}, key),
            ]
        )
        statuses = sorted(status for status, _ in answers)
        assert statuses == [201, 409], answers
        winner = next(body for status, body in answers if status == 201)
        conflict = next(body for status, body in answers if status == 409)
        stored = Hand.objects.get(number=number).record
        assert conflict["hand"]["record"] == stored
        assert winner["revision"] >= 2
    assert Hand.objects.count() == 5
    assert_state_is_the_replay_of_the_stored_hands(url)


def test_two_edits_from_the_same_revision_one_applied_one_refused(live_server):
    url, key = new_table(live_server)
    status, state = http("POST", f"{url}/hands", make_record(), key)
    assert status == 201
    base = state["revision"]
    answers = storm(
        [
            ("PUT", f"{url}/hands/1", {**make_deje_record("A"), "revision": base}, key),
            ("PUT", f"{url}/hands/1", {**make_deje_record("B"), "revision": base}, key),
        ]
    )
    assert sorted(status for status, _ in answers) == [200, 409]
    applied = next(i for i, (status, _) in enumerate(answers) if status == 200)
    assert (
        Hand.objects.get(number=1).record == [make_deje_record("A"), make_deje_record("B")][applied]
    )
    refused = next(body for status, body in answers if status == 409)
    assert "changed since" in refused["error"]


def test_two_undos_from_the_same_revision_undo_one_hand(live_server):
    url, key = new_table(live_server)
    for _ in range(3):
        status, state = http("POST", f"{url}/hands", make_record(), key)
    headers = {**key, "If-Match": f'"r{state["revision"]}"'}
    answers = storm([("DELETE", f"{url}/hands/last", None, headers)] * 2)
    assert sorted(status for status, _ in answers) == [200, 409]
    assert Hand.objects.count() == 2


def test_after_a_storm_of_phones_the_table_is_the_replay_of_the_hands_answered_201(live_server):
    url, key = new_table(live_server)
    variants = [
        make_record(),
        make_deje_record("A"),
        make_deje_record("B"),
        {"hands": {**SEED_CARDS, "0": "1 1 1 1"}},  # five ases at the table: refused
        make_bad_record(),
    ]
    calls = []
    for i in range(24):
        body = variants[i % len(variants)]
        headers = {**key, "Idempotency-Key": f"phone-{i % 8}-tap-{i // 8}"}
        calls.append(("POST", f"{url}/hands", body, headers))
    answers = storm(calls)
    assert all(status in (201, 400) for status, _ in answers), answers
    accepted = [(body, calls[i][2]) for i, (status, body) in enumerate(answers) if status == 201]
    assert {calls[i][2]["hands"]["0"] for i, (s, _) in enumerate(answers) if s == 400} == {
        "1 1 1 1",
        "R R R R R",
    }
    # Each accepted hand was stored once, in the order of the revisions the answers carry.
    accepted.sort(key=lambda pair: pair[0]["revision"])
    assert len({body["revision"] for body, _ in accepted}) == len(accepted)
    stored = list(Hand.objects.order_by("number").values_list("record", flat=True))
    assert stored == [record for _, record in accepted]
    state = assert_state_is_the_replay_of_the_stored_hands(url)
    assert state["revision"] == accepted[-1][0]["revision"]
