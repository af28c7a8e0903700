"""The tasks' bookkeeping (muscore.leagues.tasks, workers): a backlog row gets one task, a
piece of work one worker, and a dead worker's work goes to another."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from muscore.clubs.models import Club
from muscore.leagues import tasks, workers
from muscore.leagues.models import Competition, DocumentBacklog, RatingBacklog
from muscore.leagues.workers import WorkClaim, WorkerBeat

pytestmark = pytest.mark.django_db


def beat(worker_id: str, seconds_ago: float = 0) -> None:
    WorkerBeat.objects.update_or_create(
        worker_id=worker_id, defaults={"host": "h", "pid": 1, "queues": "all",
                                       "seen_at": timezone.now() - timedelta(seconds=seconds_ago)})


def test_a_claim_is_one_workers_until_it_stops_beating() -> None:
    beat("w1")
    beat("w2")
    assert workers.claim("ratings:1", "w1")
    assert workers.claim("ratings:1", "w1")  # its own, again
    assert not workers.claim("ratings:1", "w2")
    beat("w1", seconds_ago=61)  # w1 died
    assert workers.claim("ratings:1", "w2")
    assert WorkClaim.objects.get(key="ratings:1").worker_id == "w2"
    workers.release("ratings:1", "w1")  # not its claim any more: nothing happens
    assert WorkClaim.objects.filter(key="ratings:1").exists()
    workers.release("ratings:1", "w2")
    assert not WorkClaim.objects.exists()


def test_a_claim_past_its_time_is_taken_over() -> None:
    beat("w1")
    beat("w2")
    assert workers.claim("documents:5", "w1")
    WorkClaim.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert workers.claim("documents:5", "w2")


def test_each_backlog_row_gets_one_task_and_a_dead_workers_one_again() -> None:
    club = Club.objects.create(name="Club", slug="club")
    competitions = [Competition.objects.create(club=club, name=f"L{n}", rules={})
                    for n in range(2)]
    DocumentBacklog.add([c.pk for c in competitions])
    RatingBacklog.objects.create(club=club, since_at=timezone.now(), since_match=1)
    assert tasks.dispatch() == 3
    assert tasks.dispatch() == 0  # each has its task waiting
    assert sorted(DBTaskResult.objects.values_list("queue_name", flat=True)) == [
        "documents", "documents", "ratings"]
    # A worker took the ratings' task and died: its work is enqueued again.
    beat("w1")
    task = DBTaskResult.objects.get(queue_name="ratings")
    task.claim("w1")
    assert tasks.dispatch() == 0
    beat("w1", seconds_ago=61)
    assert tasks.dispatch() == 1
    assert DBTaskResult.objects.filter(queue_name="ratings", status="READY").count() == 1


def test_a_task_for_work_another_worker_holds_does_nothing() -> None:
    club = Club.objects.create(name="Club", slug="club")
    competition = Competition.objects.create(club=club, name="L", rules={})
    DocumentBacklog.add([competition.pk])
    beat("w1")
    beat("w2")
    assert workers.claim(f"documents:{competition.pk}", "w1")
    result = tasks.make_documents.enqueue(competition_id=competition.pk)
    row = DBTaskResult.objects.get(pk=result.id)
    row.claim("w2")
    from django_tasks_db.management.commands.db_worker import Worker

    Worker(queue_names=["documents"], interval=0, batch=True, backend_name="default",
           startup_delay=False, max_tasks=None, worker_id="w2",
           excluded_queue_names=[]).run_task(row)
    row.refresh_from_db()
    assert row.status == "SUCCESSFUL" and row.return_value == {"claimed_by_another": True}
    assert DocumentBacklog.objects.filter(pk=competition.pk).exists()  # left for w1
