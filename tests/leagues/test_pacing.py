"""The workers' transactions leave SQLite's one write lock to the site between them
(muscore.leagues.pacing, issue 21: no request waits long behind a worker): a pause after
each, on SQLite and outside any transaction only."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from muscore.leagues import documents, imports, pacing, prepared, rating_store, results
from muscore.leagues.models import Match, PreparedPart, RatingBacklog
from tests.clubs.factory import make_club, make_league, make_user
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.postgres


def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """This thread's pauses. pacing.time is the time module itself: another thread of the
    worker (a held publish's one-second wait, a live hub) sleeps for real and is not
    counted, or its sleeps would be taken for the pacing's on PostgreSQL."""
    slept: list[float] = []
    real, me = time.sleep, threading.get_ident()

    def sleep(seconds: float) -> None:
        if threading.get_ident() == me:
            slept.append(seconds)
        else:
            real(seconds)

    monkeypatch.setattr(pacing.time, "sleep", sleep)
    return slept


@pytest.mark.django_db(transaction=True)
def test_a_worker_s_transaction_is_followed_by_a_pause_on_sqlite_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slept = sleeps(monkeypatch)
    competition, _user = liguilla(4)
    with pacing.short_transaction():
        PreparedPart.objects.create(competition=competition, kind="probe", revision=1, part=1,
                                    body=b"x")
    pacing.pause(1.0)  # a long hold: the pause is bounded
    pacing.pause(0.0)  # a very short one: still long enough for a waiter's first tries
    if connection.vendor == "sqlite":
        assert len(slept) == 3
        assert pacing.MIN_PAUSE <= slept[0] <= pacing.MAX_PAUSE
        assert slept[1:] == [pacing.MAX_PAUSE, pacing.MIN_PAUSE]
    else:  # PostgreSQL queues whoever waits for a row
        assert slept == []


@pytest.mark.django_db(transaction=True)
def test_a_worker_s_transaction_past_the_lock_limit_is_logged_by_name(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Where a writer waited, the worker's log says which of its transactions held it."""
    sleeps(monkeypatch)
    with caplog.at_level("WARNING", logger="muscore.pacing"):
        pacing.pause(pacing.LOG_OVER / 2, "a short one")
        pacing.pause(pacing.LOG_OVER + 0.05, "an import's end")
    assert [r.getMessage() for r in caplog.records] == [
        f"a worker's transaction (an import's end) took {(pacing.LOG_OVER + 0.05) * 1000:.0f}"
        f" ms, past the {pacing.LOG_OVER * 1000:.0f} ms of a lock"]


@pytest.mark.django_db
def test_no_pause_inside_a_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's write (or a test's transaction) is never slowed by a pause."""
    slept = sleeps(monkeypatch)
    with transaction.atomic():
        pacing.pause(0.05)
    assert slept == []


@pytest.mark.django_db(transaction=True)
def test_the_workers_pause_after_each_of_their_transactions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rating worker's chunks and the document worker's pieces each pause after."""
    held: list[float] = []
    monkeypatch.setattr(pacing, "pause", lambda took, what="": held.append(took))
    competition, user = liguilla(4, legs=2)
    prepared.store(competition.pk, prepared.EXPORT, competition.revision,
                   [b"a" * 10, b"b" * 10, b"c" * 10])
    assert len(held) == 3  # one per piece written
    prepared.store(competition.pk, prepared.EXPORT, competition.revision, [b"d"])
    assert len(held) == 3 + 4 + 1  # the three older pieces dropped one by one, the new one

    held.clear()
    monkeypatch.setattr(rating_store, "CHUNK", 1)
    monkeypatch.setattr(rating_store, "MAX_CHUNK", 1)
    _rerate_all_chunked(competition)
    assert len(held) >= 2 and all(h >= 0 for h in held)


def _rerate_all_chunked(competition: Any) -> None:
    for n, match in enumerate(Match.objects.filter(competition=competition).order_by("number")):
        results.record_result(match, by=competition.created_by, juegos=[3, 1] if n % 2
                              else [1, 3])
    first = Match.objects.filter(competition=competition).order_by("result_at", "pk").first()
    assert first is not None and first.result_at is not None
    RatingBacklog.objects.create(club_id=competition.club_id, since_at=first.result_at,
                                 since_match=first.pk)
    assert rating_store.catch_up() == 1


@pytest.mark.django_db(transaction=True)
def test_the_import_worker_pauses_after_each_of_its_transactions(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    held: list[str] = []
    monkeypatch.setattr(pacing, "pause", lambda took, what="": held.append(what))
    monkeypatch.setattr(imports, "BATCH_SECONDS", 0)  # a pair or a match a transaction
    organiser = make_user("maite")
    exported = documents.league_document(
        make_league(make_club("Peña Txoko", organiser), 8, results=9), hands=True)
    imports.import_competition(make_club("Bar Kaixo", organiser), exported, by=organiser)
    assert held == []  # the request: no pause
    imports.catch_up()
    # Each pair, the frame, each match, the end: each its own transaction, named in the log.
    assert held == (["an import's pairs"] * len(exported["pairs"]) + ["an import's frame"]
                    + ["an import's matches"] * len(exported["matches"]) + ["an import's end"])


@pytest.mark.django_db(transaction=True)
def test_the_pause_is_as_long_as_the_transaction_it_follows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer whose busy handler slept through one pause must not sleep through the
    next transaction too (issue 28: a writer waited 481 ms behind the rating worker's
    catch-up at load 10 with pauses half as long as the transactions)."""
    slept = sleeps(monkeypatch)
    for held in (0.03, 0.06, 0.09):
        pacing.pause(held)
    if connection.vendor == "sqlite":
        assert slept == [0.03, 0.06, 0.09]
    assert pacing.MIN_PAUSE >= 0.02  # past a waiter's first tries (1, 2, 5, 10 ms apart)


@pytest.mark.django_db(transaction=True)
def test_the_pause_scale_shortens_every_pause_and_refuses_a_bad_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """MUSCORE_WORKER_PAUSE_SCALE (the tests' workers, a restore): the pause times it, bounds
    included; 0 leaves none; a value that is no share stops the worker at its start."""
    slept = sleeps(monkeypatch)
    monkeypatch.setattr(pacing, "PAUSE_SCALE", 0.25)
    for held in (0.0, 0.06, 1.0):
        pacing.pause(held)
    monkeypatch.setattr(pacing, "PAUSE_SCALE", 0.0)
    pacing.pause(0.06)
    if connection.vendor == "sqlite":
        assert slept == pytest.approx([pacing.MIN_PAUSE / 4, 0.015, pacing.MAX_PAUSE / 4])
    else:
        assert slept == []
    monkeypatch.delenv("MUSCORE_WORKER_PAUSE_SCALE", raising=False)
    assert pacing.pause_scale() == 1
    for good, scale in (("0", 0), ("0.25", 0.25)):
        monkeypatch.setenv("MUSCORE_WORKER_PAUSE_SCALE", good)
        assert pacing.pause_scale() == scale
    for bad in ("2", "-1", "half", "nan"):
        monkeypatch.setenv("MUSCORE_WORKER_PAUSE_SCALE", bad)
        with pytest.raises(ValueError, match="MUSCORE_WORKER_PAUSE_SCALE"):
            pacing.pause_scale()
    # Read by the worker at its start, before any work; never by a server's import.
    with pytest.raises(ValueError, match="MUSCORE_WORKER_PAUSE_SCALE"):
        call_command("rating_worker", "--once")
