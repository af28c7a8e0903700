"""The stored ratings: equal to openskill's own computation, kept in step with every result,
and the same after a correction as computed afresh (muscore.leagues.rating_store)."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command

from muscore.clubs.models import Club, Player
from muscore.leagues import competitions, documents, rating_store, results
from muscore.leagues.compute.ratings import RatedMatch, rate
from muscore.leagues.models import (
    Competition,
    Match,
    PlayerRating,
    RatingMatch,
    RatingPoint,
    from_q,
)
from tests.clubs.factory import make_user

from .factory import club_with_pairs, liguilla
from .test_cli import cli
from .test_ratings import reference

pytestmark = pytest.mark.django_db


def match(competition: Competition, number: int) -> Match:
    return Match.objects.get(competition=competition, number=number)


def stored(club: Club) -> dict[str, tuple[float, float, int]]:
    """Each rated player's stored (mu, sigma, matches), by name."""
    return {r.player.name: (r.mu, r.sigma, r.matches)
            for r in PlayerRating.objects.filter(club=club).select_related("player")}


def points(club: Club) -> list[tuple[Any, ...]]:
    return list(RatingPoint.objects.filter(club=club).order_by("arrived_at", "match_id",
                                                               "player_id").values_list(
        "player_id", "match_id", "arrived_at", "side", "won", "mu", "sigma", "nivel", "matches"))


def snapshot(club: Club) -> tuple[Any, ...]:
    return stored(club), points(club)


def from_history(club: Club) -> list[RatedMatch]:
    """The club's rated matches as the pure module takes them: who sat, by name, in the
    club's rating order."""
    out = []
    for m in Match.objects.filter(competition__club=club, rating_place__isnull=False).played(
            ).exclude(from_q("no_show")).with_outcome().select_related(
            "first__pair", "second__pair").order_by("rating_place__arrived_at", "pk"):
        first, second = competitions.match_players(m)
        assert m.outcome.winner is not None
        out.append(RatedMatch(first, second, m.outcome.winner))
    return out


def played_league() -> tuple[Competition, Any]:
    """Four pairs, one leg, played in match-number order: a substitute who sits for two
    pairs, a no-show, a match neither pair turned up to, and one match not played."""
    competition, user = liguilla(4)
    club = competition.club
    results.record_result(match(competition, 1), by=user, juegos=[3, 1], reason="acta")
    results.record_no_show(match(competition, 2), by=user, who=1, reason="acta")
    m3 = match(competition, 3)
    competitions.substitute(m3, by=user, side=0, replaced=competitions.match_players(
        Match.objects.select_related("first__pair", "second__pair").get(pk=m3.pk))[0][0],
        substitute="Iñaki")
    results.record_result(m3, by=user, juegos=[1, 3], reason="acta")
    # Match 4 shares match 3's round: one person, one table a round (issue 27), so Iñaki's
    # second match is the next round's.
    results.record_no_show(match(competition, 4), by=user, who="both", reason="acta")
    m5 = Match.objects.select_related("first__pair", "second__pair").get(pk=match(
        competition, 5).pk)
    competitions.substitute(m5, by=user, side=1, replaced=competitions.match_players(m5)[1][1],
                       substitute="Iñaki")
    results.record_result(m5, by=user, juegos=[3, 2], reason="acta")
    assert club.players.filter(name="Iñaki").exists()
    return competition, user


def test_stored_ratings_equal_openskill_with_substitutes_and_no_shows() -> None:
    competition, _user = played_league()
    club = competition.club
    got = stored(club)
    # openskill called directly on the league document (tests/leagues/test_ratings.py).
    doc = documents.league_document(competition)
    expected = reference(doc)
    assert set(got) == set(expected)
    for name, (mu, sigma, n) in expected.items():
        assert got[name] == (mu, sigma, n), name  # the very same floats
    assert got["Iñaki"][2] == 2  # rated for what he played, for two pairs
    # and the pure module on the club's history, with each player's nivel after each match
    for rating in rate(from_history(club)):
        player = Player.objects.get(club=club, name=rating.player)
        assert got[rating.player] == (rating.mu, rating.sigma, rating.matches)
        assert list(RatingPoint.objects.filter(player=player).order_by(
            "arrived_at", "match_id").values_list("nivel", flat=True)) == rating.history


def test_a_correction_re_rates_what_follows_and_equals_computing_afresh() -> None:
    competition, user = played_league()
    club = competition.club
    results.record_result(match(competition, 6), by=user, juegos=[0, 3], reason="acta")
    first_place = RatingMatch.objects.get(match=match(competition, 1)).arrived_at
    kept = set(RatingPoint.objects.filter(match=match(competition, 1)).values_list(
        "pk", flat=True))
    before = snapshot(club)
    # Correct match 3 (winner flips): match 1's points stay as they were, the rest move.
    results.record_result(match(competition, 3), by=user, juegos=[3, 0], reason="acta")
    after = snapshot(club)
    assert after != before
    assert kept <= set(RatingPoint.objects.values_list("pk", flat=True))
    assert RatingMatch.objects.get(match=match(competition, 1)).arrived_at == first_place
    # A first result corrected keeps its place: match 1 is still rated first.
    results.record_result(match(competition, 1), by=user, juegos=[2, 3], reason="acta")
    assert RatingMatch.objects.get(match=match(competition, 1)).arrived_at == first_place
    results.clear_result(match(competition, 4), by=user, reason="un error")
    incremental = snapshot(club)
    assert [p[1] for p in points(club)][:4] == [match(competition, 1).pk] * 4
    # Afresh, from nothing at all:
    RatingPoint.objects.all().delete()
    PlayerRating.objects.all().delete()
    rating_store.rate_club(club)
    assert snapshot(club) == incremental
    # and equal to the pure computation of the corrected history.
    expected = {r.player: (r.mu, r.sigma, r.matches) for r in rate(from_history(club))}
    assert stored(club) == expected


def test_substitutes_changed_after_the_result_are_rated_again() -> None:
    competition, user = liguilla(4)
    club = competition.club
    m1 = match(competition, 1)
    results.record_result(m1, by=user, juegos=[3, 0], reason="acta")
    own = stored(club)
    m1 = Match.objects.select_related("first__pair", "second__pair").get(pk=m1.pk)
    replaced = competitions.match_players(m1)[0][0]
    competitions.substitute(m1, by=user, side=0, replaced=replaced, substitute="Xabi")
    now = stored(club)
    assert replaced not in now and "Xabi" in now
    assert now["Xabi"] == own[replaced]  # the same match, the same result
    competitions.set_players(m1, by=user, side=0, players=None)
    assert stored(club) == own


def test_every_competition_of_the_club_is_one_history() -> None:
    club, user, pairs = club_with_pairs(4)
    one = competitions.create_competition(club, by=user, name="Liga", pairs=pairs,
                                          draw=[0, 1, 2, 3])
    two = competitions.create_competition(club, by=user, name="Copa", pairs=pairs,
                                          draw=[3, 2, 1, 0])
    results.record_result(match(one, 1), by=user, juegos=[3, 0], reason="acta")
    results.record_result(match(two, 1), by=user, juegos=[0, 3], reason="acta")
    results.record_result(match(one, 2), by=user, juegos=[3, 2], reason="acta")
    incremental = snapshot(club)
    assert [m for _p, m, *_r in points(club)][::4] == [
        match(one, 1).pk, match(two, 1).pk, match(one, 2).pk]
    rating_store.rate_club(club)
    assert snapshot(club) == incremental
    assert stored(club) == {r.player: (r.mu, r.sigma, r.matches) for r in rate(
        from_history(club))}


def test_a_result_refused_rates_nobody() -> None:
    competition, _user = liguilla(4)
    with pytest.raises(PermissionDenied):
        results.record_result(match(competition, 1), by=make_user("intruso"), juegos=[3, 0])
    with pytest.raises(competitions.CompetitionError):
        results.record_result(match(competition, 1), by=_user, juegos=[3, 3], reason="acta")
    assert not RatingPoint.objects.exists() and not PlayerRating.objects.exists()
    assert not RatingMatch.objects.exists()


def test_the_rate_players_command() -> None:
    competition, _user = played_league()
    club = competition.club
    kept = snapshot(club)
    RatingPoint.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingMatch.objects.all().delete()  # placed again from the audit
    out = StringIO()
    call_command("rate_players", club=club.slug, stdout=out)
    assert f"{club.slug}: 3 matches rated" in out.getvalue()
    assert snapshot(club) == kept
    call_command("rate_players", stdout=StringIO())
    assert snapshot(club) == kept
    with pytest.raises(CommandError, match="no club"):
        call_command("rate_players", club="no-such-club")


def test_the_command_line_equals_openskill_called_directly() -> None:
    competition, _user = played_league()
    doc = documents.league_document(competition)
    status, lines = cli("ratings", stdin=json.dumps(doc))
    assert status == 0 and len(lines) == 1
    out = json.loads(lines[0])["ratings"]
    expected = reference(doc)
    assert {row["player"]: (row["mu"], row["sigma"], row["matches"]) for row in out} == expected
    # and the stored ones, for the same league
    assert stored(competition.club) == expected


def test_a_result_from_the_table_is_rated_and_an_undo_takes_it_back() -> None:
    from muscore.tables import services as tables

    from .helpers import ORDAGO_A, ORDAGO_B, PLAIN

    competition, user = liguilla(4)
    club = competition.club
    results.record_result(match(competition, 2), by=user, juegos=[0, 3], reason="acta")
    table = competitions.open_table(match(competition, 1), by=user)
    for record in (PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    m1 = match(competition, 1)
    assert m1.outcome.source == "table" and m1.outcome.winner == 0
    assert RatingPoint.objects.filter(match=m1).count() == 4
    # Its result arrived after match 2's: it is rated after it.
    assert [m for _p, m, *_r in points(club)][::4] == [match(competition, 2).pk, m1.pk]
    rated = snapshot(club)
    tables.undo_last(table, via="edit_link")
    assert not RatingPoint.objects.filter(match=m1).exists()
    tables.add_hand(table, ORDAGO_A, via="edit_link")
    assert snapshot(club) == rated  # the same place, the same ratings
    rating_store.rate_club(club)
    assert snapshot(club) == rated


def test_a_pairs_result_accepted_late_takes_its_place_as_of_then() -> None:
    from datetime import UTC, datetime, timedelta

    from muscore.leagues import confirmations

    competition, user = liguilla(4)
    club = competition.club
    t0 = datetime(2025, 11, 27, 21, 30, tzinfo=UTC)
    confirmations.claim(match(competition, 1), side=0, juegos=[3, 2], now=t0)
    # arrives now
    results.record_result(match(competition, 2), by=user, juegos=[3, 1], reason="acta")
    assert confirmations.accept_due(competition=competition, now=t0 + timedelta(days=2)) == 1
    m1 = match(competition, 1)
    assert RatingMatch.objects.get(match=m1).arrived_at == t0 + timedelta(hours=24)
    # Counted as of 24 hours after the claim: before match 2, which is rated again after it.
    assert [m for _p, m, *_r in points(club)][::4] == [m1.pk, match(competition, 2).pk]
    incremental = snapshot(club)
    rating_store.rate_club(club)
    assert snapshot(club) == incremental
    assert stored(club) == {r.player: (r.mu, r.sigma, r.matches) for r in rate(
        from_history(club))}


def test_a_correction_that_keeps_the_winner_re_rates_nothing() -> None:
    competition, user = played_league()
    club = competition.club
    results.record_result(match(competition, 6), by=user, juegos=[3, 0], reason="acta")
    rows = set(RatingPoint.objects.values_list("pk", flat=True))
    before = snapshot(club)
    results.record_result(match(competition, 1), by=user, juegos=[3, 2], tantos=[130, 110],
        reason="acta")
    # a substitute sat
    results.record_result(match(competition, 3), by=user, juegos=[0, 3], reason="acta")
    # still rates nobody
    results.record_no_show(match(competition, 2), by=user, who=0, reason="acta")
    assert set(RatingPoint.objects.values_list("pk", flat=True)) == rows  # not rewritten
    assert snapshot(club) == before
    # the winner flips
    results.record_result(match(competition, 1), by=user, juegos=[1, 3], reason="acta")
    assert snapshot(club) != before
    incremental = snapshot(club)
    rating_store.rate_club(club)
    assert snapshot(club) == incremental


def test_build_large_club_ends_with_its_players_rated() -> None:
    out = StringIO()
    call_command("build_large_club", pairs=4, legs=1, hands_share=0.5, templates=2, stdout=out)
    club = Competition.objects.get(name="Liga grande").club
    rated = Match.objects.filter(competition__club=club).decided().exclude(
        from_q("no_show")).count()
    assert f"{club.slug}: {rated} matches rated" in out.getvalue()
    assert stored(club) == {r.player: (r.mu, r.sigma, r.matches) for r in rate(
        from_history(club))}
