"""The background workers' rows (muscore.leagues.workers): each one's heartbeat, and the
piece of work each holds."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class WorkerBeat(models.Model):
    """One running worker: who (its id, host and process) and when it last said so."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    queues = models.CharField(max_length=100)
    started_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"worker {self.worker_id} on {self.host} ({self.pid})"


class WorkClaim(models.Model):
    """A piece of work one worker is doing (`ratings:<club>`, `documents:<competition>`,
    `import:<id>`): taken by inserting the row (its key is unique), given back by deleting
    it. A claim past `until`, or whose worker no longer beats, may be taken over."""

    key = models.CharField(max_length=80, primary_key=True)
    worker_id = models.CharField(max_length=64)
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.key} by {self.worker_id}"
