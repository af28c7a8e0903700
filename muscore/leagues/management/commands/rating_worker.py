"""The background worker: large imports, ratings after corrections, and the competitions'
exports and night cards, as tasks of Django's tasks API in the same database
(muscore.leagues.tasks). Run as many as the night needs, on as many machines: they share
the tasks, and nothing is done twice.

    python manage.py rating_worker            # runs until stopped (the production layout)
    python manage.py rating_worker --once     # what waits now, then exits (cron, tests)

What waits is a row of the database (the backlogs: muscore.leagues.rating_store, prepared,
imports), so nothing is lost when a worker stops; the next one carries on.

Stopping, as django-tasks-db's own `db_worker` does (its Worker.configure_signals): SIGTERM,
SIGINT or SIGQUIT lets the task in flight end, then the worker leaves, its heartbeat row
deleted (/healthz counts it gone at once); a long task (an import's batches, a re-rating's
transactions, a competition's documents) hands the rest back at its next transaction's end
(muscore.leagues.pacing), so a stop takes a transaction's time, not a task's. A second
signal stops at once: the task in flight is marked failed, its transaction rolled back, and
its backlog row gives the work to the next worker. SIGKILL leaves the heartbeat, which ages
out of /healthz after MUSCORE_WORKER_STALE_SECONDS; the dead worker's claims and tasks then
go to the others.

On SQLite its transactions run at a lower niceness (MUSCORE_WORKER_LOCK_NICE, -10: the
unit's LimitNICE= allows it), from the BEGIN that takes the database's one write lock to the
COMMIT that releases it (muscore.leagues.pacing.own_priority): on a busy machine the lock is
held as long as the worker waits for a core.

The loop is ours rather than the package's `Worker.run` for two reasons: before it takes a
task it enqueues one for every backlog row that has none (tasks.dispatch), and an idle
worker takes no lock (the package's loop opens an exclusive transaction every interval, and
SQLite has one write lock, the site's). It runs each task with the package's
`Worker.run_task` (its signals, the result's status and traceback).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, OperationalError, close_old_connections
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from muscore import logs
from muscore.leagues import pacing, tasks, workers

logger = logging.getLogger("muscore.ratings")

ONLY = {"ratings": ["ratings"], "documents": ["documents", "imports"], "imports": ["imports"]}
PRUNE_EVERY = 600.0
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGQUIT")
                     if hasattr(signal, name))
# How often a sleeping worker looks whether it was asked to stop.
NAP = 0.1


class Stop:
    """The worker's stop signals: the first asks the work to end (pacing.ask_to_stop), the
    second stops at once (SystemExit in the main thread, wherever it is)."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self.forced = False
        self._previous = {number: signal.signal(number, self._handle)
                          for number in STOP_SIGNALS}

    def _handle(self, number: int, frame: FrameType | None) -> None:
        # Runs in the main thread between two bytecodes: no lock, no database, no I/O but
        # the log line.
        name = signal.Signals(number).name
        if self.signal is not None:
            self.forced = True
            logger.warning("%s after %s: stopping at once (the task in flight is marked "
                           "failed and its work goes to the next worker)", name,
                           signal.Signals(self.signal).name)
            raise SystemExit(1)
        self.signal = number
        pacing.ask_to_stop()
        logger.warning("%s: stopping once the task in flight ends or hands its work back "
                       "(%s again to stop at once)", name, name)

    @property
    def asked(self) -> bool:
        return self.signal is not None

    def nap(self, seconds: float) -> None:
        """Sleep `seconds`, or less when asked to stop meanwhile."""
        until = time.monotonic() + seconds
        while not self.asked and (left := until - time.monotonic()) > 0:
            time.sleep(min(NAP, left))

    def restore(self) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        pacing.carry_on()


class Command(BaseCommand):
    help = ("Run the background work (large imports, ratings, exports and cards) beside the "
            "web server; several share it. SIGTERM stops it cleanly.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true",
                            help="do what waits now, then exit")
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between looks at the queue when it is empty "
                                 "(default 1)")
        parser.add_argument("--only", choices=sorted(ONLY), default=None,
                            help="only the ratings, or only the exports, cards and large "
                                 "imports, or only the large imports")
        parser.add_argument("--worker-id", default=None,
                            help="this worker's name in /healthz, /metrics and its log lines, "
                                 "unique among the workers (default: host-pid)")

    def handle(self, *args: Any, once: bool, interval: float, only: str | None,
               worker_id: str | None, **options: Any) -> None:
        pacing.own_pauses()  # MUSCORE_WORKER_PAUSE_SCALE: a bad one stops it before anything
        stop = Stop()  # then: a SIGTERM from now on is a clean stop
        queues = ONLY[only] if only else list(tasks.QUEUES)
        worker_id = worker_id or f"{socket.gethostname()}-{os.getpid()}"[:64]
        logs.set_worker(worker_id)
        pacing.own_checkpoints()  # SQLite's WAL copied in its pauses, timed apart
        pacing.own_priority()  # and its transactions there at MUSCORE_WORKER_LOCK_NICE
        # Its heartbeat for /healthz and for the claims: alive while this runs.
        heart = workers.Heart(worker_id, ",".join(queues), beating=not once)
        runner = Worker(queue_names=queues, interval=interval, batch=once,
                        backend_name="default", startup_delay=False, max_tasks=None,
                        worker_id=worker_id, excluded_queue_names=[])
        try:
            heart.start()
            logger.info("worker %s started on %s", worker_id, ",".join(queues))
            self._work(runner, queues, once, interval, stop)
        finally:
            heart.stop(cut=stop.forced)  # its row deleted: /healthz counts it gone at once
            stop.restore()
            pacing.automatic_checkpoints()
            pacing.common_priority()
        if stop.asked:
            logger.info("worker %s stopped by %s", worker_id,
                        signal.Signals(stop.signal or signal.SIGTERM).name)
        if stop.forced:  # the task in flight was cut (and marked failed)
            sys.exit(1)

    def _work(self, runner: Worker, queues: list[str], once: bool, interval: float,
              stop: Stop) -> None:
        pruned = 0.0
        while not stop.asked:
            if not once:
                # A connection the database dropped meanwhile is opened again, not reused.
                close_old_connections()
            try:
                tasks.dispatch(queues)
                result = _take(queues, runner.worker_id)
                if time.monotonic() - pruned > PRUNE_EVERY:
                    tasks.prune()
                    pruned = time.monotonic()
            except DatabaseError:
                # A database that went away: the backlog is still there, so the next look
                # tries again.
                logger.exception("the worker could not look at its queue; trying again")
                if once:
                    raise
                stop.nap(interval)
                continue
            if result is not None:
                started = time.monotonic()
                runner.run_task(result)
                result.refresh_from_db()
                logger.info("%s(%s): %s in %.1f s%s", result.task_name,
                            result.args_kwargs["kwargs"], result.status,
                            time.monotonic() - started,
                            ", handed back" if (result.return_value or {}).get("handed_back")
                            else "")
                if once and result.status == "FAILED" and not stop.asked:
                    raise CommandError(f"{result.task_name} failed:\n{result.traceback}")
                continue
            if once and not _waiting(queues):
                return
            stop.nap(interval if not once else 0.05)


def _take(queues: list[str], worker_id: str) -> DBTaskResult[Any, Any] | None:
    """The next ready task of `queues`, marked as this worker's (django-tasks-db's own
    claim: SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL, an exclusive transaction on
    SQLite)."""
    ready = DBTaskResult.objects.ready().filter(backend_name="default", queue_name__in=queues)
    if not ready.exists():
        return None  # an idle worker takes no lock: SQLite's is the writers' one
    try:
        with exclusive_transaction(ready.db):
            result = ready.get_locked()
            if result is not None:
                result.claim(worker_id)
            return result
    except OperationalError as error:
        if is_locked_database_exception(error):
            return None
        raise


def _waiting(queues: list[str]) -> bool:
    """Whether anything is left for `--once`: a backlog row, or a task ready."""
    return any(tasks.pending(queue) for queue in queues) or DBTaskResult.objects.filter(
        queue_name__in=queues, status="READY").exists()
