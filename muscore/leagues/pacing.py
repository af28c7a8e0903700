"""The workers' short transactions, each followed by a pause that lets the site's writes in.

SQLite has one write lock. A worker that commits and at once begins its next transaction
takes the lock again before a waiting request's busy handler looks (it sleeps 1, 2, 5, ...
up to 100 ms between tries): the request then waits through many of the worker's short
transactions. `probe_requests.py` measured 434 ms behind the document worker's 1 MB
pieces and 636 ms behind the rating worker's transactions of under 140 ms each. So on
SQLite each transaction is followed by a pause about as long as a fraction of the lock
it held. PostgreSQL locks rows and queues whoever waits: no pause there.

It also holds the worker's stop: `manage.py rating_worker` asks it on SIGTERM, and a long
piece of work (an import's batches, a re-rating's transactions, a competition's documents)
looks between two of its transactions and hands the rest back (`Stopped`): what is written
stays, the backlog keeps the rest, and the next worker carries it on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from django.db import connection, transaction

# The pause after a transaction, as a share of how long it held the lock, and its bounds.
# Half as long and at least 5 ms, a writer still waited 481 ms behind the rating worker's
# catch-up at load 10 (issue 28): a waiter that slept through one pause (its busy handler
# sleeps 10-25 ms between tries by then, more when the machine is busy) waited through
# the next transaction too. As long as the transaction, and at least 20 ms.
SHARE = 1.0
MIN_PAUSE = 0.02
MAX_PAUSE = 0.1
# A worker's transaction longer than this is logged (the limit of issue 28 for any lock):
# where a writer waited, the worker's log says which of its transactions held it.
LOG_OVER = 0.2

logger = logging.getLogger("muscore.pacing")
T = TypeVar("T")


class Hold:
    """How long a short transaction held the lock (seconds), known once it committed."""

    seconds = 0.0


@contextmanager
def short_transaction(what: str = "") -> Iterator[Hold]:
    """One of a worker's transactions, then (SQLite) the pause that lets others write;
    `what` names it in the log when it held longer than LOG_OVER.

    Timed from its BEGIN's return (SQLite: BEGIN IMMEDIATE, the write lock taken) to its
    COMMIT's: the lock it held. Timed from before the BEGIN, a worker that waited behind a
    request's write counted the wait as its own hold, logged it and shrank its next one."""
    hold = Hold()
    with transaction.atomic():
        began = time.monotonic()
        yield hold
    hold.seconds = time.monotonic() - began
    pause(hold.seconds, what)


class Budget:
    """The lock a transaction may hold for a run of items of one kind (an import's pairs
    or matches, each written by the services that write one): another item while the
    slowest so far would still end within it, and one at least. Stopping only once past
    it, a transaction held the budget and then one slow item more (a vaca replayed at
    load 8: 80 ms became 280)."""

    def __init__(self, seconds: float) -> None:
        self._last = time.monotonic()
        self._until = self._last + seconds
        self._slowest = 0.0

    def spent(self) -> bool:
        """After an item: whether the next one would pass the budget."""
        now = time.monotonic()
        self._slowest = max(self._slowest, now - self._last)
        self._last = now
        return now + self._slowest >= self._until


def in_chunks(items: Sequence[T], write: Callable[[Sequence[T]], None], what: str, *,
              first: int, most: int, target: float) -> int:
    """Write `items` in short transactions, `write(chunk)` in each, and return how many
    there were. The first holds `first` items; each next one is sized from how long the
    last held the lock, aiming at `target` seconds (at least one item, at most `most`, at
    most twice the last): a loaded machine or a slower database gets smaller ones, so no
    other write waits much past `target`. Between two, a worker asked to stop hands the
    rest back (Stopped): what `write` does must be whole in each transaction."""
    start, size, count = 0, max(1, first), 0
    while start < len(items):
        hand_back_if_stopping()
        chunk = items[start:start + size]
        with short_transaction(what) as hold:
            write(chunk)
        count += 1
        start += len(chunk)
        size = max(1, min(most, 2 * len(chunk),
                          int(len(chunk) * target / max(hold.seconds, 1e-3))))
    return count


def pause(held: float, what: str = "") -> None:
    """After a worker's write that held the lock `held` seconds: on SQLite, a pause."""
    if connection.in_atomic_block:
        return  # a request's write (or a test's transaction): never slowed
    if held > LOG_OVER:
        logger.warning("a worker's transaction (%s) took %.0f ms, past the %.0f ms of a lock",
                       what or "unnamed", held * 1000, LOG_OVER * 1000)
    else:
        # Every one (DEBUG): where a writer waited, or how a catch-up was cut.
        logger.debug("a worker's transaction (%s) took %.1f ms", what or "unnamed",
                     held * 1000)
    if connection.vendor == "sqlite":
        time.sleep(min(MAX_PAUSE, max(MIN_PAUSE, held * SHARE)))


# --- stopping ------------------------------------------------------------------------------

# A plain flag, set by the worker's signal handler (which must take no lock: it runs in the
# main thread between two of its bytecodes, wherever that thread is) and read between two
# transactions.
_stop_asked = False


class Stopped(Exception):
    """The worker was asked to stop: the rest of this work is handed back to the backlog."""


def ask_to_stop() -> None:
    """Ask the work in flight to hand the rest back at its next transaction's end."""
    global _stop_asked
    _stop_asked = True


def stopping() -> bool:
    return _stop_asked


def carry_on() -> None:
    """Forget a stop asked (a new worker in the same process: the tests)."""
    global _stop_asked
    _stop_asked = False


def hand_back_if_stopping() -> None:
    """Between two transactions of a long piece of work: raise Stopped if asked to stop."""
    if _stop_asked:
        raise Stopped
