"""A large league import, written by the worker in short transactions (issue 21: every
request bounded).

The benchmark's league (200 pairs, 39,800 matches) took 190 s in one request, holding
SQLite's write lock throughout: one `results.write` per match (every door that writes a
result goes through it, and so does this). The request still reads and checks the whole
document and makes the competition's frame (its pairs, entries, draw and rounds); past
`settings.MUSCORE_IMPORT_IN_REQUEST_MAX` matches it leaves the results to the worker
(`manage.py rating_worker`): the competition stays "importing" (on no list and no page,
out of the ratings and leaders, no result written to it by any other door) while the
worker writes its matches in batches, each its own transaction of about BATCH_SECONDS,
then marks it done. If a batch fails, the competition is deleted whole and the
`LeagueImport` row keeps why, for the organiser's page.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.models import Pair
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Competition, Entry, LeagueImport, Match

if TYPE_CHECKING:
    from muscore.clubs.permissions import Actor
    from muscore.leagues.compute.document import League

logger = logging.getLogger("muscore.imports")

# Matches a request writes itself: about 10 ms each through results.write at the
# benchmark's load, so 100 stay well under a second.
IN_REQUEST_MAX = 100
# How long one batch's transaction may run before it commits (the lock it holds).
BATCH_SECONDS = 0.08
# The pause after each batch: on SQLite a writer that just committed and begins again at
# once wins the lock over every waiter (their busy handler polls every 5-100 ms); the
# benchmark's import without it kept another writer waiting 52 s. Half the time free.
PAUSE_SECONDS = 0.1
# How long one call of the worker spends on imports before it looks at its other work.
RUN_SECONDS = 20.0


def in_request_max() -> int:
    return int(getattr(settings, "MUSCORE_IMPORT_IN_REQUEST_MAX", IN_REQUEST_MAX))


def deferred(league: League) -> bool:
    """Whether the document has too many matches for the request to write them."""
    return len(league.matches) > in_request_max()


def start(competition: Competition, document: str, total: int, *, rated: bool, by: Actor,
          new_pairs: list[int]) -> Competition:
    """Leave a checked document's results to the worker: the competition "importing"."""
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.IMPORTING)
    competition.status = Competition.Status.IMPORTING
    LeagueImport.objects.create(
        club_id=competition.club_id, competition=competition, name=competition.name,
        document=document, fingerprint=competition.fingerprint,
        rated=rated, new_pairs=new_pairs, total=total,
        created_by=by if isinstance(by, User) else None)
    return competition


def of(competition_id: int) -> LeagueImport | None:
    """The import of a competition, while it is being made."""
    return LeagueImport.objects.filter(competition_id=competition_id,
                                       finished_at__isnull=True).first()


def catch_up(budget: float | None = RUN_SECONDS) -> int:
    """Write the waiting imports' matches, oldest first, for about `budget` seconds (None:
    until none waits); the worker's job (tests call it). Returns how many were written."""
    written = 0
    until = time.monotonic() + budget if budget is not None else float("inf")
    for pk in (LeagueImport.objects.filter(finished_at__isnull=True, competition__isnull=False)
               .order_by("pk").values_list("pk", flat=True)):
        written += run(pk, until)
        if time.monotonic() >= until:
            break
    return written


def run(pk: int, until: float) -> int:
    """Carry one import on until `until` (time.monotonic()) or its end; a failure deletes
    its competition whole and keeps why."""
    from muscore.leagues import documents, rating_store

    job = LeagueImport.objects.select_related("competition", "created_by").get(pk=pk)
    competition = job.competition
    assert competition is not None
    by: Actor = job.created_by  # type: ignore[assignment]
    begun = job.written
    try:
        league = documents.read_checked(json.loads(job.document))
        batched = documents.written_in_batches(competition, league)
        while job.written < batched and time.monotonic() < until:
            _batch(job, competition, league, by, batched)
            time.sleep(PAUSE_SECONDS)
        if job.written >= batched:
            with transaction.atomic():
                documents.import_rest(competition, league, by)
                _finish(job, competition)
            if job.rated:  # its matches placed in the club's ratings, re-rated by the worker
                rating_store.rerate_later(competition.club_id, competition.pk)
    except _Taken:
        return 0
    except Exception as error:  # whatever it is, nothing of the import stays
        message = str(error) if isinstance(error, CompetitionError) else _(
            "Error inesperado al escribir la partida %(n)s.") % {"n": job.written + 1}
        logger.exception("league import %s failed at match %s", pk, job.written + 1)
        fail(job, message)
    return job.written - begun


class _Taken(Exception):
    """Another worker carried the import on meanwhile."""


def _batch(job: LeagueImport, competition: Competition, league: League, by: Actor,
           batched: int) -> None:
    from muscore.leagues import documents

    first = job.written
    with transaction.atomic():
        n = documents.import_matches(competition, league, by, first, batched,
                                     until=time.monotonic() + BATCH_SECONDS)
        if not LeagueImport.objects.filter(pk=job.pk, written=first).update(written=n):
            raise _Taken
    job.written = n


def _finish(job: LeagueImport, competition: Competition) -> None:
    # after_change (import_rest) set its status from its matches: no longer importing.
    LeagueImport.objects.filter(pk=job.pk).update(finished_at=timezone.now(),
                                                  written=job.total)
    if job.rated:
        Competition.objects.filter(pk=competition.pk).update(rated=True)


def fail(job: LeagueImport, message: str) -> None:
    """Delete the import's competition whole (its matches and their tables in short
    batches, then the rest) and the pairs it added; the row keeps `message`."""
    from muscore.tables.models import Table

    LeagueImport.objects.filter(pk=job.pk).update(error=message, finished_at=timezone.now())
    competition_id = job.competition_id
    assert competition_id is not None
    while True:
        with transaction.atomic():
            rows = list(Match.objects.filter(competition_id=competition_id)
                        .values_list("pk", "table_id")[:500])
            if not rows:
                break
            Match.objects.filter(pk__in=[pk for pk, _t in rows]).delete()
            Table.objects.filter(pk__in=[t for _pk, t in rows if t is not None]).delete()
    with transaction.atomic():
        Competition.objects.filter(pk=competition_id).delete()
        Pair.objects.filter(pk__in=job.new_pairs).exclude(
            pk__in=Entry.objects.values("pair_id")).delete()


def failed(club_id: int) -> list[LeagueImport]:
    """The club's imports that failed in the last day, newest first (the import page)."""
    since = timezone.now() - timedelta(days=1)
    return list(LeagueImport.objects.filter(club_id=club_id, created_at__gte=since)
                .exclude(error="").order_by("-pk"))
