"""The background work as tasks of Django's tasks API (django-tasks, the backport of
Django 6's `django.tasks`; its database backend, django-tasks-db, keeps them in a table of
the same database): any number of `manage.py rating_worker` processes, on any number of
machines, share them, and nothing is done twice.

The backlogs stay what they were, the truth of what waits (a row each: a club's ratings
from a place, a competition's documents, an import and how far it got; so a restore, an
upgrade or a worker killed mid-task loses nothing). Each worker, before it takes a task,
enqueues one for every backlog row that has none waiting or running (`dispatch`): a few
indexed reads of tiny tables a second. Two workers may enqueue the same one at the same
moment; the second to run it finds the work claimed (`workers.claim`: one worker at a time
on one club's ratings, one competition's documents, one import) or already done, and does
nothing. A competition's documents are still made once per revision: the task takes the
backlog row off before making them (as `prepared.catch_up` does), under the claim.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django_tasks import TaskContext, task
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult

from muscore.leagues import imports, pacing, prepared, rating_store, workers
from muscore.leagues.models import (
    Competition,
    DocumentBacklog,
    LeagueImport,
    RatingBacklog,
    WorkerBeat,
)

QUEUES = ("ratings", "documents", "imports")


def _worker(context: TaskContext) -> str:
    ids = context.task_result.worker_ids
    return ids[-1] if ids else "inline"


@contextlib.contextmanager
def _claimed(key: str, context: TaskContext) -> Iterator[bool]:
    worker_id = _worker(context)
    got = workers.claim(key, worker_id)
    try:
        yield got
    finally:
        if got:
            workers.release(key, worker_id)


@task(queue_name="ratings", takes_context=True)
def rerate_club(context: TaskContext, club_id: int) -> dict[str, Any]:
    """Bring one club's ratings up to date (rating_store.catch_up for that club)."""
    with _claimed(f"ratings:{club_id}", context) as got:
        if not got:
            return {"claimed_by_another": True}
        try:
            return {"runs": rating_store.catch_up(club_id)}
        except pacing.Stopped:  # its backlog row stays: the next worker replays it
            return {"handed_back": True}


@task(queue_name="documents", takes_context=True)
def make_documents(context: TaskContext, competition_id: int) -> dict[str, Any]:
    """Make one competition's export and cards for its current revision."""
    with _claimed(f"documents:{competition_id}", context) as got:
        if not got:
            return {"claimed_by_another": True}
        # Taken off before the work: a change from now on queues it again.
        if not DocumentBacklog.objects.filter(pk=competition_id).delete()[0]:
            return {"made": None}
        try:
            return {"made": prepared.make(competition_id)}
        except Competition.DoesNotExist:  # deleted meanwhile
            return {"made": None}
        except pacing.Stopped:
            # Queued again: the next worker makes what this one did not (what it made for
            # this revision is not made again).
            DocumentBacklog.add([competition_id])
            return {"handed_back": True}
        except (SystemExit, KeyboardInterrupt):
            # Stopped at once (a second SIGTERM): queued again all the same, if the
            # database still answers.
            with contextlib.suppress(Exception):
                DocumentBacklog.add([competition_id])
            raise


@task(queue_name="imports", takes_context=True)
def write_import(context: TaskContext, import_id: int) -> dict[str, Any]:
    """Carry a large import on for up to imports.RUN_SECONDS; the next dispatch enqueues
    its next part until it is finished."""
    with _claimed(f"import:{import_id}", context) as got:
        if not got:
            return {"claimed_by_another": True}
        # A worker asked to stop ends after the batch in flight (imports.run): the import
        # keeps how far it got, and the next dispatch carries it on.
        written = imports.run(import_id, time.monotonic() + imports.RUN_SECONDS)
        return {"written": written, **({"handed_back": True} if pacing.stopping() else {})}


TASKS: dict[str, tuple[Task[Any, Any], str]] = {
    "ratings": (rerate_club, "club_id"), "documents": (make_documents, "competition_id"),
    "imports": (write_import, "import_id")}


def _waiting_keys(queue: str) -> set[int]:
    """The ids that have a task ready, or running in a live worker, on `queue`."""
    live = {beat.worker_id for beat in workers.alive()}
    keys = set()
    for status, args_kwargs, worker_ids in DBTaskResult.objects.filter(
            queue_name=queue, status__in=["READY", "RUNNING"]).values_list(
            "status", "args_kwargs", "worker_ids"):
        if status == "RUNNING" and not (set(worker_ids) & live):
            continue  # its worker died: the work is done again by a new task
        keys.update(args_kwargs.get("kwargs", {}).values())
    return keys


def pending(queue: str) -> list[int]:
    """The backlog's ids on `queue`, oldest first."""
    if queue == "ratings":
        return list(RatingBacklog.objects.order_by("queued_at", "club_id").values_list(
            "club_id", flat=True))
    if queue == "documents":
        return list(DocumentBacklog.objects.order_by("queued_at", "competition_id")
                    .values_list("competition_id", flat=True))
    return list(LeagueImport.objects.filter(finished_at__isnull=True, competition__isnull=False)
                .order_by("pk").values_list("pk", flat=True))


def dispatch(queues: tuple[str, ...] | list[str] = QUEUES) -> int:
    """Enqueue a task for every backlog row of `queues` that has none waiting or running;
    returns how many were enqueued."""
    enqueued = 0
    for queue in queues:
        waiting = _waiting_keys(queue)
        the_task, argument = TASKS[queue]
        for pk in pending(queue):
            if pk not in waiting:
                the_task.enqueue(**{argument: pk})
                enqueued += 1
    return enqueued


# A worker killed mid-task (SIGKILL, its machine lost) leaves its task RUNNING and its
# heartbeat: dispatch enqueues the work again once the beat is stale; after this long both
# rows go.
GONE_SECONDS = 3600


def prune(days: float = 1.0) -> int:
    """Delete the finished tasks older than `days` (the failed ones after a week), and what
    killed workers left an hour ago: their tasks still RUNNING and their heartbeats."""
    now = timezone.now()
    deleted = DBTaskResult.objects.filter(
        Q(status="SUCCESSFUL", finished_at__lt=now - timedelta(days=days))
        | Q(status="FAILED", finished_at__lt=now - timedelta(days=7))).delete()[0]
    gone = now - timedelta(seconds=GONE_SECONDS)
    live = {beat.worker_id for beat in workers.alive(now)}
    orphans = [pk for pk, ids in DBTaskResult.objects.filter(
        status="RUNNING", started_at__lt=gone).values_list("pk", "worker_ids")
        if not set(ids) & live]
    deleted += DBTaskResult.objects.filter(pk__in=orphans).delete()[0]
    WorkerBeat.objects.filter(seen_at__lt=gone).delete()
    return deleted
