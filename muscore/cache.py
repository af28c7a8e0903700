"""Django's Redis cache, made to fail open: a Redis that is down costs speed, never a page.

Everything muscore keeps in the cache can be worked out again from the database: replayed
table states and standings (keyed by revision, so nothing stale can come back), a league's
document, and the rate-limit counters. So when Redis does not answer, a read is a miss and
a write is skipped. A Redis that fails or hangs opens this process's circuit of that server
(muscore.circuit, shared with the live bus): it costs one short timeout (REDIS_TIMEOUT),
then Redis is not asked at all until a thread of the circuit's own hears it answer again;
the log says so once each way. The rate limits are then not counted
(settings.RATELIMIT_FAIL_OPEN): a club's evening goes on, and the log says why the limits
are off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

from muscore import circuit

T = TypeVar("T")


class ResilientRedisCache(RedisCache):
    """RedisCache whose every operation falls back to "not cached" when Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        options = params.get("OPTIONS") or {}
        self.circuit = circuit.for_redis(
            server, float(options.get("socket_timeout") or options.get(
                "socket_connect_timeout") or 1.0))

    def _guard(self, operation: Callable[[], T], fallback: T) -> T:
        return self.circuit.call(operation, fallback, circuit.FAILURES)

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
