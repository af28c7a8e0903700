"""A Redis that hangs costs one short timeout, then nothing until it answers (issue 40).

Redis is asked by the cache (muscore.cache: states, rate-limit counts) and by the live bus
(muscore.bus: what changed). Everything it holds can be done without: a miss is read from
the database, a count not kept turns a limit off, a change not published is found by the
stream servers' own check. What it must never do is make a request wait: a Redis stopped
(SIGSTOP, a frozen VM, a full network buffer) does not refuse connections, it just never
answers, and every request that asks it waits for its socket timeout.

So each process keeps one :class:`Circuit` per Redis server (the cache and the bus on the
same Redis share it):

- **closed**: Redis is asked. An operation that fails (a timeout, a refused or dropped
  connection) opens the circuit. While one has been waiting longer than ``STALL`` seconds,
  the process's other threads (a threaded server's) go without Redis rather than queue
  behind a Redis that is already late.
- **open**: Redis is not asked at all; every operation gets its fallback at once. A thread
  of the circuit's own knocks (``PING``, with the same short timeout) every ``KNOCK``
  seconds and closes the circuit when Redis answers: no request ever pays for the knock.

A hang therefore costs each process one timeout (``REDIS_TIMEOUT``, a quarter of a second by
default), for the requests that were waiting on Redis when it stopped, and nothing more
until it answers again; the log says so once each way.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from redis.exceptions import RedisError

logger = logging.getLogger("muscore.circuit")

T = TypeVar("T")

#: What a Redis that is down or hung raises (redis's ConnectionError and TimeoutError are
#: RedisErrors; a socket's own error may come through as an OSError).
FAILURES: tuple[type[BaseException], ...] = (RedisError, OSError)
#: A closed circuit's operation waiting longer than this (seconds) makes the process's
#: other threads go without Redis until it ends: they do not queue behind a late Redis.
STALL = 0.15
#: An open circuit knocks this often (seconds), from a thread of its own.
KNOCK = 1.0

_circuits: dict[str, Circuit] = {}
_registry_lock = threading.Lock()


def server(url: str) -> str:
    """The Redis server ``url`` names (scheme, host and port, or a socket's path), without
    its database or password: the cache's and the bus's URLs of one Redis give one server."""
    first = url.replace(";", ",").split(",")[0].strip()
    parts = urlsplit(first)
    if parts.scheme == "unix":
        return f"unix:{parts.path}"
    host = parts.hostname or "localhost"
    return f"{parts.scheme}://{host}:{parts.port or 6379}"


def for_redis(url: str, timeout: float) -> Circuit:
    """This process's circuit of the Redis server at ``url`` (made at its first use)."""
    key = server(url)
    with _registry_lock:
        circuit = _circuits.get(key)
        if circuit is None:
            circuit = _circuits[key] = Circuit(key, _pinger(url, timeout))
        return circuit


def _pinger(url: str, timeout: float) -> Callable[[], object]:
    def ping() -> object:
        client = client_of(url.replace(";", ",").split(",")[0].strip(), timeout)
        try:
            return client.ping()
        finally:
            client.close()
    return ping


def client_of(url: str, timeout: float) -> Any:
    """A client of the Redis at ``url`` that waits ``timeout`` seconds at most: one retry
    of a connection Redis closed (a restart: at once), none of a timeout (a hang)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)))


def _forget_after_fork() -> None:
    # A forked worker starts with no circuit: the parent's knocking thread is not its own.
    _circuits.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


class Circuit:
    """Whether this process asks one Redis server; see the module's docstring."""

    def __init__(self, name: str, knock: Callable[[], object]) -> None:
        self.name = name
        self._knock = knock
        self._lock = threading.Lock()
        self._waiting: dict[int, float] = {}  # an operation under way -> when it began
        self._next = 0
        #: When it opened (time.monotonic()), 0.0 while closed.
        self.opened_at = 0.0
        #: Times it opened, since the process began.
        self.openings = 0

    @property
    def is_open(self) -> bool:
        return self.opened_at != 0.0

    def call(self, operation: Callable[[], T], fallback: T,
             failures: tuple[type[BaseException], ...] = (Exception,)) -> T:
        """``operation()``, or ``fallback`` at once while the circuit is open or another
        operation of this process is stalled; ``fallback`` too when it fails with one of
        ``failures`` (which opens the circuit). Any other exception is the caller's."""
        now = time.monotonic()
        with self._lock:
            if self.opened_at or any(now - began > STALL for began in self._waiting.values()):
                return fallback
            ticket = self._next
            self._next += 1
            self._waiting[ticket] = now
        try:
            return operation()
        except failures as error:
            self.trip(error)
            return fallback
        finally:
            with self._lock:
                self._waiting.pop(ticket, None)

    def trip(self, error: BaseException) -> None:
        """Redis failed: it is left alone, and knocked at, until it answers."""
        with self._lock:
            if self.opened_at:
                return
            self.opened_at = time.monotonic()
            self.openings += 1
        logger.error(
            "Redis (%s) failed: %s: %s; the cache serves from the database, rate limits "
            "are not counted and live screens find changes by their own check, until it "
            "answers again (asked every %g s)", self.name, type(error).__name__, error, KNOCK)
        threading.Thread(target=self._knock_until_it_answers, daemon=True,
                         name=f"redis-circuit {self.name}").start()

    def _knock_until_it_answers(self) -> None:
        while True:
            time.sleep(KNOCK)
            try:
                self._knock()
            except Exception:  # still down, or still hung: knock again
                continue
            with self._lock:
                down = time.monotonic() - self.opened_at
                self.opened_at = 0.0
            logger.warning("Redis (%s) answers again, after %.1f s", self.name, down)
            return

    def state(self) -> dict[str, Any]:
        """For /healthz: whether it is open and since when."""
        if not self.opened_at:
            return {"open": False, "openings": self.openings}
        return {"open": True, "seconds": round(time.monotonic() - self.opened_at, 1),
                "openings": self.openings}
