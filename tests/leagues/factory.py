"""Clubs with pairs and competitions for the league service tests."""

from __future__ import annotations

from typing import Any

from muscore.clubs.models import Club, Pair
from muscore.leagues import competitions
from muscore.leagues.models import Competition
from tests.clubs.factory import make_club, make_pair, make_user

NAMES = [("Ana", "Bea"), ("Carlos", "Dani"), ("Eva", "Fermín"), ("Gorka", "Hugo"),
         ("Irene", "Jon"), ("Koldo", "Lur"), ("Mikel", "Nerea"), ("Oier", "Paula")]


def club_with_pairs(count: int = 4, organiser: Any = None) -> tuple[Club, Any, list[Pair]]:
    user = organiser or make_user()
    club = make_club(organiser=user)
    pairs = [make_pair(club, *(NAMES[i] if i < len(NAMES) else (f"J{i}a", f"J{i}b")))
             for i in range(count)]
    return club, user, pairs


def liguilla(count: int = 4, legs: int = 1, organiser: Any = None,
             **extra: Any) -> tuple[Competition, Any]:
    club, user, pairs = club_with_pairs(count, organiser)
    competition = competitions.create_competition(
        club, by=user, name="Liga de los jueves", pairs=pairs, legs=legs,
        draw=list(range(count)), **extra)
    return competition, user


def knockout(places: list[int | None], best_of: int = 3, third: bool = True,
             organiser: Any = None) -> tuple[Competition, Any]:
    """A knockout alone (a championship's knockout phase, as the league keeps it) of the
    pairs ``places`` names, drawn into its bracket (None a bye) with its first games."""
    from muscore.leagues.results import bracket

    count = max(p for p in places if p is not None) + 1
    club, user, pairs = club_with_pairs(count, organiser)
    competition = competitions.create_competition(
        club, by=user, name="Eliminatoria", pairs=pairs, format=Competition.Format.KNOCKOUT)
    bracket.draw(competition, places, best_of=best_of, third=third)
    return competition, user
