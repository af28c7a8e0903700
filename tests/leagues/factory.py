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
