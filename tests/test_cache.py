"""A Redis that is down costs speed, never a page (muscore.cache.ResilientRedisCache).

Everything muscore caches can be worked out again from the database, so a cache that does
not answer is a miss: a table is still created, written to and read, the rate limits are not
counted (RATELIMIT_FAIL_OPEN), and the log says so once. A Redis that hangs (stopped with
SIGSTOP: a Redis of the test's own) costs one short timeout, then is not asked, by the cache
or the bus, until the circuit's own thread hears it answer (muscore.circuit). With a real
Redis (the PostgreSQL run of .ci/run sets MUSCORE_TEST_REDIS_URL) the same backend caches as
Django's own.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from muscore import bus
from muscore import cache as muscore_cache
from muscore import circuit as muscore_circuit
from tests.multiserver.servers import RedisProcess
from tests.tables.factory import make_record

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def resilient(settings: Settings, location: str, timeout: float = 2) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "muscore.cache.ResilientRedisCache",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
        }
    }


@pytest.fixture
def redis_down(settings: Settings) -> Iterator[None]:
    resilient(settings, f"redis://127.0.0.1:{closed_port()}/0")
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {"create": ["1/m"], "import": ["1/m"], "write": ["1/m"],
                                    "login": ["1/m"]}
    yield


def test_with_redis_down_a_table_is_created_written_and_read_and_the_log_says_why(
    client: Client, redis_down: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="muscore.circuit")
    created = []
    # Three creations against a limit of one a minute: with no counter, the limit is off.
    for _ in range(3):
        response = client.post("/api/v1/tables", "", content_type="application/json")
        assert response.status_code == 201, response.content
        created.append(response.json())
    table = created[0]
    key = {"X-Table-Key": table["edit_key"]}
    for _ in range(2):
        response = client.post(f"/api/v1/tables/{table['id']}/hands",
                               json.dumps(make_record()), content_type="application/json",
                               headers=key)
        assert response.status_code == 201, response.content
    state = client.get(f"/api/v1/tables/{table['id']}")
    assert state.status_code == 200
    assert state.json()["revision"] >= 3, state.json().keys()
    board = client.get(f"/t/{table['id']}/")
    assert board.status_code == 200
    failures = [r for r in caplog.records if "failed: ConnectionError" in r.getMessage()]
    # Logged once per outage, not once per request.
    assert len(failures) == 1
    assert failures[0].levelno == logging.ERROR
    assert "the cache serves from the database, rate limits are not counted" in failures[
        0].getMessage()


def test_after_a_failure_redis_is_left_alone_for_a_while(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    resilient(settings, f"redis://127.0.0.1:{closed_port()}/0")
    asked: list[str] = []
    original = muscore_cache.RedisCache.get

    def counting_get(self: object, *args: object, **kwargs: object) -> object:
        asked.append("get")
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(muscore_cache.RedisCache, "get", counting_get)
    assert cache.get("a", "missing") == "missing"
    assert cache.get("b", "missing") == "missing"
    assert asked == ["get"]  # the second read did not wait for a Redis known to be down


REDIS_URL = os.environ.get("MUSCORE_TEST_REDIS_URL", "")
needs_redis_server = pytest.mark.skipif(
    shutil.which("redis-server") is None,
    reason="needs redis-server on PATH (.ci/run installs it), to stop one with SIGSTOP")


@pytest.fixture
def hung_redis(settings: Settings, tmp_path: Path) -> Iterator[RedisProcess]:
    """A Redis of the test's own, cached in, then stopped (SIGSTOP: hung, not dead)."""
    redis = RedisProcess(tmp_path / "redis")
    try:
        resilient(settings, redis.url, timeout=0.5)
        settings.REDIS_TIMEOUT = 0.5
        settings.LIVE_REDIS_URL = redis.url.replace("/0", "/1")  # same server, another db
        cache.set("kept", {"juegos": [1, 2]}, 60)
        assert cache.get("kept") == {"juegos": [1, 2]}
        redis.pause()
        yield redis
    finally:
        redis.stop()


def timed(operation: Callable[[], object]) -> tuple[object, float]:
    began = time.monotonic()
    result = operation()
    return result, time.monotonic() - began


@needs_redis_server
def test_a_hung_redis_costs_one_short_timeout_then_is_not_asked_until_it_answers(
    hung_redis: RedisProcess, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="muscore.circuit")
    first, waited = timed(lambda: cache.get("kept", "missed"))
    assert first == "missed" and 0.4 <= waited < 1.5
    # Open: a hundred more reads and writes, the bus's publish too, without a wait.
    _, rest = timed(lambda: [(cache.get("kept"), cache.set("other", 1), bus.send(["table:1"]))
                             for _ in range(100)])
    assert rest < 0.2
    hung_redis.resume()
    deadline = time.monotonic() + 5
    while cache.get("kept") is None:  # the circuit's own thread hears it answer
        assert time.monotonic() < deadline, "the circuit did not close once Redis answered"
        time.sleep(0.1)
    assert cache.get("kept") == {"juegos": [1, 2]}  # nothing was lost: it was only asleep
    said = [r.getMessage() for r in caplog.records if r.name == "muscore.circuit"]
    assert len(said) == 2, said  # once each way
    assert "failed: TimeoutError" in said[0] and "answers again" in said[1]


@needs_redis_server
def test_the_bus_on_a_hung_redis_costs_a_save_one_timeout_shared_with_the_cache(
    hung_redis: RedisProcess,
) -> None:
    # The bus's URL names another database of the same server: one circuit for both.
    _, waited = timed(lambda: bus.send(["table:1"]))
    assert 0.4 <= waited < 1.5
    first, no_wait = timed(lambda: cache.get("kept", "missed"))
    assert first == "missed" and no_wait < 0.05


@needs_redis_server
def test_while_one_thread_waits_on_a_late_redis_the_others_go_on_without_it(
    hung_redis: RedisProcess,
) -> None:
    waiting = threading.Thread(target=cache.get, args=("kept",))
    waiting.start()
    time.sleep(muscore_circuit.STALL + 0.05)
    # The first thread is still waiting for its timeout: this one does not queue behind it.
    found, waited = timed(lambda: cache.get("kept", "missed"))
    assert found == "missed" and waited < 0.05
    waiting.join()


def test_the_cache_and_the_bus_of_one_redis_server_share_its_circuit() -> None:
    server = muscore_circuit.server
    assert server("redis://127.0.0.1:6379/0") == server("redis://:secret@127.0.0.1/15")
    assert server("redis://a:6379/0,redis://b:6379/0") == "redis://a:6379"
    assert server("redis://a:6380/0") != server("redis://a:6379/0")
    assert server("unix:///run/redis.sock?db=2") == "unix:/run/redis.sock"


@pytest.mark.skipif(not REDIS_URL, reason="needs MUSCORE_TEST_REDIS_URL (a real Redis)")
def test_with_a_real_redis_it_caches_and_counts_like_djangos_own(settings: Settings) -> None:
    resilient(settings, REDIS_URL)
    cache.set("muscore-test-key", {"juegos": [1, 2]}, 30)
    assert cache.get("muscore-test-key") == {"juegos": [1, 2]}
    assert cache.add("muscore-test-count", 1, 30) in (True, False)
    cache.set("muscore-test-count", 1, 30)
    assert cache.incr("muscore-test-count") == 2
    cache.delete_many(["muscore-test-key", "muscore-test-count"])
    assert cache.get("muscore-test-key") is None
