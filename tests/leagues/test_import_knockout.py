"""A groups competition's knockout imported by the worker a match a transaction (issue 40
point 7): it was written whole in the import's end, every match beside a fill of the
bracket that reads the whole competition, in one hold of SQLite's lock. Each knockout
match is now its own transaction (a vaca's table before it), the bracket before it worked
out outside any transaction and written in one of its own when it changes; a worker
killed after any of the import's transactions leaves what the next run ends as the
one-request import does, nothing twice."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import connection

from muscore.leagues import competitions, documents, import_frame, imports, pacing, results
from muscore.leagues.models import Competition, LeagueImport, Match
from muscore.tables.models import Table
from tests.clubs.factory import make_club, make_user

from .factory import liguilla
from .test_stats_store import VACA, play
from .test_worker_transactions import Died, Statements

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


# The cup's export and its knockout's size, played once a process: each test only reads
# the export (a copy), and playing it was half of each test's time (issue 36: CI time).
PLAYED: list[tuple[dict[str, Any], int]] = []


def cup() -> tuple[dict[str, Any], Any, int]:
    """The export of 8 pairs in 2 groups with their knockout, every match played (a copy of
    the one played first in this process), an organiser, and how many knockout matches it
    has. The tests import it into clubs of their own: nothing of the club it was played in
    is read, and each test's transactional flush drops that club."""
    if not PLAYED:
        PLAYED.append(play_cup())
    exported, knockout = PLAYED[0]
    return copy.deepcopy(exported), make_user("organiser-of-the-copy"), knockout


def play_cup() -> tuple[dict[str, Any], int]:
    """The cup played: a group match in four and every other knockout match on a table,
    the others entered on paper."""
    competition, user = liguilla(8, format="groups", groups=2)
    n = 0
    while True:
        match = (Match.objects.filter(competition=competition, first__isnull=False,
                                      second__isnull=False).unplayed()
                 .select_related("competition__club").order_by("number").first())
        if match is None:
            break
        n += 1
        if n % 4 == 0 or (match.tie_id is not None and n % 2):
            play(competitions.open_table(match, by=user), *VACA)
        else:
            results.record_result(match, by=user, juegos=[3, 1] if n % 3 else [1, 3])
    exported = documents.league_document(competition, hands=True)
    knockout = competition.matches.filter(tie__isnull=False).count()
    on_tables = [bool(m.get("vaca")) for m in exported["matches"][-knockout:]]
    assert knockout == 4 and any(on_tables) and not all(on_tables)
    return exported, knockout


def imported(settings: Any, monkeypatch: pytest.MonkeyPatch, swap: bool = False
             ) -> tuple[Competition | Exception, Competition, dict[str, Any], int]:
    """The cup imported by a request (its reference, or its refusal), then into
    another club by the worker (not run yet); the export, and its knockout matches. With
    `swap`, the export lists its two semifinals the other way round."""
    exported, user, knockout = cup()
    if swap:
        matches, semis = exported["matches"], len(exported["matches"]) - knockout
        matches[semis], matches[semis + 1] = matches[semis + 1], matches[semis]
    try:
        reference: Competition | Exception = imports.import_competition(
            make_club("Bar Kaixo", user), exported, by=user, format="groups")
    except imports.CompetitionError as refused:
        reference = refused
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    monkeypatch.setattr(imports, "BATCH_SECONDS", 60.0)  # the group matches in few batches
    competition = imports.import_competition(make_club("Txoko Berri", user), exported,
                                             by=user, format="groups")
    return reference, competition, exported, knockout


def statements(monkeypatch: pytest.MonkeyPatch) -> Statements:
    """The statements of each of the worker's transactions from now on, by name."""
    seen, pause = Statements(), pacing.pause

    def ended(held: float, what: str = "") -> None:
        seen.end(what)
        pause(held, what)

    monkeypatch.setattr(pacing, "pause", ended)
    return seen


def test_each_knockout_match_is_a_transaction_of_its_own(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each knockout match alone, the bracket before it worked out from what is stored
    and only written in a transaction of its own when it changes (a fill inside each
    match's transaction read the whole competition and its standings: up to 564 ms at
    load 7-14, with 31 ms of CPU)."""
    reference, competition, _exported, knockout = imported(settings, monkeypatch)
    assert isinstance(reference, Competition)
    seen = statements(monkeypatch)
    with connection.execute_wrapper(seen.wrapper):
        imports.catch_up()
    names = [name for name, _sql in seen.ended]
    assert names.count("an import's knockout") == knockout
    # The first round from the groups, then the final's and the third place's first
    # pairs after a semifinal, their second after the other.
    assert names.count("an import's bracket") == 3
    last_group = max(i for i, name in enumerate(names)
                     if name in ("an import's matches", "an import's vaca result"))
    assert names[last_group + 1] == "an import's bracket"
    assert set(names[last_group + 1:-1]) == {"an import's bracket", "an import's knockout",
                                             "an import's vaca table"}
    for name, sql in seen.ended:
        if name == "an import's bracket":
            # Only writes: the ties' pairs and their games', after the check that no other
            # worker took the import further.
            reads = [q for q in sql if q.startswith("SELECT")]
            assert len(reads) == 1 and '"leagues_leagueimport"' in reads[0], sql
            assert any(q.startswith('UPDATE "leagues_tie"') for q in sql), sql
        if name == "an import's knockout":
            assert not any('"leagues_tie"' in q for q in sql), "the bracket is filled apart"
            assert sum(q.startswith('INSERT INTO "leagues_resultrow"') for q in sql) == 1
    # The end writes no result: only what follows them (the competition's status).
    end = [sql for name, sql in seen.ended if name == "an import's end"]
    assert len(end) == 1 and not any("leagues_resultrow" in q and q.startswith("INSERT")
                                     for q in end[0])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED == reference.status
    assert (documents.league_document(competition, hands=True)
            == documents.league_document(reference, hands=True))


def test_a_groups_import_s_batches_read_their_planned_matches_before(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of group matches entered on paper reads none of the competition's matches
    inside its transaction: the planned ones (a window of 200 with their rounds and pairs,
    17 ms of CPU) held the lock 300 ms at load 7-14 for a batch of one match."""
    reference, competition, _exported, _knockout = imported(settings, monkeypatch)
    monkeypatch.setattr(import_frame, "PLANNED_WINDOW", 3)  # read again every third match
    seen = statements(monkeypatch)
    with connection.execute_wrapper(seen.wrapper):
        imports.catch_up()
    batches = [sql for name, sql in seen.ended if name == "an import's matches"]
    written = [sum(q.startswith('INSERT INTO "leagues_resultrow"') for q in sql)
               for sql in batches]
    # 12 group matches, 3 of them vacas (each apart): the batches end with each window.
    assert sum(written) == 12 - 3 and max(written) <= 3, written
    for sql in batches:
        assert not any(q.startswith("SELECT") and 'FROM "leagues_match"' in q for q in sql), sql
    assert (documents.league_document(competition, hands=True)
            == documents.league_document(reference, hands=True))


def test_an_import_killed_after_any_transaction_is_ended_by_the_next_run(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run dies just after the first transaction that takes the import further than
    any run did (the pairs found again or the knockout's first round filled again by a run
    that resumes there do not): every boundary of the import, the knockout's and a vaca's
    table's included, is one a run starts from."""
    reference, competition, exported, knockout = imported(settings, monkeypatch)
    assert isinstance(reference, Competition)
    job = LeagueImport.objects.get(competition=competition)
    tables = Table.objects.count()
    pause, died, reached = pacing.pause, [], set()

    def dies(held: float, what: str = "") -> None:
        pause(held, what)
        where = (LeagueImport.objects.values_list("written", flat=True).get(pk=job.pk), what)
        if where not in reached:
            reached.add(where)
            died.append(what)
            raise Died

    monkeypatch.setattr(pacing, "pause", dies)
    for _run in range(100):
        job.refresh_from_db()
        if job.finished_at is not None:
            break
        with pytest.raises(Died):
            imports.catch_up()
    assert not job.error and job.finished_at is not None
    # Each knockout match (three of them vacas, in two), the bracket before three of them.
    assert died.count("an import's knockout") == knockout
    assert died.count("an import's bracket") == 3
    assert died[-1] == "an import's end"
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert (documents.league_document(competition, hands=True)
            == documents.league_document(reference, hands=True))
    # One table a vaca, none made twice.
    assert Table.objects.count() == tables + sum(1 for m in exported["matches"]
                                                 if m.get("vaca"))


def test_a_knockout_in_another_order_is_refused_by_the_worker_as_by_the_request(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    refused, competition, exported, knockout = imported(settings, monkeypatch, swap=True)
    semis = len(exported["matches"]) - knockout
    assert isinstance(refused, imports.CompetitionError)
    assert f"la partida {semis + 1} no es la que toca" in str(refused)
    imports.catch_up()
    job = LeagueImport.objects.get(club=competition.club)
    assert job.error == str(refused)
    assert not Competition.objects.filter(pk=competition.pk).exists()
