"""A worker stopped as systemd and an operator stop it (issue 39): `manage.py rating_worker`
as a process of its own on the test's database, in the middle of a large import.

- SIGTERM: the import's batch in flight ends, the rest is handed back (the task ends, its
  claim is given back), the worker exits 0 and deletes its heartbeat row: /healthz counts no
  worker at once.
- SIGKILL: nothing is said; the heartbeat stays until MUSCORE_WORKER_STALE_SECONDS, then
  /healthz answers 503; the next worker takes the dead one's import over (its claim and its
  task are a dead worker's).
- Either way the next worker finishes the import, and the league imported is the league
  exported, match for match: nothing lost, nothing written twice.
- A second SIGTERM stops at once (exit 1): the batch in flight is rolled back.

The hand-back of the other two kinds of work (a re-rating, a competition's documents) is
checked in the process: a stop asked before their next transaction leaves their backlog
row for the next worker, and the work it then does equals the work done in one go.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from muscore.clubs.models import Club, Membership
from muscore.leagues import documents, imports, pacing, tasks
from muscore.leagues.models import (
    Competition,
    DocumentBacklog,
    LeagueImport,
    Match,
    PlayerRating,
    PreparedPart,
    RatingBacklog,
    RatingMatch,
)
from muscore.leagues.workers import Heart, WorkClaim, WorkerBeat
from tests.ops.worker_processes import ROOT, worker_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

PAIRS = 16  # 120 matches with hands: a few seconds of batches, stopped in the middle
STALE = 3  # seconds: the worker's limit in these tests


@pytest.fixture
def stale(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MUSCORE_WORKER_STALE_SECONDS", str(STALE))
    yield


def league_and_import(tag: str) -> tuple[Competition, LeagueImport]:
    """A club's league, and its export imported into another club, left to the worker."""
    call_command("build_large_club", pairs=PAIRS, legs=1, hands_share=0.3, templates=4,
                 seed=1, stdout=StringIO())
    league = Competition.objects.order_by("-pk").first()
    assert league is not None
    organiser = get_user_model().objects.create_user(f"organiser-{tag}")
    other = Club.objects.create(name=f"Peña {tag}", slug=f"pena-{tag}")
    Membership.objects.create(club=other, user=organiser)
    with override_settings(MUSCORE_IMPORT_IN_REQUEST_MAX=10):
        imported = imports.import_competition(
            other, documents.league_document(league, hands=True), by=organiser,
            name="Copia", rated=False)
    job = imports.of(imported.pk)
    assert job is not None and job.total == league.matches.count()
    return league, job


def start_worker(worker_id: str, log: Path, *extra: str, refused_nice: bool = False,
                 pauses: str = "1") -> subprocess.Popen[bytes]:
    """`manage.py rating_worker` on the test's database, its pauses on SQLite times `pauses`
    (MUSCORE_WORKER_PAUSE_SCALE); with `refused_nice`, as a service without LimitNICE: no
    RLIMIT_NICE, and as root no CAP_SYS_NICE either (setpriv)."""
    connection.close()  # nothing of this process holds SQLite's lock meanwhile
    prefix: list[str] = []
    if refused_nice and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "setpriv (util-linux) drops root's CAP_SYS_NICE for this test"
        prefix = [setpriv, "--inh-caps=-sys_nice", "--bounding-set=-sys_nice"]

    def no_rlimit_nice() -> None:
        resource.setrlimit(resource.RLIMIT_NICE, (0, 0))  # lowering a limit: always allowed

    with log.open("wb") as err:
        return subprocess.Popen(
            [*prefix, sys.executable, "manage.py", "rating_worker", "--interval", "0.2",
             "--worker-id", worker_id, *extra],
            cwd=ROOT, env=worker_env(MUSCORE_WORKER_STALE_SECONDS=str(STALE),
                                     MUSCORE_WORKER_PAUSE_SCALE=pauses),
            stdout=subprocess.DEVNULL, stderr=err,
            preexec_fn=no_rlimit_nice if refused_nice else None)


def wait_mid_import(job: LeagueImport, worker: subprocess.Popen[bytes], log: Path) -> int:
    """Wait until the worker has written some of the import's batches and not all."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert worker.poll() is None, log.read_text()
        written = LeagueImport.objects.get(pk=job.pk).written
        if 0 < written < job.total:
            return written
        assert written < job.total, "the import ended before the test could stop it"
        time.sleep(0.02)
    raise AssertionError(f"the worker wrote nothing in 120 s:\n{log.read_text()}")


def written_when_stopped(job: LeagueImport, worker: subprocess.Popen[bytes]) -> int:
    """The import's written count once the worker is frozen (SIGSTOP is delivered, not
    awaited, by kill) and what it sent before has landed: a COMMIT the worker sent just
    before it froze is still the server's to finish (PostgreSQL), so the count is read
    until it holds still for 0.2 s. Read at once, it was one batch short at load 10-16."""
    deadline = time.monotonic() + 10
    while Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
        assert time.monotonic() < deadline, "the worker did not stop"
        time.sleep(0.01)
    written = LeagueImport.objects.get(pk=job.pk).written
    while True:
        time.sleep(0.2)
        again = LeagueImport.objects.get(pk=job.pk).written
        if again == written:
            return written
        written = again


def healthz() -> tuple[int, dict]:  # type: ignore[type-arg]
    response = Client().get("/healthz")
    return response.status_code, json.loads(response.content)


def tasks_of(worker_id: str) -> list[DBTaskResult]:  # type: ignore[type-arg]
    return [task for task in DBTaskResult.objects.filter(task_path__endswith="write_import")
            if worker_id in task.worker_ids]


def finish_with_another_worker(tmp_path: Path, refused_nice: bool = False) -> str:
    """The rest done by a worker run with `--once`, without pauses; its log. Alone on the
    database (the test waits), with them it slept about as long as it wrote
    (muscore.leagues.pacing). The stopped workers keep theirs: their import must last till
    the test stops it."""
    finisher = start_worker("finisher", tmp_path / "finisher.log", "--once",
                            refused_nice=refused_nice, pauses="0")
    assert finisher.wait(timeout=300) == 0, (tmp_path / "finisher.log").read_text()
    return (tmp_path / "finisher.log").read_text()


def assert_imported_once(league: Competition, job: LeagueImport) -> None:
    """The import finished, and its competition is the league it came from, match for match
    (each written once: no match twice, none missing)."""
    job.refresh_from_db()
    assert job.finished_at is not None and not job.error and job.written == job.total
    imported = Competition.objects.get(pk=job.competition_id)
    assert imported.status != Competition.Status.IMPORTING
    assert imported.matches.count() == league.matches.count()
    places = list(Match.objects.filter(competition=imported).values_list(
        "round__number", "first__pair__name", "second__pair__name"))
    assert len(places) == len(set(places))
    assert documents.document_fingerprint(documents.league_document(imported, hands=True)) \
        == documents.document_fingerprint(documents.league_document(league, hands=True))
    assert not WorkClaim.objects.exists()


def test_sigterm_hands_the_import_back_and_says_goodbye(tmp_path: Path, stale: None) -> None:
    league, job = league_and_import("term")
    log = tmp_path / "worker.log"
    worker = start_worker("w-term", log)
    try:
        wait_mid_import(job, worker, log)
        assert WorkerBeat.objects.filter(worker_id="w-term").exists()
        assert healthz()[1]["checks"]["workers"]["alive"] == 1
        worker.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        assert worker.wait(timeout=30) == 0, log.read_text()
        took = time.monotonic() - signalled
    finally:
        if worker.poll() is None:
            worker.kill()
    text = log.read_text()
    print(f"\nSIGTERM to exit: {took * 1000:.0f} ms ({connection.vendor})\n{text}")
    assert "SIGTERM: stopping once the task in flight ends" in text, text
    assert "handed back" in text, text
    assert "[worker:w-term]" in text, text  # every line names its worker
    # Handed back, not finished: the next worker has the rest.
    job.refresh_from_db()
    assert 0 < job.written < job.total and job.finished_at is None
    [task] = tasks_of("w-term")
    assert task.status == "SUCCESSFUL" and task.return_value["handed_back"] is True
    # Its heartbeat is gone at once: /healthz says no worker, without waiting for the limit.
    assert not WorkerBeat.objects.exists()
    assert not WorkClaim.objects.exists()
    status, body = healthz()
    assert status == 503 and body["checks"]["workers"]["alive"] == 0, body
    assert "no worker beat" in body["checks"]["workers"]["error"]

    # A worker that may not lower its niceness for SQLite's lock (a unit without
    # LimitNICE=) finishes it all the same, and says so once; on PostgreSQL it never asks.
    text = finish_with_another_worker(tmp_path, refused_nice=True)
    assert text.count("may not lower its niceness") == (connection.vendor == "sqlite"), text
    assert_imported_once(league, job)
    assert not DBTaskResult.objects.filter(status__in=["FAILED", "RUNNING"]).exists()


def test_sigkill_leaves_a_heartbeat_that_ages_out(tmp_path: Path, stale: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    league, job = league_and_import("kill")
    log = tmp_path / "worker.log"
    worker = start_worker("w-kill", log)
    try:
        wait_mid_import(job, worker, log)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        killed = time.monotonic()
    finally:
        if worker.poll() is None:
            worker.kill()
    job.refresh_from_db()
    assert 0 < job.written < job.total
    # Its last beat stands until the limit, then /healthz counts no worker.
    assert WorkerBeat.objects.filter(worker_id="w-kill").exists()
    while (status := healthz())[1]["checks"]["workers"]["alive"] == 1:
        assert time.monotonic() - killed < STALE + 5, "the killed worker never aged out"
        time.sleep(0.2)
    aged = time.monotonic() - killed
    print(f"\nSIGKILL to /healthz 503: {aged:.1f} s (limit {STALE} s, {connection.vendor})")
    assert aged <= STALE + 2.5
    assert status[0] == 503 and f"no worker beat in the last {STALE} s" in \
        status[1]["checks"]["workers"]["error"]
    assert [task.status for task in tasks_of("w-kill")] == ["RUNNING"]

    # The next worker takes the dead one's claim and enqueues its import again.
    finish_with_another_worker(tmp_path)
    assert_imported_once(league, job)
    # What the killed worker left goes in time (an hour; here at once).
    monkeypatch.setattr(tasks, "GONE_SECONDS", 0)
    tasks.prune()
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert not WorkerBeat.objects.exists()


def test_a_second_signal_stops_at_once(tmp_path: Path, stale: None) -> None:
    league, job = league_and_import("twice")
    log = tmp_path / "worker.log"
    worker = start_worker("w-twice", log)
    try:
        wait_mid_import(job, worker, log)
        # Frozen mid-batch, then two signals (two numbers: the same one twice would be
        # delivered once), handled one after the other when it wakes.
        worker.send_signal(signal.SIGSTOP)
        written = written_when_stopped(job, worker)
        worker.send_signal(signal.SIGINT)
        worker.send_signal(signal.SIGTERM)
        worker.send_signal(signal.SIGCONT)
        assert worker.wait(timeout=30) == 1, log.read_text()
    finally:
        if worker.poll() is None:
            worker.kill()
    assert "SIGTERM after SIGINT: stopping at once" in log.read_text()
    # The batch in flight rolled back; the worker said goodbye all the same.
    assert LeagueImport.objects.get(pk=job.pk).written == written
    assert not WorkerBeat.objects.exists()
    finish_with_another_worker(tmp_path)
    assert_imported_once(league, job)


def test_a_cut_worker_says_goodbye_on_a_connection_of_its_own() -> None:
    """What test_a_second_signal_stops_at_once saw once on PostgreSQL: SystemExit raised
    between a transaction's BEGIN and Django's note of it leaves the main connection in a
    transaction nobody commits, and the heartbeat's row deleted there came back at exit.
    Cut (the second signal), the goodbye goes through a connection of its own."""
    kept, cut = Heart("w-kept", "imports", beating=False), Heart("w-cut", "imports", beating=False)
    kept.start()
    cut.start()
    # Where SystemExit can leave the main connection: in a transaction Django does not know
    # of, holding a write (SQLite's lock) that nothing will commit.
    connection.set_autocommit(False)
    try:
        kept.stop()  # deleted there: undone at exit
        cut.stop(cut=True)
    finally:
        connection.rollback()
        connection.set_autocommit(True)
    assert list(WorkerBeat.objects.values_list("worker_id", flat=True)) == ["w-kept"]


def test_sigterm_while_idle_exits_at_once(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    worker = start_worker("w-idle", log)
    try:
        deadline = time.monotonic() + 60
        while not WorkerBeat.objects.filter(worker_id="w-idle").exists():
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        time.sleep(0.5)  # asleep between two looks at the queue
        worker.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        assert worker.wait(timeout=10) == 0, log.read_text()
        # At once, not after a task or an interval (its exit, Python's own, takes seconds
        # at load 20 on 2 cores).
        assert time.monotonic() - signalled < 5
    finally:
        if worker.poll() is None:
            worker.kill()
    assert not WorkerBeat.objects.exists()


# --- the other work's hand-back, in this process ---------------------------------------------


def run_one(task_path: str) -> DBTaskResult:  # type: ignore[type-arg]
    tasks.dispatch()
    row = DBTaskResult.objects.get(status="READY", task_path__endswith=task_path)
    row.claim("here")
    Worker(queue_names=list(tasks.QUEUES), interval=0, batch=True, backend_name="default",
           startup_delay=False, max_tasks=None, worker_id="here",
           excluded_queue_names=[]).run_task(row)
    row.refresh_from_db()
    assert row.status == "SUCCESSFUL", row.traceback
    return row


@pytest.fixture
def asked_to_stop() -> Iterator[None]:
    pacing.ask_to_stop()
    yield
    pacing.carry_on()


def test_a_rerating_asked_to_stop_leaves_its_backlog(asked_to_stop: None) -> None:
    call_command("build_large_club", pairs=8, legs=1, hands_share=0, templates=2, seed=2,
                 stdout=StringIO())
    league = Competition.objects.order_by("-pk").first()
    assert league is not None
    fresh = sorted(PlayerRating.objects.filter(club_id=league.club_id).values_list(
        "player_id", "mu", "sigma", "matches"))
    first = RatingMatch.objects.filter(club_id=league.club_id).order_by(
        "arrived_at", "match_id").first()
    assert first is not None
    RatingBacklog.objects.create(club_id=league.club_id, since_at=first.arrived_at,
                                 since_match=first.match_id)
    PlayerRating.objects.filter(club_id=league.club_id).update(mu=0, sigma=1, nivel=0)

    assert run_one("rerate_club").return_value == {"handed_back": True}
    assert RatingBacklog.objects.filter(club_id=league.club_id).exists()
    assert not WorkClaim.objects.exists()

    pacing.carry_on()
    assert run_one("rerate_club").return_value == {"runs": 1}
    assert not RatingBacklog.objects.exists()
    again = sorted(PlayerRating.objects.filter(club_id=league.club_id).values_list(
        "player_id", "mu", "sigma", "matches"))
    assert [r[0] for r in again] == [r[0] for r in fresh]
    for (_p, mu, sigma, count), (_q, mu2, sigma2, count2) in zip(again, fresh, strict=True):
        assert (mu, sigma, count) == pytest.approx((mu2, sigma2, count2))


def test_documents_asked_to_stop_are_queued_again(asked_to_stop: None) -> None:
    call_command("build_large_club", pairs=6, legs=1, hands_share=0.2, templates=2, seed=3,
                 stdout=StringIO())
    league = Competition.objects.order_by("-pk").first()
    assert league is not None
    PreparedPart.objects.filter(competition=league).delete()
    DocumentBacklog.add([league.pk])

    assert run_one("make_documents").return_value == {"handed_back": True}
    assert DocumentBacklog.objects.filter(pk=league.pk).exists()
    assert not PreparedPart.objects.filter(competition=league, part=0).exists()

    pacing.carry_on()
    assert run_one("make_documents").return_value == {"made": league.revision}
    assert not DocumentBacklog.objects.exists()
    assert PreparedPart.objects.filter(competition=league, revision=league.revision,
                                       kind="export", part=0).exists()
