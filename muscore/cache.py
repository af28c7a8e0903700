"""Django's Redis cache, made to fail open: a Redis that is down costs speed, never a page.

Everything muscore keeps in the cache can be worked out again from the database: replayed
table states and standings (keyed by revision, so nothing stale can come back), a league's
document, and the rate-limit counters. So when Redis does not answer, a read is a miss and
a write is skipped, the failure is logged once per outage, and for a few seconds after a
failure Redis is not asked at all, so that a Redis that hangs does not add its timeout to
every request. The rate limits are then not counted (settings.RATELIMIT_FAIL_OPEN): a club's
evening goes on, and the log says why the limits are off.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger("muscore.cache")

T = TypeVar("T")

# After a failure, Redis is left alone this long (seconds) before it is tried again.
RETRY_AFTER = 5.0


class ResilientRedisCache(RedisCache):
    """RedisCache whose every operation falls back to "not cached" when Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._down_until = 0.0
        self._down = False
        self._lock = threading.Lock()

    def _guard(self, operation: Callable[[], T], fallback: T) -> T:
        if self._down_until and time.monotonic() < self._down_until:
            return fallback
        try:
            result = operation()
        except Exception as exc:  # redis's ConnectionError, TimeoutError, ResponseError...
            with self._lock:
                self._down_until = time.monotonic() + RETRY_AFTER
                if not self._down:
                    self._down = True
                    logger.error(
                        "the cache (Redis) failed: %s: %s; serving from the database, "
                        "rate limits not counted, until it answers again",
                        type(exc).__name__, exc)
            return fallback
        if self._down:
            with self._lock:
                if self._down:
                    self._down = False
                    self._down_until = 0.0
                    logger.warning("the cache (Redis) answers again")
        return result

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        return self._guard(lambda: super(ResilientRedisCache, self).add(
            key, value, timeout, version), False)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guard(lambda: super(ResilientRedisCache, self).get(
            key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        self._guard(lambda: super(ResilientRedisCache, self).set(
            key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT,
              version: int | None = None) -> bool:
        return self._guard(lambda: super(ResilientRedisCache, self).touch(
            key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guard(lambda: super(ResilientRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._guard(lambda: super(ResilientRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guard(lambda: super(ResilientRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # django-ratelimit reads a ValueError from incr as "the count failed" (then fails
        # open, settings.RATELIMIT_FAIL_OPEN); Django's own contract for a missing key too.
        missing = object()
        value = self._guard(lambda: super(ResilientRedisCache, self).incr(
            key, delta, version), missing)
        if value is missing:
            raise ValueError("the cache did not answer")
        return value  # type: ignore[return-value]

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[Any]:
        return self._guard(lambda: super(ResilientRedisCache, self).set_many(
            data, timeout, version), list(data))

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._guard(lambda: super(ResilientRedisCache, self).delete_many(keys, version), None)

    def clear(self) -> None:
        self._guard(lambda: super(ResilientRedisCache, self).clear(), None)
