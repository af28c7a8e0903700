"""The rating worker's and the import worker's transactions on SQLite's one write lock
(issue 40 point 7: at load 8-10 a writer waited 691 ms behind the rating catch-up, whose
players' ratings were one transaction, and the worker held the lock up to 411 ms): a
large catch-up is written in many transactions, each bounded, its placing and its
players' ratings included; another writer gets in between them; a worker killed between
any two leaves what the next catch-up ends exactly as a fresh computation; a transaction
is timed from the lock taken, not from the wait for it."""

from __future__ import annotations

import errno
import os
import resource
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from muscore.clubs.models import Club, Player
from muscore.leagues import (
    competitions,
    documents,
    imports,
    pacing,
    rating_store,
    results,
    stats_store,
)
from muscore.leagues.models import (
    Competition,
    LeagueImport,
    Match,
    PlayerRating,
    RatingBacklog,
    RatingMatch,
    WorkerBeat,
)
from muscore.tables.models import Table
from tests.clubs.factory import make_club, make_league, make_user

from .factory import liguilla
from .test_rating_store import snapshot
from .test_stats_store import VACA, play

pytestmark = [pytest.mark.postgres]


@pytest.fixture(autouse=True)
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small club stands for a large one: more than 2 matches to re-rate wait for the
    # worker, which writes 3 matches' points, 3 players' ratings or 2 places a
    # transaction (sized by these alone, however slow the machine: the test of a slow
    # database sets a target of its own).
    monkeypatch.setattr(rating_store, "INLINE_LIMIT", 2)
    monkeypatch.setattr(rating_store, "LOCK_TARGET", 10.0)
    for name, size in (("CHUNK", 3), ("MAX_CHUNK", 3), ("RATINGS_CHUNK", 3),
                       ("MAX_RATINGS_CHUNK", 3), ("PLACES_CHUNK", 2),
                       ("MAX_PLACES_CHUNK", 2)):
        monkeypatch.setattr(rating_store, name, size)


def matches(competition: Competition) -> list[Match]:
    return list(Match.objects.filter(competition=competition).select_related(
        "competition__club").order_by("number"))


def season(pairs: int = 6, substitute: bool = False) -> tuple[Competition, Any, Club]:
    """A double liguilla with every result, each rated as it arrived; with `substitute`,
    "Sustituta" sat in the first match for the second player of its first pair (the only
    match that rates her)."""
    competition, user = liguilla(pairs, legs=2)
    for n, match in enumerate(matches(competition)):
        if n == 0 and substitute:
            assert match.first is not None
            own = match.first.pair.player_names()
            competitions.set_players(match, by=user, side=0, players=[own[0], "Sustituta"])
            match = Match.objects.select_related("competition__club").get(pk=match.pk)
        results.record_result(match, by=user, juegos=[3, 1] if n % 3 else [2, 3],
                              reason="acta")
    assert not RatingBacklog.objects.exists()
    return competition, user, competition.club


def afresh(club: Club) -> tuple[Any, ...]:
    """What `rate_club` makes of the club's history (what the ratings must end as)."""
    rating_store.rate_club(club)
    return snapshot(club)


class Transactions:
    """Each transaction a worker ended through pacing (its name from the worker's own
    log line, and what it inserted: rows per table), in order."""

    def __init__(self) -> None:
        self.ended: list[tuple[str, dict[str, int]]] = []
        self._current: dict[str, int] = {}

    def wrapper(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.in_atomic_block and sql.startswith("INSERT INTO"):
            table = sql.split()[2].strip('"')
            self._current[table] = self._current.get(table, 0) + (len(params) if many else 1)
        return execute(sql, params, many, context)

    def end(self, what: str) -> None:
        self.ended.append((what, self._current))
        self._current = {}

    def named(self, what: str) -> list[dict[str, int]]:
        return [inserted for name, inserted in self.ended if name == what]


class Recorder(Protocol):
    """What watches the worker's transactions: each statement, then each one's end."""

    def wrapper(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any: ...

    def end(self, what: str) -> None: ...


R = TypeVar("R", bound=Recorder)


@contextmanager
def recorded(monkeypatch: pytest.MonkeyPatch, seen: R) -> Iterator[R]:
    """``seen`` given every statement the worker runs and told where each of its
    transactions ends (its pause, which follows every one)."""
    pause = pacing.pause

    def ended(held: float, what: str = "") -> None:
        seen.end(what)
        pause(held, what)

    monkeypatch.setattr(pacing, "pause", ended)
    with connection.execute_wrapper(seen.wrapper):
        yield seen


POINTS, RATINGS, PLACES = ("leagues_ratingpoint", "leagues_playerrating",
                           "leagues_ratingmatch")


@pytest.mark.django_db(transaction=True)
def test_a_large_catch_up_is_written_in_many_bounded_transactions(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    competition, user, club = season()
    first, *_rest = matches(competition)
    results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    assert rating_store.waiting(club)
    players = Player.objects.filter(club=club).count()
    with (caplog.at_level("DEBUG", logger="muscore.pacing"),
          recorded(monkeypatch, Transactions()) as seen):
        assert rating_store.catch_up() == 1
    # The worker's own log names every one of its transactions.
    logged = [r.getMessage() for r in caplog.records if r.name == "muscore.pacing"]
    assert len(logged) == len(seen.ended)
    assert all(f"a worker's transaction ({what})" in line
               for (what, _rows), line in zip(seen.ended, logged, strict=False))
    batches = seen.named("a rating batch")
    ratings = seen.named("a rating batch's players")
    # 30 matches of 4 players, 3 matches a transaction; 12 players, 3 a transaction.
    assert len(batches) == 10 and all(b.get(POINTS, 0) <= 3 * 4 for b in batches)
    assert sum(b.get(POINTS, 0) for b in batches) == 30 * 4
    assert len(ratings) == 4 and all(r == {RATINGS: 3} for r in ratings)
    assert sum(r[RATINGS] for r in ratings) == players
    assert not [rows for rows in batches if RATINGS in rows]
    caught_up = snapshot(club)
    assert afresh(club) == caught_up


@pytest.mark.django_db(transaction=True)
def test_a_slow_database_gets_smaller_rating_transactions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Each row a transaction inserts costs 5 ms (a loaded machine): after the first of each
    # kind, every transaction is sized to about LOCK_TARGET (20 ms: 4 rows), the players'
    # ratings too (they were one transaction however many players the club had), and the
    # ratings still end as afresh. (test_rating_backlog's shrink test, folded in here: it
    # slowed the matches' points alone.)
    competition, user, club = season()
    monkeypatch.setattr(rating_store, "LOCK_TARGET", 0.02)
    monkeypatch.setattr(rating_store, "MAX_CHUNK", 100)
    monkeypatch.setattr(rating_store, "MAX_RATINGS_CHUNK", 100)
    monkeypatch.setattr(rating_store, "RATINGS_CHUNK", 6)

    def slow(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.in_atomic_block and sql.startswith("INSERT INTO"):
            time.sleep(0.005 * (len(params) if many else 1))
        return execute(sql, params, many, context)

    first, *_rest = matches(competition)
    results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    with recorded(monkeypatch, Transactions()) as seen, connection.execute_wrapper(slow):
        assert rating_store.catch_up() == 1
    assert not rating_store.waiting(club)
    batches = seen.named("a rating batch")
    ratings = seen.named("a rating batch's players")
    assert batches[0][POINTS] == 3 * 4 and ratings[0][RATINGS] == 6
    # At most twice the target: the size follows the last transaction's time.
    assert max(b.get(POINTS, 0) for b in batches[1:]) <= 8, batches
    assert len(ratings) >= 3 and max(r[RATINGS] for r in ratings[1:]) <= 8, ratings
    caught_up = snapshot(club)
    assert afresh(club) == caught_up


@pytest.mark.django_db(transaction=True)
def test_a_writer_gets_in_between_the_catch_up_s_transactions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer (a table's save) waits for one of the worker's transactions, not
    for the whole catch-up: on SQLite its BEGIN IMMEDIATE gets the lock in a pause."""
    monkeypatch.setattr(rating_store, "CHUNK", 1)
    monkeypatch.setattr(rating_store, "MAX_CHUNK", 1)
    competition, user, club = season(4)
    other = make_club("Bar Kaixo", user)
    first, *_rest = matches(competition)
    results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    events: list[str] = []
    begun = threading.Event()
    insert = rating_store._insert_points

    def held(rows: Any) -> None:
        insert(rows)
        time.sleep(0.03)  # each transaction holds the lock 30 ms at least
        events.append("batch")
        begun.set()

    def writer() -> None:
        try:
            begun.wait(30)
            with transaction.atomic():
                Club.objects.filter(pk=other.pk).update(name="Bar Kaixo Berria")
            events.append("writer")
        finally:
            connection.close()

    monkeypatch.setattr(rating_store, "_insert_points", held)
    thread = threading.Thread(target=writer)
    thread.start()
    rating_store.catch_up()
    thread.join(30)
    assert events.count("batch") == 12
    assert "writer" in events, "the writer did not get in"
    # In after the first of the catch-up's transactions, long before its last.
    assert events[events.index("writer") + 1:].count("batch") >= 3, events


class Killed(Exception):
    """The worker killed right after a commit."""


def kill_after(monkeypatch: pytest.MonkeyPatch, commits: int) -> None:
    count = [0]
    pause = pacing.pause

    def pause_then_die(held: float, what: str = "") -> None:
        pause(held, what)
        count[0] += 1
        if count[0] >= commits:
            raise Killed

    monkeypatch.setattr(pacing, "pause", pause_then_die)


def finished_after_kills(monkeypatch: pytest.MonkeyPatch, club: Club) -> int:
    """Kill the catch-up after its first commit, then (from the same start) after its
    second, and so on until it is not killed; each time the next catch-up must end the
    ratings as computed afresh. Returns how many commits the whole catch-up made."""
    commits = 1
    while True:
        with transaction.atomic():  # each try from the same start, rolled back after
            with monkeypatch.context() as patched:
                kill_after(patched, commits)
                try:
                    rating_store.catch_up()
                    finished = True
                except Killed:
                    finished = False
                    assert rating_store.waiting(club), commits
            rating_store.catch_up()
            assert not rating_store.waiting(club)
            caught_up = snapshot(club)
            assert caught_up[0], "players are rated"
            assert afresh(club) == caught_up, commits
            transaction.set_rollback(True)
        if finished:
            return commits - 1
        commits += 1


@pytest.mark.django_db
def test_a_catch_up_killed_between_any_two_transactions_is_finished_by_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever transaction the worker dies after, the backlog stays and the next
    catch-up ends the ratings as computed afresh: the substitute who no longer sits in
    the corrected match loses her rating even when her only point was replaced before
    the worker died (her rating is written first)."""
    competition, user, club = season(4, substitute=True)
    first, *_rest = matches(competition)
    sustituta = Player.objects.get(club=club, name="Sustituta")
    assert PlayerRating.objects.filter(pk=sustituta.pk).exists()
    competitions.set_players(first, by=user, side=0, players=None)  # its own sat after all
    assert rating_store.waiting(club)
    # 1 player's rating (hers), 12 matches' points (3 a transaction), 8 players' ratings.
    assert finished_after_kills(monkeypatch, club) == 1 + 4 + 3
    rating_store.catch_up()
    assert not PlayerRating.objects.filter(pk=sustituta.pk).exists()


@pytest.mark.django_db
def test_a_rated_import_is_queued_with_its_end_and_placed_by_the_catch_up(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """The import's end makes it rated and queues its re-rating in one transaction (they
    were two: a worker killed between them left it rated and never re-rated); the
    catch-up places its matches a few a transaction, each moving the backlog, so a worker
    killed between any two leaves the next one what it needs."""
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    organiser = make_user("maite")
    exported = documents.league_document(
        make_league(make_club("Peña Txoko", organiser), 6, results=9), hands=True)
    club = make_club("Bar Kaixo", organiser)
    imported = imports.import_competition(club, exported, by=organiser, rated=True)
    imports.catch_up()
    assert LeagueImport.objects.get(competition=imported).finished_at is not None
    imported.refresh_from_db()
    assert imported.rated and rating_store.waiting(club)
    assert not RatingMatch.objects.filter(match__competition=imported).exists()
    # 9 places, 2 a transaction; 9 matches' points, 3 a transaction; 12 players, 3 a one.
    assert finished_after_kills(monkeypatch, club) == 5 + 3 + 4
    rating_store.catch_up()
    assert RatingMatch.objects.filter(match__competition=imported).count() == 9


@pytest.mark.django_db(transaction=True)
def test_a_worker_s_transaction_is_timed_from_the_lock_taken(
        caplog: pytest.LogCaptureFixture) -> None:
    """Its wait for the lock behind a request's write is no hold of its own: counted, it
    was logged past 200 ms and shrank the worker's next transaction."""
    if connection.vendor != "sqlite":
        pytest.skip("one write lock for the whole database: SQLite's")
    taken, done = threading.Event(), threading.Event()

    def request_write() -> None:
        try:
            with transaction.atomic():  # BEGIN IMMEDIATE: the write lock, for 300 ms
                WorkerBeat.objects.create(worker_id="request", host="h", pid=1, queues="q")
                taken.set()
                time.sleep(0.3)
        finally:
            done.set()
            connection.close()

    thread = threading.Thread(target=request_write)
    thread.start()
    assert taken.wait(30)
    started = time.monotonic()
    with caplog.at_level("DEBUG", logger="muscore.pacing"), \
            pacing.short_transaction("a worker's write") as hold:
        WorkerBeat.objects.create(worker_id="worker", host="h", pid=2, queues="q")
    waited = time.monotonic() - started
    thread.join(30)
    assert done.is_set() and waited >= 0.2
    assert hold.seconds < waited - 0.1
    assert [r.levelname for r in caplog.records if r.name == "muscore.pacing"] == ["DEBUG"]


def test_an_import_s_batch_stops_before_the_match_that_would_pass_its_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopping only once past its 50 ms, a batch held them and one slow match more."""
    clock = [100.0]
    monkeypatch.setattr(pacing.time, "monotonic", lambda: clock[0])
    budget = pacing.Budget(0.05)
    written = 0
    for cost in (0.01, 0.01, 0.02, 0.005, 0.005):
        clock[0] += cost
        written += 1
        if budget.spent():
            break
    # 10 + 10 + 20 ms: a fourth match as slow as the slowest (20 ms) would end at 60.
    assert written == 3
    once = pacing.Budget(0.0)
    clock[0] += 0.3
    assert once.spent()  # one item at least, however slow


@pytest.mark.django_db(transaction=True)
def test_an_import_writes_a_vaca_in_a_transaction_of_its_own(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """A vaca's table and hands cost ten matches entered on paper: the budget, judged by
    the matches before it, could not see it coming, and passed by as much."""
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    monkeypatch.setattr(imports, "BATCH_SECONDS", 60.0)  # the budget alone takes them all
    competition, user = liguilla(4)
    played = matches(competition)
    for n, match in enumerate(played):
        if n == 2:
            play(competitions.open_table(match, by=user), *VACA)
        else:
            results.record_result(match, by=user, juegos=[3, 1])
    exported = documents.league_document(competition, hands=True)
    club = make_club("Bar Kaixo", user)
    imports.import_competition(club, exported, by=user)
    with recorded(monkeypatch, Transactions()) as seen:
        imports.catch_up()
    written = [(name, rows.get("leagues_match", 0), rows.get("tables_table", 0),
                rows.get("leagues_resultrow", 0)) for name, rows in seen.ended
               if name != "an import's end"][-4:]
    # The vaca's table and match (saved without its result), then its result alone.
    assert written == [("an import's matches", 2, 0, 2), ("an import's vaca table", 1, 1, 0),
                       ("an import's vaca result", 0, 0, 1), ("an import's matches", 3, 0, 3)]


@pytest.mark.django_db(transaction=True)
def test_an_import_s_matches_on_paper_are_each_inserted_with_their_result(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """A match entered on paper costs a batch 7 statements: inserted with its result, not
    inserted then updated, and no hands' counts deleted from a match just made (10 a
    match, 18 ms of CPU with the reads that went before: at load 10-13 the worker holds
    the lock about ten times its CPU, and one match a transaction passed 200 ms)."""
    monkeypatch.setattr(imports, "BATCH_SECONDS", 60.0)
    organiser = make_user("maite")
    exported = documents.league_document(
        make_league(make_club("Peña Txoko", organiser), 6, results=9), hands=True)
    reference = imports.import_competition(make_club("Txoko Zaharra", organiser), exported,
                                           by=organiser, rated=True)  # by its request
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    imported = imports.import_competition(make_club("Bar Kaixo", organiser), exported,
                                          by=organiser, rated=True)
    seen = Statements.of_catch_up(monkeypatch)
    batches = [sql for what, sql in seen.ended if what == "an import's matches"]
    inserted = sum(q.startswith('INSERT INTO "leagues_match"') for sql in batches for q in sql)
    played = sum(q.startswith('INSERT INTO "leagues_resultrow"') for sql in batches for q in sql)
    assert (inserted, played) == (15, 9)
    # And each batch's count of matches written, on the import's row.
    assert sum(len(sql) for sql in batches) == 7 * played + (inserted - played) + len(batches)
    assert not any(q.startswith(('UPDATE "leagues_match"', "DELETE"))
                   for sql in batches for q in sql)
    assert (documents.league_document(imported, hands=True)
            == documents.league_document(reference, hands=True))


def with_vacas(format: str) -> tuple[dict[str, Any], Any, list[int]]:
    """The export of a competition of 6 pairs (a liguilla, or 2 groups of 3) whose
    matches 2 and 4 were played on tables and the others entered on paper, its organiser
    and the indexes of its vacas."""
    extra = {"format": format, "groups": 2} if format == "groups" else {}
    competition, user = liguilla(6, **extra)
    vacas = [1, 3]
    for n, match in enumerate(matches(competition)):
        if n in vacas:
            play(competitions.open_table(match, by=user), *VACA)
        elif match.first is not None and match.second is not None:
            results.record_result(match, by=user, juegos=[3, 1] if n % 2 else [1, 3])
    exported = documents.league_document(competition, hands=True)
    assert [n for n, m in enumerate(exported["matches"]) if m.get("vaca")] == vacas
    return exported, user, vacas


class Statements:
    """The statements of each transaction a worker ended through pacing, by its name."""

    def __init__(self) -> None:
        self.ended: list[tuple[str, list[str]]] = []
        self._current: list[str] = []

    def wrapper(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.in_atomic_block and not sql.startswith(("SAVEPOINT", "RELEASE")):
            self._current.append(sql)
        return execute(sql, params, many, context)

    def end(self, what: str) -> None:
        self.ended.append((what, self._current))
        self._current = []

    @classmethod
    def of_catch_up(cls, monkeypatch: pytest.MonkeyPatch) -> Statements:
        """The worker's catch-up run, each transaction it ended with its statements."""
        with recorded(monkeypatch, cls()) as seen:
            imports.catch_up()
        return seen


@pytest.mark.django_db(transaction=True)
def test_an_imported_vaca_s_transactions_stay_short_and_read_before_they_write(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """A vaca's table with its match, then its result, each about what two matches entered
    on paper cost: together (45 statements) they held SQLite's lock 200-700 ms at load
    8-19. The pairs' players its table seats, its rows (its hands replayed) and the hands
    it counts are made or read before."""
    exported, user, vacas = with_vacas("liguilla")
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    imports.import_competition(make_club("Bar Kaixo", user), exported, by=user)
    seen = Statements.of_catch_up(monkeypatch)
    names = [what for what, _sql in seen.ended]
    tables = [sql for what, sql in seen.ended if what == "an import's vaca table"]
    assert len(tables) == len(vacas)
    # Each followed by its result alone: the match it saved, its result row and its counts.
    results_after = [seen.ended[names.index(what, i) + 1][1]
                     for i, what in enumerate(names) if what == "an import's vaca table"]
    for table, result in zip(tables, results_after, strict=True):
        # Inserted, made before (tables.new_table): the table, its hands, audit and stored
        # vacas, and the match. Through the tables' write path: 18 and its replay.
        assert len(table) == 5 and all(sql.startswith("INSERT") for sql in table), table
        assert len(result) <= 15, result
        assert not any('"clubs_pairmember"' in sql or '"clubs_player"' in sql
                       for sql in table), "the seats are read before the table's write"
        assert not any('FROM "tables_hand"' in sql for sql in result), \
            "the hands are counted before the result's write"
        assert sum(sql.startswith('INSERT INTO "leagues_resultrow"') for sql in result) == 1


class Died(BaseException):
    """The worker's process killed (no `except Exception` sees it)."""


def dying(kill: int) -> Any:
    """stats_store.table_counts, which the worker asks between a vaca's table and its
    result: the process dies there at the vaca `kill` (0-based) that this run meets."""
    counts, seen = stats_store.table_counts, [0]

    def table_counts(table: Table) -> Any:
        if seen[0] == kill:
            raise Died
        seen[0] += 1
        return counts(table)

    return table_counts


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", ["liguilla", "groups"])
def test_an_import_killed_between_a_vaca_s_table_and_its_result_writes_it_once(
        monkeypatch: pytest.MonkeyPatch, settings: Any, format: str) -> None:
    """Killed after a vaca's table and match were committed, before its result: the next
    run writes the result on that match and table, nothing twice and nothing lost, and
    the competition ends as the one-request import makes it. Meanwhile nobody sees it."""
    exported, user, vacas = with_vacas(format)
    reference = imports.import_competition(make_club("Bar Kaixo", user), exported, by=user)
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 4
    club = make_club("Txoko Berri", user)
    imported = imports.import_competition(club, exported, by=user)
    job = LeagueImport.objects.get(competition=imported)
    tables_before = Table.objects.count()
    for kill in range(len(vacas)):
        with monkeypatch.context() as patched:
            patched.setattr(stats_store, "table_counts", dying(kill))
            with pytest.raises(Died):
                imports.catch_up()
        job.refresh_from_db()
        assert job.written == vacas[kill] and job.finished_at is None and not job.error
        half = Match.objects.get(competition=imported, table__isnull=False,
                                 result__isnull=True)
        assert half.number == vacas[kill] + 1
        imported.refresh_from_db()
        assert imported.status == Competition.Status.IMPORTING
    imports.catch_up()
    job.refresh_from_db()
    assert job.finished_at is not None and not job.error
    imported.refresh_from_db()
    assert (documents.league_document(imported, hands=True)
            == documents.league_document(reference, hands=True))
    # One table a vaca: the killed runs' tables are the ones the matches point at.
    assert Table.objects.count() == tables_before + len(vacas)
    assert Match.objects.filter(competition=imported, table__isnull=False).count() == len(vacas)
    assert (stats_store.PairHandStats.objects.filter(match__competition=imported).count()
            == 2 * len(vacas))


@pytest.mark.django_db(transaction=True)
def test_the_worker_checkpoints_sqlite_s_wal_in_its_pause_not_in_its_transactions(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A COMMIT that takes the WAL past 1,000 pages copies it into the database in the
    same call, after the lock is released: the worker counted it as the lock held. Its
    connection checkpoints in its pauses instead, timed apart."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's WAL")
    monkeypatch.setattr(pacing, "checkpoints", None)
    monkeypatch.setattr(pacing, "CHECKPOINT_SECONDS", 60.0)
    pacing.own_checkpoints()
    own = pacing.checkpoints
    assert own is not None
    with pacing.short_transaction("a worker's write"):
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            assert cursor.fetchone()[0] == 0
        WorkerBeat.objects.create(worker_id="w0", host="h", pid=1, queues="q")
    assert own.count == 0  # within a second of the last one: none
    monkeypatch.setattr(pacing, "CHECKPOINT_SECONDS", 0.0)
    checkpoint = pacing.checkpoint

    def slow_checkpoint() -> float:
        time.sleep(0.3)  # a slow disk's fsync
        return checkpoint() + 0.3

    monkeypatch.setattr(pacing, "checkpoint", slow_checkpoint)
    with caplog.at_level("DEBUG", logger="muscore.pacing"), \
            pacing.short_transaction("a worker's write") as hold:
        WorkerBeat.objects.create(worker_id="w1", host="h", pid=1, queues="q")
    assert own.count == 1 and own.pages >= 1
    assert hold.seconds < 0.25, "the checkpoint is no lock of the transaction's"
    assert not any(r.levelname == "WARNING" for r in caplog.records)
    assert any("checkpoint copied" in r.getMessage() for r in caplog.records)
    # The worker's end (a process that goes on: call_command): SQLite's own again.
    pacing.automatic_checkpoints()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone()[0] == 1000
    assert checkpoint() == 0.0 and own.count == 1
    call_command("rating_worker", once=True, only="imports")  # its own, then SQLite's
    assert pacing.checkpoints is not own and pacing.checkpoints is not None
    assert not pacing.checkpoints.on


def niceness(thread: int = 0) -> int:
    """A thread's niceness (Linux: each thread has its own; 0: the calling one)."""
    return os.getpriority(os.PRIO_PROCESS, thread or threading.get_native_id())


@pytest.fixture
def lock_nice(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A worker of this process whose transactions run 5 below the test's niceness (as
    root, or with an RLIMIT_NICE that allows it: the refused case has its own test)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("a thread's own niceness: Linux's")
    own = niceness()
    wanted = max(-20, own - 5)
    if os.geteuid() != 0 and 20 - resource.getrlimit(resource.RLIMIT_NICE)[0] > wanted:
        pytest.skip("neither root nor an RLIMIT_NICE that allows a lower niceness")
    monkeypatch.setenv("MUSCORE_WORKER_LOCK_NICE", str(wanted))
    monkeypatch.setattr(pacing, "priority", None)
    pacing.own_priority()
    yield wanted
    pacing.common_priority()
    assert niceness() == own


@pytest.mark.django_db(transaction=True)
def test_a_worker_holds_sqlite_s_lock_at_a_lower_niceness_and_only_then(
        lock_nice: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine the lock is held as long as the worker is kept off the cores
    (issue 40 point 7): its thread runs at MUSCORE_WORKER_LOCK_NICE from its BEGIN to its
    COMMIT or ROLLBACK, at its own in the pause after it and everywhere else; the other
    threads of its process (the heartbeat's) keep theirs; on PostgreSQL (rows locked by a
    server process) and inside a request's transaction nothing changes."""
    own = niceness()
    other_ready, other_done = threading.Event(), threading.Event()
    other: list[int] = []

    def heartbeat() -> None:
        other.append(threading.get_native_id())
        other_ready.set()
        other_done.wait(30)

    beat = threading.Thread(target=heartbeat)
    beat.start()
    assert other_ready.wait(30)
    paused: list[int] = []
    pause = pacing.pause

    def noted_pause(held: float, what: str = "") -> None:
        paused.append(niceness())
        pause(held, what)

    monkeypatch.setattr(pacing, "pause", noted_pause)
    sqlite = connection.vendor == "sqlite"
    inside = lock_nice if sqlite else own
    try:
        with pacing.short_transaction("a worker's write"):
            assert niceness() == inside
            assert niceness(other[0]) == own
            WorkerBeat.objects.create(worker_id="w0", host="h", pid=1, queues="q")
        with pytest.raises(RuntimeError), pacing.short_transaction("a failed write"):
            assert niceness() == inside
            raise RuntimeError("rolled back")
        assert niceness() == own and paused == [own]
        pacing.in_chunks([1, 2, 3], lambda chunk: paused.append(niceness()), "chunks",
                         first=1, most=1, target=1.0)
        assert paused[1:] == [inside, own] * 3
        with transaction.atomic(), pacing.short_transaction("inside a request's"):
            assert niceness() == own
    finally:
        other_done.set()
        beat.join(30)
    assert niceness() == own and pacing.priority is not None
    assert pacing.priority.raised == (5 if sqlite else 0)
    pacing.common_priority()  # the worker ended: its own throughout
    with pacing.short_transaction("after the worker"):
        assert niceness() == own


@pytest.mark.django_db(transaction=True)
def test_a_worker_refused_a_lower_niceness_says_so_once_and_writes_as_before(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """No CAP_SYS_NICE and no LimitNICE (EPERM, or EACCES as Linux says it for a niceness):
    the worker writes exactly as without the setting, one warning in its log saying how to
    allow it; "off" asks nothing at all."""
    if connection.vendor != "sqlite" or not sys.platform.startswith("linux"):
        pytest.skip("the lock's niceness: SQLite's, on Linux")
    asked: list[int] = []

    def refused(which: int, who: int, nice: int) -> None:
        asked.append(nice)
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(pacing.os, "setpriority", refused)
    monkeypatch.setattr(pacing, "priority", None)
    monkeypatch.setenv("MUSCORE_WORKER_LOCK_NICE", str(niceness() - 5))
    pacing.own_priority()
    with caplog.at_level("DEBUG", logger="muscore.pacing"):
        for n in range(3):
            with pacing.short_transaction("a worker's write"):
                WorkerBeat.objects.create(worker_id=f"w{n}", host="h", pid=1, queues="q")
    assert WorkerBeat.objects.count() == 3 and len(asked) == 1
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and "LimitNICE=" in warned[0] and "=off" in warned[0], warned
    assert pacing.priority is not None and pacing.priority.raised == 0
    monkeypatch.setenv("MUSCORE_WORKER_LOCK_NICE", "off")
    pacing.own_priority()
    with pacing.short_transaction("a worker's write"):
        WorkerBeat.objects.create(worker_id="w3", host="h", pid=1, queues="q")
    assert pacing.priority is None and len(asked) == 1


def test_the_lock_s_niceness_is_a_niceness_or_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUSCORE_WORKER_LOCK_NICE", raising=False)
    assert pacing.lock_nice() == pacing.LOCK_NICE == -10
    for value, nice in (("-5", -5), (" 0 ", 0), ("OFF", None), ("", None)):
        monkeypatch.setenv("MUSCORE_WORKER_LOCK_NICE", value)
        assert pacing.lock_nice() == nice
    for value in ("-21", "20", "high"):
        monkeypatch.setenv("MUSCORE_WORKER_LOCK_NICE", value)
        with pytest.raises(ValueError, match="MUSCORE_WORKER_LOCK_NICE"):
            pacing.lock_nice()
