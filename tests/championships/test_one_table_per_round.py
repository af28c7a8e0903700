"""One person at one table per round across a championship phase (issue 27 item 3): a
phase's groups are competitions of their own, each with its round 1; a substitute in one
group who plays round 1 in another group sat one person at two tables."""

from __future__ import annotations

import pytest

from muscore.leagues import competitions
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Match
from tests.championships.factory import drawn_semifinal

pytestmark = pytest.mark.django_db


def first_match(competition: object, number: int = 1) -> Match:
    match = (Match.objects.filter(competition=competition, round__number=number)
             .exclude(first=None).exclude(second=None)
             .select_related("competition", "first__pair", "second__pair")
             .order_by("number").first())
    assert match is not None
    return match


def test_a_substitute_playing_the_same_round_in_another_group_is_refused() -> None:
    _championship, boss, _barmen, phase = drawn_semifinal()
    one, two = (g.competition for g in phase.groups.select_related("competition")[:2])
    here, there = first_match(one), first_match(two)
    playing = competitions.match_players(there)[0][0]
    own = competitions.match_players(here)[0][0]
    with pytest.raises(CompetitionError, match="ya se sienta en") as refused:
        competitions.substitute(here, by=boss, side=0, replaced=own, substitute=playing)
    assert two.name in str(refused.value)
    here.refresh_from_db()
    assert here.players_first is None
    # Someone from outside the phase may sit in.
    competitions.substitute(here, by=boss, side=0, replaced=own, substitute="Koldo Zubiri")
    here.refresh_from_db()
    assert here.players_first is not None and "Koldo Zubiri" in here.players_first
