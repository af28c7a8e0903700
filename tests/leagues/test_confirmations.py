"""Results both pairs agree on (muscore.leagues.confirmations), on a fixed clock: a pair's
claim waits (never in the standings) until the other pair confirms it, an organiser
accepts it, or 24 hours pass undisputed; a dispute waits for the organiser's decision."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from muscore.leagues import confirmations, results
from muscore.leagues.models import (
    ClaimEvent,
    Competition,
    Correction,
    Match,
    ResultClaim,
    SideKey,
)
from muscore.leagues.results import standings as results_standings
from tests.clubs.factory import make_user
from tests.leagues.helpers import game

from .factory import liguilla

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 11, 27, 21, 30, tzinfo=UTC)


def line(competition: Competition, entry_id: int | None) -> tuple[int, int, int]:
    """(played, points, juegos_for) of an entry, from the standings."""
    competition.refresh_from_db()
    for table in results_standings.standings(competition):
        for row in table.rows:
            if competition.entries.get(index=row.pair).pk == entry_id:
                return row.played, row.points, row.juegos_for
    raise AssertionError(entry_id)


def first_match(competition: Competition) -> Match:
    match = competition.matches.order_by("number").first()
    assert match is not None
    return match


def fresh(match: Match) -> Match:
    return Match.objects.select_related("competition__club").get(pk=match.pk)


def test_keys_are_made_once_and_name_their_side() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    keys = confirmations.keys_for([match])[match.pk]
    assert set(keys) == {0, 1} and keys[0] != keys[1] and len(keys[0]) >= 22
    assert confirmations.keys_for([match])[match.pk] == keys
    assert confirmations.side_of(match, keys[0]) == 0
    assert confirmations.side_of(match, keys[1]) == 1
    assert confirmations.side_of(match, keys[0][:-1] + "x") is None
    assert confirmations.side_of(match, "") is None
    # Another match's key opens nothing here.
    other = competition.matches.order_by("number")[1]
    other_keys = confirmations.keys_for([other])[other.pk]
    assert confirmations.side_of(match, other_keys[0]) is None


def test_a_claim_is_pending_until_the_other_pair_confirms() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    claim = confirmations.claim(match, side=0, juegos=[3, 1], tantos=[120, 80], now=T0)
    assert claim.status == "pending" and claim.claimed_at == T0
    match = fresh(match)
    assert match.outcome is None and line(competition, match.first_id) == (0, 0, 0)
    revision = competition.revision
    # The claiming pair cannot confirm its own result.
    with pytest.raises(confirmations.ClaimForbidden):
        confirmations.confirm(match, side=0, now=T0 + timedelta(minutes=5))
    later = T0 + timedelta(minutes=10)
    confirmations.confirm(match, side=1, now=later)
    match = fresh(match)
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 1))
    assert (match.outcome.tantos[0], match.outcome.tantos[1], match.outcome.winner) == (120, 80, 0)
    assert match.result_at == later
    assert line(competition, match.first_id) == (1, 2, 3)
    assert competition.revision > revision
    claim.refresh_from_db()
    assert claim.status == "confirmed" and claim.decided_at == later
    audit = Correction.objects.get(match=match)
    assert audit.action == "confirmed" and audit.by is None and audit.at == later
    assert audit.after_result.value().juegos == (3, 1) and audit.before_result is None
    assert list(claim.events.values_list("action", "side")) == [("claim", 0), ("confirm", 1)]


def test_a_claim_on_a_match_with_a_result_is_refused() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    results.record_result(match, by=user, juegos=[3, 0], reason="acta")
    with pytest.raises(confirmations.ClaimForbidden):
        confirmations.claim(fresh(match), side=0, juegos=[3, 1], now=T0)
    assert not ResultClaim.objects.exists()


def test_bad_figures_and_a_second_claim_are_refused_with_nothing_saved() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    for juegos in ([2, 1], [3, 3], [4, 0], [-1, 3]):
        with pytest.raises(confirmations.ClaimError):
            confirmations.claim(match, side=0, juegos=juegos, now=T0)
    with pytest.raises(confirmations.ClaimError):
        confirmations.claim(match, side=2, juegos=[3, 0], now=T0)
    assert not ResultClaim.objects.exists() and not ClaimEvent.objects.exists()
    confirmations.claim(match, side=0, juegos=[3, 1], now=T0)
    for side in (0, 1):
        with pytest.raises(confirmations.ClaimError):
            confirmations.claim(match, side=side, juegos=[1, 3], now=T0)
    assert ResultClaim.objects.count() == 1


def test_an_organiser_accepts_or_rejects_and_nobody_else_can() -> None:
    competition, user = liguilla(4)
    matches = list(competition.matches.order_by("number")[:2])
    stranger = make_user("intruso")
    confirmations.claim(matches[0], side=1, juegos=[0, 3], now=T0)
    with pytest.raises(PermissionDenied):
        confirmations.accept(matches[0], by=stranger, now=T0)
    with pytest.raises(PermissionDenied):
        confirmations.reject(matches[0], by=None, now=T0)
    assert fresh(matches[0]).outcome is None
    soon = T0 + timedelta(hours=1)
    accepted = confirmations.accept(matches[0], by=user, note="Lo vi yo", now=soon)
    assert accepted.status == "accepted" and accepted.decided_by == user
    assert accepted.note == "Lo vi yo"
    assert fresh(matches[0]).outcome.winner == 1
    assert Correction.objects.get(match=matches[0]).by == user

    confirmations.claim(matches[1], side=0, juegos=[3, 2], now=T0)
    rejected = confirmations.reject(matches[1], by=user, note="Era 2-3", now=T0)
    assert rejected.status == "rejected" and fresh(matches[1]).outcome is None
    # Rejected: either pair may claim again.
    again = confirmations.claim(matches[1], side=1, juegos=[2, 3], now=T0)
    assert again.status == "pending"


def test_unconfirmed_results_count_after_24_hours_as_of_then() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    claim = confirmations.claim(match, side=0, juegos=[3, 2], now=T0)
    assert confirmations.accept_due(now=T0 + timedelta(hours=23, minutes=59)) == 0
    assert fresh(match).outcome is None
    late = T0 + timedelta(hours=30)
    assert confirmations.accept_due(competition=competition, now=late) == 1
    match = fresh(match)
    claim.refresh_from_db()
    due = T0 + timedelta(hours=24)
    assert claim.status == "auto" and claim.decided_at == due
    assert match.outcome.source == "manual" and match.result_at == due
    audit = Correction.objects.get(match=match)
    assert audit.action == "auto_accept" and audit.at == due
    assert line(competition, match.first_id) == (1, 2, 3)
    # Running again (cron twice, or late) changes nothing.
    assert confirmations.accept_due(now=late + timedelta(days=3)) == 0
    assert Correction.objects.filter(match=match).count() == 1


def test_a_disputed_claim_is_never_accepted_by_itself() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=0, juegos=[3, 0], now=T0)
    with pytest.raises(confirmations.ClaimForbidden):
        confirmations.dispute(match, side=0, now=T0)
    confirmations.dispute(match, side=1, note="Fue 3-2, no 3-0", now=T0 + timedelta(hours=1))
    with pytest.raises(confirmations.ClaimError):
        confirmations.dispute(match, side=1, now=T0 + timedelta(hours=2))
    # The claiming pair cannot withdraw a disputed claim: the organiser decides.
    with pytest.raises(confirmations.ClaimError):
        confirmations.withdraw(match, side=0, now=T0)
    assert confirmations.accept_due(now=T0 + timedelta(days=10)) == 0
    claim = ResultClaim.objects.get()
    assert claim.status == "disputed" and fresh(match).outcome is None
    event = claim.events.get(action="dispute")
    assert (event.side, event.note) == (1, "Fue 3-2, no 3-0")
    # The organiser decides, with a note; the log keeps who and why.
    confirmations.accept(match, by=user, note="Recuento revisado: 3-0", now=T0 + timedelta(2))
    claim.refresh_from_db()
    assert claim.status == "accepted" and fresh(match).outcome.juegos[1] == 0
    assert list(claim.events.values_list("action", flat=True)) == ["claim", "dispute", "accept"]


def test_the_disputing_pair_may_confirm_after_all() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=1, juegos=[1, 3], now=T0)
    confirmations.dispute(match, side=0, now=T0)
    confirmations.confirm(match, side=0, now=T0 + timedelta(minutes=30))
    assert ResultClaim.objects.get().status == "confirmed"
    assert fresh(match).outcome.winner == 1


def test_withdrawing_and_the_link_after_the_result() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=0, juegos=[3, 1], now=T0)
    with pytest.raises(confirmations.ClaimForbidden):
        confirmations.withdraw(match, side=1, now=T0)
    confirmations.withdraw(match, side=0, now=T0)
    assert ResultClaim.objects.get().status == "withdrawn"
    with pytest.raises(confirmations.ClaimError):
        confirmations.confirm(match, side=1, now=T0)
    confirmations.claim(match, side=0, juegos=[3, 2], now=T0)
    # The organiser enters the result by hand: the open claim is closed, links change nothing.
    results.record_result(match, by=user, juegos=[2, 3], reason="acta")
    assert confirmations.accept_due(now=T0 + timedelta(days=2)) == 1
    closed = next(c for c in ResultClaim.objects.all() if c.claimed.juegos == (3, 2))
    assert closed.status == "superseded"
    match = fresh(match)
    assert match.outcome.juegos == (2, 3)
    for action in (confirmations.confirm, confirmations.withdraw):
        with pytest.raises(confirmations.ClaimForbidden):
            action(match, side=1, now=T0)


def test_a_knockout_claim_needs_a_winner_and_a_changed_pair_loses_its_link() -> None:
    competition, user = liguilla(4, format="groups", groups=2)
    group_matches = list(competition.matches.filter(tie__isnull=True).order_by("number"))
    semifinal = game(competition, "sf1")
    assert confirmations.keys_for([semifinal]) == {}
    with pytest.raises(confirmations.ClaimError):
        confirmations.claim(semifinal, side=0, juegos=[3, 0], now=T0)
    for m in group_matches:
        results.record_result(m, by=user, juegos=[3, 0], reason="acta")
    semifinal = fresh(semifinal)
    keys = confirmations.keys_for([semifinal])[semifinal.pk]
    assert confirmations.side_of(semifinal, keys[0]) == 0
    # A group result corrected: the semifinal's pairs change, the old links open nothing.
    results.record_result(fresh(group_matches[0]), by=user, juegos=[0, 3], reason="acta")
    before = semifinal.first_id
    semifinal = fresh(semifinal)
    assert semifinal.first_id != before
    assert not SideKey.objects.filter(match=semifinal, entry_id=semifinal.first_id).exists()
    assert confirmations.side_of(semifinal, keys[0]) is None
    assert confirmations.keys_for([semifinal])[semifinal.pk][0] != keys[0]


def test_notes_are_checked() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=0, juegos=[3, 1], now=T0)
    for note in ("x" * 501, "bad\x00note", "a\u202eb"):
        with pytest.raises(confirmations.ClaimError):
            confirmations.dispute(match, side=1, note=note, now=T0)
    assert ResultClaim.objects.get().status == "pending"


def test_the_command_accepts_what_is_due(monkeypatch: Any) -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=0, juegos=[3, 1], now=T0)
    out = StringIO()
    call_command("accept_pending_results", stdout=out)  # the real clock: long past T0 + 24 h
    assert "1 result" in out.getvalue()
    assert fresh(match).result_at == T0 + timedelta(hours=24)


def test_a_database_failure_while_settling_never_fails_the_read(monkeypatch: Any) -> None:
    from django.db import OperationalError

    competition, _user = liguilla(4)
    match = first_match(competition)
    confirmations.claim(match, side=0, juegos=[3, 1], now=T0)

    def busy(*args: Any, **kwargs: Any) -> bool:
        raise OperationalError("database is locked")

    monkeypatch.setattr(confirmations, "_settle", busy)
    assert confirmations.accept_due(competition=competition, now=T0 + timedelta(days=2)) == 0
    monkeypatch.undo()
    assert confirmations.accept_due(competition=competition, now=T0 + timedelta(days=2)) == 1
