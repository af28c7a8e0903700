"""The background workers seen from outside: each one's heartbeat (`WorkerBeat`, written
every few seconds by `manage.py rating_worker`, read by `/healthz` and `/metrics`), and how
far behind the work is (the oldest row waiting in each backlog).

A worker that stops beating for longer than `MUSCORE_WORKER_STALE_SECONDS` (default 60)
counts as stopped: `/healthz` answers 503 when no worker is alive (the next large import or
correction would wait for ever), or when the ratings' or documents' oldest waiting row is
older than `MUSCORE_BACKLOG_MAX_SECONDS` (default 300: the workers are alive but behind).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import DatabaseError, close_old_connections, connection, models
from django.utils import timezone

from muscore.leagues.models import (
    DocumentBacklog,
    LeagueImport,
    RatingBacklog,
    WorkClaim,
    WorkerBeat,
)

BEAT_SECONDS = 2.0


def stale_seconds() -> float:
    value = os.environ.get("MUSCORE_WORKER_STALE_SECONDS", "60")
    try:
        return float(value)
    except ValueError:
        raise ValueError(
            f"MUSCORE_WORKER_STALE_SECONDS must be a number of seconds, not {value!r}") from None


def alive(now: datetime | None = None) -> list[WorkerBeat]:
    """The workers that beat within the stale limit."""
    since = (now or timezone.now()) - timedelta(seconds=stale_seconds())
    return list(WorkerBeat.objects.filter(seen_at__gte=since).order_by("worker_id"))


class Heart:
    """A thread beating for one worker (its own database connection), until stopped."""

    def __init__(self, worker_id: str, queues: str, *, beating: bool = True) -> None:
        self.worker_id = worker_id
        self.queues = queues
        # False: one beat at start only (`--once`, cron's run: over in seconds).
        self.beating = beating
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="muscore-heartbeat",
                                        daemon=True)

    def start(self) -> None:
        self.beat()
        if self.beating:
            self._thread.start()

    def beat(self) -> None:
        WorkerBeat.objects.update_or_create(
            worker_id=self.worker_id,
            defaults={"host": socket.gethostname()[:255], "pid": os.getpid(),
                      "queues": self.queues[:100], "seen_at": timezone.now()},
            create_defaults={"host": socket.gethostname()[:255], "pid": os.getpid(),
                             "queues": self.queues[:100]})

    def _run(self) -> None:
        while not self._stop.wait(BEAT_SECONDS):
            try:
                close_old_connections()
                self.beat()
            except DatabaseError:
                pass  # the database is away: the next beat tries again
        connection.close()

    def stop(self, *, cut: bool = False) -> None:
        """Stop beating and say so (the worker is gone at once, not after the limit).

        ``cut``: the worker was stopped at once (a second signal raised SystemExit wherever
        its main thread was, perhaps between a transaction's BEGIN and Django's note of it,
        which leaves that thread's connection in a transaction nobody commits): that
        connection is closed (what it held rolled back, its locks let go) and the row is
        deleted through a connection of its own, in a thread of its own."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        if not cut:
            self._goodbye()
            return
        with contextlib.suppress(DatabaseError):
            connection.close()
        goodbye = threading.Thread(target=self._goodbye_apart, name="muscore-heartbeat-end",
                                   daemon=True)
        goodbye.start()
        goodbye.join(timeout=10)

    def _goodbye(self) -> None:
        with contextlib.suppress(DatabaseError):
            WorkerBeat.objects.filter(worker_id=self.worker_id).delete()

    def _goodbye_apart(self) -> None:
        try:
            self._goodbye()
        finally:
            connection.close()


@dataclass(frozen=True)
class Backlog:
    """What waits for the workers: how many rows and the oldest one's age in seconds."""

    ratings: int
    documents: int
    imports: int
    oldest_seconds: float

    @property
    def total(self) -> int:
        return self.ratings + self.documents + self.imports


def backlog(now: datetime | None = None) -> Backlog:
    """Three counts and three minimums on the backlog tables (a few rows each)."""
    now = now or timezone.now()
    ratings = RatingBacklog.objects.aggregate(n=models.Count("pk"),
                                              oldest=models.Min("queued_at"))
    documents = DocumentBacklog.objects.aggregate(n=models.Count("pk"),
                                                  oldest=models.Min("queued_at"))
    imports = LeagueImport.objects.filter(finished_at__isnull=True,
                                          competition__isnull=False).aggregate(
        n=models.Count("pk"), oldest=models.Min("created_at"))
    oldest = [row["oldest"] for row in (ratings, documents, imports) if row["oldest"]]
    age = max(0.0, (now - min(oldest)).total_seconds()) if oldest else 0.0
    return Backlog(ratings["n"], documents["n"], imports["n"], age)


# --- claims: one worker at a time on one club's ratings, one competition's documents, one import

CLAIM_SECONDS = 15 * 60


def claim(key: str, worker_id: str) -> bool:
    """Take `key` for `worker_id`; False when another live worker holds it."""
    from django.db import IntegrityError, transaction

    now = timezone.now()
    live = WorkerBeat.objects.filter(
        seen_at__gte=now - timedelta(seconds=stale_seconds())).values("worker_id")
    try:
        with transaction.atomic():
            WorkClaim.objects.filter(key=key).filter(
                models.Q(until__lt=now) | ~models.Q(worker_id__in=live)).exclude(
                worker_id=worker_id).delete()
            _claim, made = WorkClaim.objects.get_or_create(
                key=key, defaults={"worker_id": worker_id,
                                   "until": now + timedelta(seconds=CLAIM_SECONDS)})
            return made or _claim.worker_id == worker_id
    except IntegrityError:  # another worker inserted it between our look and our insert
        return False


def release(key: str, worker_id: str) -> None:
    WorkClaim.objects.filter(key=key, worker_id=worker_id).delete()
