"""Random sequences of results through the doors of the one result path (issue 17): the
organiser's results, no-shows and clears, the pairs' claims confirmed, and refused
writes (impossible tantos). After each step the standings drawn from the stored lines
equal those the pure computation gives from the competition's own export, and the
stored lines equal a recount from the matches' stored figures."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muscore.leagues import competitions, confirmations, documents, results
from muscore.leagues.compute.document import read_league
from muscore.leagues.compute.standings import standings_json
from muscore.leagues.models import Competition, Entry, Match
from muscore.leagues.results import standings as results_standings
from tests.clubs.factory import make_club, make_pair, make_user

pytestmark = pytest.mark.django_db

COUNTER = itertools.count()
LINES = ("played", "won", "lost", "forfeits", "points", "juegos_for", "juegos_against",
         "tantos_for", "tantos_against")

step = st.one_of(
    st.tuples(st.just("result"), st.integers(0, 5), st.integers(0, 2), st.integers(0, 1),
              st.booleans()),
    st.tuples(st.just("no_show"), st.integers(0, 5), st.sampled_from([0, 1, "both"])),
    st.tuples(st.just("clear"), st.integers(0, 5)),
    st.tuples(st.just("claim"), st.integers(0, 5), st.integers(0, 2), st.integers(0, 1)),
    st.tuples(st.just("bad_tantos"), st.integers(0, 5)),
    st.tuples(st.just("no_reason"), st.integers(0, 5), st.sampled_from(["result", "clear"])),
)


def new_league() -> tuple[Competition, Any]:
    n = next(COUNTER)
    user = make_user(f"org{n}")
    club = make_club(f"Bar {n}", organiser=user)
    pairs = [make_pair(club, f"A{n}x{i}", f"B{n}x{i}") for i in range(4)]
    competition = competitions.create_competition(club, by=user, name="Liga", pairs=pairs,
                                                  draw=[0, 1, 2, 3])
    return competition, user


def lines(competition: Competition) -> list[tuple[Any, ...]]:
    return list(Entry.objects.filter(competition=competition).order_by("index")
                .values_list("index", *LINES))


def check(competition: Competition) -> None:
    competition.refresh_from_db()
    stored = [row.to_json()
              for row in results_standings.standings(competition, cached=False)[0].rows]
    pure = standings_json(read_league(documents.league_document(competition)))["standings"]
    assert stored == pure
    before = lines(competition)
    results_standings.recount_lines(competition)
    assert lines(competition) == before


def apply(competition: Competition, user: Any, op: tuple[Any, ...]) -> None:
    matches = list(competition.matches.select_related("competition").order_by("number"))
    match = matches[op[1] % len(matches)]
    won = competitions.competition_rules(competition).juegos
    target = competitions.competition_rules(competition).target
    if op[0] == "result":
        _, _, lost, winner, with_tantos = op
        juegos = [won, lost] if winner == 0 else [lost, won]
        tantos = None
        if with_tantos:
            t = [won * target + lost, lost * target + 7]
            tantos = t if winner == 0 else t[::-1]
        results.record_result(match, by=user, juegos=juegos, tantos=tantos, reason="acta")
    elif op[0] == "no_show":
        results.record_no_show(match, by=user, who=op[2], reason="acta")
    elif op[0] == "clear":
        results.clear_result(match, by=user, reason="acta")
    elif op[0] == "no_reason":
        before = lines(competition)
        try:
            if op[2] == "result":
                results.record_result(match, by=user, juegos=[won, 0], reason="  ")
            else:
                results.clear_result(match, by=user)
        except results.ReasonRequired:
            assert match.played  # a correction without its reason: refused, nothing written
            assert lines(competition) == before
        else:
            assert not match.played  # a first result needs no reason
    elif op[0] == "claim":
        _, _, lost, winner = op
        juegos = [won, lost] if winner == 0 else [lost, won]
        try:
            confirmations.claim(match, side=winner, juegos=juegos)
            confirmations.confirm(Match.objects.get(pk=match.pk), side=1 - winner)
        except confirmations.ClaimError:
            pass  # a match with a result already, or a claim open: the door says no
    else:
        before = lines(competition)
        with pytest.raises(competitions.CompetitionError):
            results.record_result(match, by=user, juegos=[won, 0], tantos=[10, 400])
        assert lines(competition) == before


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=8))
def test_every_door_leaves_standings_equal_to_a_recount(ops: list[tuple[Any, ...]]) -> None:
    competition, user = new_league()
    for op in ops:
        apply(competition, user, op)
        check(competition)
