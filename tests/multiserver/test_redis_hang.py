"""A Redis that hangs (stopped with SIGSTOP, not dead) under a club's load (issue 40).

Two gunicorn servers and a stream server on the cluster's PostgreSQL and on a Redis of
this test's own; tables whose phones poll their boards and save hands, and a phone on a
stream. Redis is stopped for HANG seconds in the middle. Before muscore.circuit a hang
cost every save the cache's 2 s and the bus's twice 2 s (p95 10.4 s in the issue's
probe); now each process pays one REDIS_TIMEOUT (0.25 s) for what was waiting on Redis
when it stopped, then goes without it until a thread of its own hears it answer again.
The limit: the p95 of the requests in flight while Redis hangs is within 500 ms of the
p95 before it (on a quiet machine, under 500 ms), and a save made meanwhile reaches a
streaming phone by its server's check. The figures are printed beside the limits (-s)."""

from __future__ import annotations

import itertools
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.live.sse import Stream
from tests.multiserver.conftest import Cluster
from tests.multiserver.servers import RedisProcess, Server, Uvicorn, http, running
from tests.multiserver.test_two_servers import call, new_table
from tests.tables.factory import make_record

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver")]

TABLES = 8
PHONES = 3  # per table, each polling its board every POLL seconds
POLL = 1.0
SAVE_EVERY = 2.0  # each table saves a hand this often
WARM, BEFORE, HANG, AFTER = 1.0, 4.0, 8.0, 4.0  # the first second's boards: not counted
P95_LIMIT = 0.5
HEARD_LIMIT = 3.0  # a save during the hang reaches a streaming phone by the check


@dataclass
class Timings:
    """(when it started, how long it took, status) of every request."""

    rows: list[tuple[float, float, int, str]] = field(default_factory=list)
    warm: float = 0.0  # requests begun before this are the phones' first boards
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, began: float, took: float, status: int, kind: str) -> None:
        with self.lock:
            self.rows.append((began, took, status, kind))

    def within(self, start: float, end: float, kind: str = "") -> list[float]:
        """The times of the requests in flight at some moment of [start, end)."""
        return sorted(took for began, took, _, k in self.rows
                      if began < end and began + took >= start and (not kind or k == kind))

    def done_before(self, moment: float, kind: str = "") -> list[float]:
        return sorted(took for began, took, _, k in self.rows
                      if self.warm <= began and began + took < moment
                      and (not kind or k == kind))

    def after(self, moment: float, kind: str = "") -> list[float]:
        return sorted(took for began, took, _, k in self.rows
                      if began >= moment and (not kind or k == kind))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else max(values, default=0)


def phone(server: Server, table_id: str, timings: Timings, stop: threading.Event) -> None:
    etag = ""
    while not stop.is_set():
        began = time.monotonic()
        headers = {"HX-Request": "true", **({"If-None-Match": etag} if etag else {})}
        status, answer, _ = http("GET", f"{server.url}/t/{table_id}/?live=1", headers=headers,
                                 timeout=30)
        timings.add(began, time.monotonic() - began, status, "poll")
        etag = answer.get("ETag", etag)
        stop.wait(max(0.0, POLL - (time.monotonic() - began)))


def saver(servers: list[Server], table_id: str, key: dict[str, str], timings: Timings,
          stop: threading.Event, offset: float) -> None:
    stop.wait(offset)
    for n in itertools.count(1):
        if stop.is_set():
            return
        began = time.monotonic()
        status, _, _ = call(servers[n % 2], "POST", f"/api/v1/tables/{table_id}/hands",
                            {**make_record(), "client_id": f"hang-{table_id}-{n}"}, **key)
        timings.add(began, time.monotonic() - began, status, "save")
        stop.wait(max(0.0, SAVE_EVERY - (time.monotonic() - began)))


def heard_after_save(stream: Stream, server: Server, table_id: str,
                     key: dict[str, str]) -> float:
    """Seconds from a save's answer to its event on ``stream``."""
    status, _, saved = call(server, "POST", f"/api/v1/tables/{table_id}/piedras",
                            {"side": "A", "n": 1, "client_id": f"heard-{time.time()}"}, **key)
    assert status == 201, saved
    answered = time.monotonic()
    revision = f'data-revision="{saved["revision"]}"'
    while (event := stream.until("change", timeout=10)) is not None:
        if revision in event.json()["html"]:
            return time.monotonic() - answered
    return float("inf")


def test_a_hung_redis_costs_a_save_one_short_timeout_and_the_site_goes_on_without_it(
    cluster: Cluster, tmp_path: Path,
) -> None:
    redis = RedisProcess(tmp_path / "redis")
    env = {**cluster.env, "CACHE_URL": redis.url, "MUSCORE_LIVE_STREAM": "/events/"}
    a, b, streams = Server(env, tmp_path), Server(env, tmp_path), Uvicorn(env, tmp_path)
    timings, stop = Timings(), threading.Event()
    try:
        with running(a, b, streams):
            tables = [new_table([a, b][n % 2], f"198.51.100.{n + 100}") for n in range(TABLES)]
            threads = [threading.Thread(target=phone, args=([a, b][p % 2], t, timings, stop))
                       for t, _ in tables for p in range(PHONES)]
            threads += [threading.Thread(target=saver, args=([a, b], t, k, timings, stop,
                                                             n * SAVE_EVERY / TABLES))
                        for n, (t, k) in enumerate(tables)]
            watched, watched_key = new_table(a, "198.51.100.99")
            stream = Stream(streams.url, f"/t/{watched}/?live=1")
            assert stream.until("change") is not None
            for thread in threads:
                thread.start()
            timings.warm = time.monotonic() + WARM
            time.sleep(BEFORE)
            heard_before = heard_after_save(stream, b, watched, watched_key)
            hung = time.monotonic()
            redis.pause()
            time.sleep(HANG / 2)
            heard_hung = heard_after_save(stream, b, watched, watched_key)
            time.sleep(max(0.0, hung + HANG - time.monotonic()))
            redis.resume()
            back = time.monotonic()
            time.sleep(AFTER)
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            stream.close()
            # Once it answers, the cache is asked again: the boards' states are back in it.
            status, _, _ = http("GET", f"{a.url}/t/{tables[0][0]}/")
            assert status == 200
    finally:
        stop.set()
        redis.stop()

    before, during = timings.done_before(hung), timings.within(hung, back)
    saves = timings.within(hung, back, "save")
    errors = [row for row in timings.rows if row[2] not in (200, 201, 304)]
    logs = a.stderr() + b.stderr() + streams.stderr()
    processes = a.workers + b.workers + 1
    paid = logs.count("failed: TimeoutError")
    cost = p95(during) - p95(before)
    print(f"\nRedis hung for {HANG:g} s under {TABLES} tables x {PHONES} phones polling every "
          f"{POLL:g} s, a save per table every {SAVE_EVERY:g} s:")
    for kind in ("poll", "save", ""):
        for name, took in (("before", timings.done_before(hung, kind)),
                           ("hung", timings.within(hung, back, kind)),
                           ("after", timings.after(back, kind))):
            print(f"  {kind or 'all':>4} {name:>6}: {len(took):4} requests, p50 "
                  f"{statistics.median(took) * 1000:6.0f} ms, p95 {p95(took) * 1000:6.0f} ms, "
                  f"max {max(took) * 1000:6.0f} ms")
    print(f"  p95 while hung {p95(during) * 1000:.0f} ms, {cost * 1000:.0f} ms over the p95 "
          f"before it (limit {P95_LIMIT * 1000:.0f} ms); slowest save while hung "
          f"{max(saves) * 1000:.0f} ms")
    print(f"  Redis timeouts paid: {paid} (limit: one per process, {processes})")
    print(f"  a save heard by a streaming phone: {heard_before * 1000:.0f} ms before, "
          f"{heard_hung * 1000:.0f} ms while hung (limit {HEARD_LIMIT * 1000:.0f})")
    print(f"  errors: {len(errors)}")
    assert not errors, errors[:5]
    assert 1 <= paid <= processes
    assert cost < P95_LIMIT
    assert heard_hung < HEARD_LIMIT + heard_before
    # Every process that gave Redis up knocked until it answered, and said so.
    assert logs.count("answers again, after") == paid
