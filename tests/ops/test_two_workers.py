"""Two workers on one database share the background work (issue 31, muscore.leagues.tasks):
three clubs' large imports, rating catch-ups and documents, run once by one
`rating_worker --once` and once, on the same work built again, by two at the same time.
The results are the same (the ratings, the imported competitions, the documents made),
both workers took tasks, and nothing was done twice: every import's matches written once,
every competition's documents made once per revision, no task failed. The times are
printed (docs/benchmarks.md, "Workers").
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from muscore.clubs.models import Club, Membership
from muscore.leagues import documents, imports
from muscore.leagues.models import (
    Competition,
    DocumentBacklog,
    LeagueImport,
    PlayerRating,
    PreparedPart,
    RatingBacklog,
    RatingMatch,
)
from muscore.leagues.workers import WorkClaim, WorkerBeat
from tests.ops.worker_processes import ROOT, worker_env

CLUBS = 3
PAIRS = 14  # 91 matches a club: its import is the worker's (more than a request writes)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def build(tag: str) -> list[int]:
    """Three clubs' leagues, each with a rating catch-up and its documents waiting, and a
    copy of each imported into another club, left for the worker. Returns the clubs."""
    clubs = []
    organiser = get_user_model().objects.create_user(f"organiser-{tag}")
    for n in range(CLUBS):
        call_command("build_large_club", pairs=PAIRS, legs=1, hands_share=0.2, templates=4,
                     seed=n, stdout=StringIO())
        league = Competition.objects.order_by("-pk").first()
        assert league is not None
        first = RatingMatch.objects.filter(club_id=league.club_id).order_by(
            "arrived_at", "match_id").first()
        assert first is not None
        RatingBacklog.objects.create(club_id=league.club_id, since_at=first.arrived_at,
                                     since_match=first.match_id)
        PlayerRating.objects.filter(club_id=league.club_id).update(mu=0, sigma=1, nivel=0)
        DocumentBacklog.add([league.pk])
        other = Club.objects.create(name=f"Peña {n}", slug=f"pena-{tag}-{n}")
        Membership.objects.create(club=other, user=organiser)
        with override_settings(MUSCORE_IMPORT_IN_REQUEST_MAX=10):
            imported = imports.import_competition(
                other, documents.league_document(league, hands=True), by=organiser,
                name=f"Liga {n}", rated=False)
        assert imports.of(imported.pk) is not None
        clubs += [league.club_id, other.pk]
    return clubs


def snapshot(clubs: list[int]) -> list[Any]:
    """What the work leaves, without ids: each club's ratings by player, its competitions'
    documents (fingerprint) and which documents were made for their current revision."""
    out: list[Any] = []
    for club_id in clubs:
        ratings = sorted((r.player.name, round(r.mu, 9), round(r.sigma, 9), r.matches)
                         for r in PlayerRating.objects.filter(club_id=club_id)
                         .select_related("player"))
        competitions = []
        for competition in Competition.objects.filter(club_id=club_id).order_by("pk"):
            made = sorted(PreparedPart.objects.filter(
                competition=competition, revision=competition.revision, part=0)
                .values_list("kind", flat=True))
            competitions.append((competition.name, competition.status, made,
                                 documents.document_fingerprint(
                                     documents.league_document(competition))))
        out.append((ratings, competitions))
    return out


def run_workers(count: int) -> float:
    """`count` workers at once on the work waiting, till it is done; the seconds they took.
    Alone, a worker makes no pauses on SQLite (MUSCORE_WORKER_PAUSE_SCALE=0): no request
    waits behind it here, and with them it slept about as long as it wrote (the one-worker
    run slept 15.6 s of 56 at load 15). Two keep them: each pause is the other's way in to
    the write lock, as on a site."""
    connection.close()  # the workers' turn: nothing of this process holds the database
    started = time.monotonic()
    processes = [subprocess.Popen(
        [sys.executable, "manage.py", "rating_worker", "--once", "--worker-id", f"w{i}"],
        cwd=ROOT, env=worker_env(MUSCORE_WORKER_PAUSE_SCALE="0" if count == 1 else "1"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i in range(1, count + 1)]
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err.decode()[-5000:]
    return time.monotonic() - started


def test_two_workers_share_the_work_and_do_nothing_twice() -> None:
    from django_tasks_db.models import DBTaskResult

    one_clubs = build("one")
    one_time = run_workers(1)
    one = snapshot(one_clubs)
    before = set(DBTaskResult.objects.values_list("pk", flat=True))
    two_clubs = build("two")
    two_time = run_workers(2)
    two = snapshot(two_clubs)
    load = os.getloadavg()[0]
    print(f"\none worker {one_time:.1f} s, two workers {two_time:.1f} s "
          f"({CLUBS} clubs of {PAIRS} pairs, the one without pauses; load {load:.1f}, "
          f"{connection.vendor})")

    assert one == two
    for _ratings, competitions in two:
        for _name, status, made, _fingerprint in competitions:
            assert status != Competition.Status.IMPORTING
            assert "export" in made, made
    # The leagues' clubs re-rated from scratch (their ratings were zeroed): the imported
    # copies are unrated, for the record.
    for ratings, _competitions in two[::2]:
        assert ratings and all(mu != 0 for _n, mu, _s, _m in ratings)
    assert not RatingBacklog.objects.exists() and not DocumentBacklog.objects.exists()
    assert not LeagueImport.objects.filter(finished_at__isnull=True).exists()
    assert not WorkClaim.objects.exists() and not WorkerBeat.objects.exists()

    results = DBTaskResult.objects.exclude(pk__in=before)
    assert not results.filter(status="FAILED").exists(), [
        r.traceback for r in results.filter(status="FAILED")]
    assert {r.worker_ids[-1] for r in results} == {"w1", "w2"}, "one worker did it all"
    made = Counter((r.args_kwargs["kwargs"]["competition_id"], r.return_value["made"])
                   for r in results.filter(task_path__endswith="make_documents")
                   if r.return_value.get("made") is not None)
    assert made and max(made.values()) == 1, made  # once per revision
    for job in LeagueImport.objects.filter(club_id__in=two_clubs):
        written = sum(r.return_value.get("written", 0) for r in results.filter(
            task_path__endswith="write_import") if r.args_kwargs["kwargs"]["import_id"] == job.pk)
        assert written == job.total == job.written  # every match written once
