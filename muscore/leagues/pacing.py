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

And, on SQLite, the worker's priority while it holds the lock (`own_priority`): on a busy
machine a transaction holds the lock as long as the worker is kept off the cores inside it
(15-25 times its CPU at load 10-16 on 2 cores, issue 40 point 7), so the worker's thread
runs at a lower niceness from its BEGIN to its COMMIT, and at its own the rest of the time.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from django.db import DatabaseError, connection, transaction

# The pause after a transaction, as a share of how long it held the lock, and its bounds.
# Half as long and at least 5 ms, a writer still waited 481 ms behind the rating worker's
# catch-up at load 10 (issue 28): a waiter that slept through one pause (its busy handler
# sleeps 10-25 ms between tries by then, more when the machine is busy) waited through
# the next transaction too. As long as the transaction, and at least 20 ms.
SHARE = 1.0
MIN_PAUSE = 0.02
MAX_PAUSE = 0.1


def pause_scale() -> float:
    """MUSCORE_WORKER_PAUSE_SCALE: the pause, bounds included, times this (default 1), for
    a worker no request waits behind: a restore, or the tests' workers (tests/ops), which
    check what the workers do, not how long a request waits, and slept about as long as
    they worked. 0 leaves no pause. A bad value stops the worker at its start (read by
    `own_pauses`, in the worker alone: a web server's import never reads it)."""
    value = os.environ.get("MUSCORE_WORKER_PAUSE_SCALE", "1")
    try:
        scale = float(value)
    except ValueError:
        scale = -1.0
    if not 0 <= scale <= 1:
        raise ValueError("MUSCORE_WORKER_PAUSE_SCALE must be a number from 0 to 1, "
                         f"not {value!r}")
    return scale


# The pause's scale: 1 but in a worker started with MUSCORE_WORKER_PAUSE_SCALE (own_pauses).
PAUSE_SCALE = 1.0


def own_pauses() -> None:
    """This process is a worker: its pauses times MUSCORE_WORKER_PAUSE_SCALE (ValueError,
    the worker stopped at its start, for a value that is no share)."""
    global PAUSE_SCALE
    PAUSE_SCALE = pause_scale()
# A worker's transaction longer than this is logged (the limit of issue 28 for any lock):
# where a writer waited, the worker's log says which of its transactions held it.
LOG_OVER = 0.2

# The worker's checkpoints (SQLite's WAL copied into the database). A COMMIT that takes the
# WAL past `wal_autocheckpoint`'s 1,000 pages runs the checkpoint in the same call, after
# the write lock is released: timed with its transaction, it counted as the lock held (one
# transaction timed at 246 ms kept no writer waiting past 79 ms: issue 40), was logged so
# and shrank the next transaction. The worker (`own_checkpoints`) turns the automatic one
# off on its connection and runs a passive one itself in the pause after a transaction, at
# most every CHECKPOINT_SECONDS of transactions, timed apart (`Checkpoints`).
CHECKPOINT_SECONDS = 1.0

# The worker thread's niceness while it holds SQLite's write lock (MUSCORE_WORKER_LOCK_NICE;
# "off" keeps its own throughout). -10, as a whole worker at Nice=-10 that held no
# transaction past 200 ms at load 10 (longest 108 ms against 1,018: docs/benchmarks.md);
# only inside its transactions, so its replay and documents still queue with the requests.
LOCK_NICE = -10
LOCK_NICE_SETTING = "MUSCORE_WORKER_LOCK_NICE"

logger = logging.getLogger("muscore.pacing")
T = TypeVar("T")


class Checkpoints:
    """The worker's own checkpoints so far: how many, the pages they copied, the seconds
    they took (in all, and the longest)."""

    def __init__(self) -> None:
        self.count = 0
        self.pages = 0
        self.seconds = 0.0
        self.longest = 0.0
        self.last = 0.0  # time.monotonic() of the last one
        self.connection: object | None = None  # whose automatic checkpoint is off
        self.on = True  # False once the worker ended (`automatic_checkpoints`)


# None: the automatic checkpoint, in COMMIT (a request's process, the tests).
checkpoints: Checkpoints | None = None


def own_checkpoints() -> None:
    """This process's workers checkpoint SQLite's WAL in their pauses, not in COMMIT."""
    global checkpoints
    checkpoints = Checkpoints()


def automatic_checkpoints() -> None:
    """The worker's end: its connection back to SQLite's automatic checkpoint (a process
    that goes on after it: the tests' call_command). Its figures stay readable."""
    if checkpoints is None or not checkpoints.on:
        return
    checkpoints.on = False
    if connection.vendor == "sqlite" and connection.connection is not None \
            and connection.connection is checkpoints.connection:
        with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint=1000")  # SQLite's default
    checkpoints.connection = None


def _automatic_checkpoint_off() -> None:
    """Before a worker's transaction: its connection's automatic checkpoint off (once a
    connection: a new one after a database error starts with it on)."""
    if (checkpoints is None or not checkpoints.on or connection.vendor != "sqlite"
            or connection.in_atomic_block):
        return
    connection.ensure_connection()
    if checkpoints.connection is not connection.connection:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        checkpoints.connection = connection.connection
        checkpoints.last = time.monotonic()


def checkpoint() -> float:
    """After a worker's transaction (SQLite, its automatic checkpoint off): copy the WAL
    into the database when CHECKPOINT_SECONDS passed since the last copy; returns the
    seconds it took (0: none due). Passive: it takes no write lock and waits for no
    reader; what a reader still uses is copied next time."""
    if (checkpoints is None or not checkpoints.on
            or checkpoints.connection is not connection.connection):
        return 0.0
    started = time.monotonic()
    if started - checkpoints.last < CHECKPOINT_SECONDS:
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        _busy, _log, copied = cursor.fetchone()
    took = time.monotonic() - started
    checkpoints.last = time.monotonic()
    checkpoints.count += 1
    checkpoints.pages += max(0, copied)
    checkpoints.seconds += took
    checkpoints.longest = max(checkpoints.longest, took)
    logger.debug("a worker's checkpoint copied %s pages in %.1f ms (no write lock held)",
                 copied, took * 1000)
    return took


# --- the worker's priority while it holds the lock --------------------------------------


class Priority:
    """The niceness a worker's thread takes while it holds SQLite's write lock, and whether
    it may: `on` turns False, said once in the log, when the system refuses it (EPERM or
    EACCES: no CAP_SYS_NICE and an RLIMIT_NICE below it, systemd's `LimitNICE=`), so the
    worker goes on at its own niceness without asking at every transaction."""

    def __init__(self, nice: int) -> None:
        self.nice = nice
        self.on = True
        self.raised = 0  # transactions run at `nice`


# None: never raised (a request's process, the tests, PostgreSQL's workers alike until
# `own_priority`).
priority: Priority | None = None


def lock_nice() -> int | None:
    """The niceness MUSCORE_WORKER_LOCK_NICE asks for (default LOCK_NICE), None when "off".
    A bad value stops the worker at its start rather than being ignored."""
    value = os.environ.get("MUSCORE_WORKER_LOCK_NICE", str(LOCK_NICE)).strip().lower()
    if value in {"off", "false", "no", ""}:
        return None
    try:
        nice = int(value)
    except ValueError:
        nice = None
    if nice is None or not -20 <= nice <= 19:
        raise ValueError(f"{LOCK_NICE_SETTING} must be a niceness from -20 to 19 or 'off', "
                         f"not {value!r}")
    return nice


def own_priority() -> None:
    """This process is a worker: its transactions on SQLite run at MUSCORE_WORKER_LOCK_NICE.

    SQLite only: its lock is taken and held by the worker's own thread (the library runs in
    the process), so that thread's share of the cores is the lock's length. PostgreSQL's
    transactions are run by a server process whose niceness this cannot change, and they
    hold rows, not the database: raising the worker there would only put its Python before
    the requests'. Linux only: there a niceness is a thread's, so the heartbeat's thread
    keeps its own; elsewhere setpriority would change the whole process."""
    global priority
    nice = lock_nice()
    priority = Priority(nice) if nice is not None else None
    if priority is not None and not sys.platform.startswith("linux"):
        logger.warning("the worker's priority while it holds SQLite's lock is Linux's "
                       "alone: it runs at its own niceness (%s)", sys.platform)
        priority.on = False


def common_priority() -> None:
    """The worker's end (a process that goes on: the tests' call_command): no more raised
    transactions. Its figures stay readable."""
    if priority is not None:
        priority.on = False


@contextmanager
def _lock_priority() -> Iterator[Callable[[], None]]:
    """Around a worker's outermost transaction on SQLite: gives the call that lowers its
    thread's niceness to `priority.nice`, made once the BEGIN IMMEDIATE returned (the lock
    taken: raised before it, the worker would also win the race for the lock against the
    requests its pause lets in), and its own niceness back on leaving, after the COMMIT or
    ROLLBACK that releases the lock. Refused (no CAP_SYS_NICE, RLIMIT_NICE too low), the
    worker goes on exactly as before, and says so once."""
    lowered: list[int] = []  # its own niceness, once lowered
    thread = threading.get_native_id()

    def lower() -> None:
        if priority is None or not priority.on:
            return
        own = os.getpriority(os.PRIO_PROCESS, thread)
        if own <= priority.nice:  # already as high (a unit's Nice=): nothing to do
            return
        try:
            os.setpriority(os.PRIO_PROCESS, thread, priority.nice)
        except OSError as error:
            priority.on = False
            logger.warning("the worker may not lower its niceness to %d while it holds "
                           "SQLite's lock (%s): it goes on at %d. Allow it with systemd's "
                           "LimitNICE=%d (or CAP_SYS_NICE), or set %s=off to keep this "
                           "quiet", priority.nice, error.strerror or error, own,
                           priority.nice, LOCK_NICE_SETTING)
            return
        lowered.append(own)
        priority.raised += 1

    if (priority is None or not priority.on or connection.vendor != "sqlite"
            or connection.in_atomic_block):
        yield lambda: None  # a request's process, PostgreSQL, a transaction inside another
        return
    try:
        yield lower
    finally:
        if lowered:  # a higher niceness is always allowed: its own again, whatever happened
            os.setpriority(os.PRIO_PROCESS, thread, lowered[0])


class Hold:
    """How long a short transaction held the lock (seconds), known once it committed."""

    seconds = 0.0


@contextmanager
def short_transaction(what: str = "") -> Iterator[Hold]:
    """One of a worker's transactions, then (SQLite) the pause that lets others write;
    `what` names it in the log when it held longer than LOG_OVER.

    Timed from its BEGIN's return (SQLite: BEGIN IMMEDIATE, the write lock taken) to its
    COMMIT's: the lock it held. Timed from before the BEGIN, a worker that waited behind a
    request's write counted the wait as its own hold, logged it and shrank its next one.
    In a worker on SQLite (`own_priority`) it runs at the lock's niceness from its BEGIN's
    return to its COMMIT's; the pause after it at the worker's own."""
    hold = Hold()
    _automatic_checkpoint_off()
    with _lock_priority() as lower, transaction.atomic():
        lower()  # the lock taken (BEGIN IMMEDIATE): from here to the COMMIT, before others
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
        # The checkpoint, if one is due, is part of the pause: others write meanwhile.
        wait = min(MAX_PAUSE, max(MIN_PAUSE, held * SHARE)) * PAUSE_SCALE - checkpoint()
        if wait > 0:
            time.sleep(wait)


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
