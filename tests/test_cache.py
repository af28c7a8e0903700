"""A Redis that is down costs speed, never a page (muscore.cache.ResilientRedisCache).

Everything muscore caches can be worked out again from the database, so a cache that does
not answer is a miss: a table is still created, written to and read, the rate limits are not
counted (RATELIMIT_FAIL_OPEN), and the log says so once. With a real Redis (the PostgreSQL
run of .ci/run sets MUSCORE_TEST_REDIS_URL) the same backend caches as Django's own.
"""

from __future__ import annotations

import json
import logging
import os
import socket
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from muscore import cache as muscore_cache
from tests.tables.factory import make_record

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def resilient(settings: Settings, location: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "muscore.cache.ResilientRedisCache",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
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
    caplog.set_level(logging.WARNING, logger="muscore.cache")
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
    failures = [r for r in caplog.records if "the cache (Redis) failed" in r.getMessage()]
    # Logged once per outage, not once per request.
    assert len(failures) == 1
    assert failures[0].levelno == logging.ERROR


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
