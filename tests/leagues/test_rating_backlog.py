"""Re-rating outside the request (issue 21 point 2): a correction or an undo of a large
club's early match only records that the ratings are out of date; `rating_worker` brings
them up to date in short transactions, the pages saying so meanwhile, and they end equal
to a fresh `rate_club` whatever writes joined in the meantime."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from muscore.clubs.models import Club, Player
from muscore.leagues import competitions, rating_store, results
from muscore.leagues.models import Competition, Match, RatingBacklog
from muscore.tables import services as tables

from .factory import liguilla
from .helpers import ORDAGO_A, ORDAGO_B, PLAIN
from .test_rating_store import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

VACA = [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]  # the first pair wins 3-1
WAITING = "se están poniendo al día"


@pytest.fixture(autouse=True)
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small club stands for a large one: more than 2 matches to re-rate waits for the
    # worker, which writes 2 matches per transaction.
    monkeypatch.setattr(rating_store, "INLINE_LIMIT", 2)
    monkeypatch.setattr(rating_store, "CHUNK", 2)
    monkeypatch.setattr(rating_store, "MAX_CHUNK", 2)


def matches(competition: Competition) -> list[Match]:
    return list(Match.objects.filter(competition=competition).select_related(
        "competition__club").order_by("number"))


def season(table_first: bool = False) -> tuple[Competition, Any, Club]:
    """Twelve matches with their results, in order: each rated as it arrives (the last
    one, so inline)."""
    competition, user = liguilla(4, legs=2)
    for n, match in enumerate(matches(competition)):
        if n == 0 and table_first:
            table = competitions.open_table(match, by=user)
            for record in VACA:
                tables.add_hand(table, record, via="edit_link")
        else:
            results.record_result(match, by=user, juegos=[3, 1] if n % 3 else [2, 3], reason="acta")
    assert not RatingBacklog.objects.exists(), "a new result is rated in its own write"
    return competition, user, competition.club


def afresh(club: Club) -> tuple[Any, ...]:
    """What `rate_club` makes of the club's history (what the ratings must end as)."""
    rating_store.rate_club(club)
    return snapshot(club)


def ranking_page(club: Club) -> str:
    return Client().get(reverse("clubs:ranking", args=[club.slug])).content.decode()


def test_an_early_correction_waits_for_the_worker_and_ends_as_computed_afresh() -> None:
    competition, user, club = season()
    before = snapshot(club)
    assert WAITING not in ranking_page(club)
    first, *_rest = matches(competition)
    # the other pair wins it now
    results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    assert rating_store.waiting(club)
    assert snapshot(club) == before, "the write re-rated nothing itself"
    assert WAITING in ranking_page(club)
    player = Player.objects.filter(club=club).first()
    assert player is not None
    page = Client().get(reverse("clubs:player", args=[club.slug, player.pk]))
    assert WAITING in page.content.decode()

    call_command("rating_worker", once=True)
    assert not rating_store.waiting(club)
    assert WAITING not in ranking_page(club)
    caught_up = snapshot(club)
    assert caught_up != before
    assert afresh(club) == caught_up


def test_writes_while_it_waits_join_the_backlog_in_any_order() -> None:
    competition, user, club = season()
    m = matches(competition)
    results.record_result(m[5], by=user, juegos=[0, 3], reason="acta")
    # earlier: the backlog starts there
    results.record_result(m[1], by=user, juegos=[1, 3], reason="acta")
    results.clear_result(m[8], by=user, reason="un error")
    # arrives again, keeps its place
    results.record_result(m[8], by=user, juegos=[3, 2], reason="acta")
    backlog = RatingBacklog.objects.get(club=club)
    assert (backlog.since_match, backlog.version) == (m[1].pk, 4)
    assert rating_store.catch_up() == 1
    caught_up = snapshot(club)
    assert afresh(club) == caught_up


def test_a_write_during_the_catch_up_makes_it_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    competition, user, club = season()
    m = matches(competition)
    results.record_result(m[2], by=user, juegos=[0, 3], reason="acta")
    apply = rating_store._apply
    calls: list[int] = []

    def meanwhile(plan: Any, *, chunked: bool) -> None:
        apply(plan, chunked=chunked)
        if chunked and not calls:
            calls.append(1)
            # A correction lands after the worker read the history and before it ends.
            results.record_result(Match.objects.get(pk=m[0].pk), by=user, juegos=[0, 3],
                reason="acta")

    monkeypatch.setattr(rating_store, "_apply", meanwhile)
    assert rating_store.catch_up() == 2
    assert not rating_store.waiting(club)
    caught_up = snapshot(club)
    assert afresh(club) == caught_up


def test_an_undo_at_an_early_matchs_table_waits_for_the_worker_too() -> None:
    competition, _user, club = season(table_first=True)
    first = matches(competition)[0]
    assert first.outcome.source == "table"
    before = snapshot(club)
    assert first.table is not None
    tables.undo_last(first.table, via="edit_link")  # the vaca is no longer won
    first.refresh_from_db()
    assert first.outcome is None
    assert rating_store.waiting(club) and snapshot(club) == before
    rating_store.catch_up(club.pk)
    caught_up = snapshot(club)
    assert caught_up != before
    assert afresh(club) == caught_up


def test_a_new_result_while_nothing_waits_is_rated_at_once() -> None:
    competition, user, club = season()
    # the last one
    results.record_result(matches(competition)[-1], by=user, juegos=[3, 0], reason="acta")
    assert not rating_store.waiting(club)
    assert afresh(club) == snapshot(club)


def test_an_early_correction_reads_the_clubs_places_unsorted() -> None:
    # RatingMatch's ordering joins the club, the match and the competition: the count of
    # the places after an early match sorted a large club's 39,000 of them inside the
    # correction's transaction (40-83 ms of SQLite's lock at load 8, issue 28).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    competition, user, _club = season()
    first, *_rest = matches(competition)
    with CaptureQueriesContext(connection) as queries:
        results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    places = [q["sql"] for q in queries.captured_queries
              if 'FROM "leagues_ratingmatch"' in q["sql"]]
    assert places, "the correction reads the club's places"
    assert not [sql for sql in places if "ORDER BY" in sql or "JOIN" in sql]


def test_a_re_rating_locks_the_clubs_row_without_its_key() -> None:
    # PostgreSQL: the worker's inserted points name the club (a KEY SHARE lock of its row
    # till each commit); a correction's FOR UPDATE of the club waited for them, FOR NO KEY
    # UPDATE does not (and still makes two re-ratings of the club take turns).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    competition, user, _club = season()
    first, *_rest = matches(competition)
    with CaptureQueriesContext(connection) as queries:
        results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    clubs = [q["sql"] for q in queries.captured_queries
             if q["sql"].startswith('SELECT "clubs_club"."id" AS "pk" FROM "clubs_club"')]
    assert clubs, "the correction locks the club's row"
    if connection.vendor == "postgresql":
        assert all(sql.endswith("FOR NO KEY UPDATE") for sql in clubs)
