"""The background worker: large imports, ratings after corrections, and the competitions'
exports and night cards, as tasks of Django's tasks API in the same database
(muscore.leagues.tasks). Run as many as the night needs, on as many machines: they share
the tasks, and nothing is done twice.

    python manage.py rating_worker            # runs until stopped (the production layout)
    python manage.py rating_worker --once     # what waits now, then exits (cron, tests)

What waits is a row of the database (the backlogs: muscore.leagues.rating_store, prepared,
imports), so nothing is lost when a worker stops; the next one carries on.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, OperationalError, close_old_connections
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from muscore.leagues import tasks, workers

logger = logging.getLogger("muscore.ratings")

ONLY = {"ratings": ["ratings"], "documents": ["documents", "imports"], "imports": ["imports"]}
PRUNE_EVERY = 600.0


class Command(BaseCommand):
    help = ("Run the background work (large imports, ratings, exports and cards) beside the "
            "web server; several share it.")

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
                            help="this worker's name in /healthz and /metrics, unique among "
                                 "the workers (default: host-pid)")

    def handle(self, *args: Any, once: bool, interval: float, only: str | None,
               worker_id: str | None, **options: Any) -> None:
        queues = ONLY[only] if only else list(tasks.QUEUES)
        worker_id = worker_id or f"{socket.gethostname()}-{os.getpid()}"[:64]
        # Its heartbeat for /healthz and for the claims: alive while this runs.
        heart = workers.Heart(worker_id, ",".join(queues), beating=not once)
        heart.start()
        runner = Worker(queue_names=queues, interval=interval, batch=once,
                        backend_name="default", startup_delay=False, max_tasks=None,
                        worker_id=worker_id, excluded_queue_names=[])
        try:
            self._work(runner, queues, once, interval)
        finally:
            heart.stop()

    def _work(self, runner: Worker, queues: list[str], once: bool, interval: float) -> None:
        pruned = 0.0
        while True:
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
                time.sleep(interval)
                continue
            if result is not None:
                started = time.monotonic()
                runner.run_task(result)
                result.refresh_from_db()
                logger.info("%s(%s): %s in %.1f s", result.task_name,
                            result.args_kwargs["kwargs"], result.status,
                            time.monotonic() - started)
                if once and result.status == "FAILED":
                    raise CommandError(f"{result.task_name} failed:\n{result.traceback}")
                continue
            if once and not _waiting(queues):
                return
            time.sleep(interval if not once else 0.05)


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
