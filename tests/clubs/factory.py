"""Plain make_* helpers for the club tests (no fixture framework)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from muscore.clubs import services
from muscore.clubs.models import Club, Pair

PASSWORD = "mus-de-los-jueves-2026"


def make_user(username: str = "maite") -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def make_club(name: str = "Bar Txoko", organiser: Any = None) -> Club:
    return services.create_club(name, organiser=organiser or make_user())


def make_pair(club: Club, *players: str, name: str = "") -> Pair:
    names = list(players) or ["Ana", "Bea"]
    return services.save_pair(club, name or " y ".join(names), names)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_league(
    club: Club,
    pairs: int = 6,
    *,
    format: str = "liguilla",
    legs: int = 1,
    groups: int = 2,
    results: int | None = None,
) -> Any:
    """A drawn competition of `pairs` new pairs with its first `results` matches played by
    hand (all the group matches when None), one of them a no-show."""
    from muscore.leagues import competitions
    from muscore.leagues import results as league_results
    from muscore.leagues.models import Match

    organiser = club.memberships.first().user  # type: ignore[union-attr]
    names = [
        "Ana",
        "Bea",
        "Carlos",
        "Dani",
        "Eva",
        "Fermín",
        "Gorka",
        "Hugo",
        "Iker",
        "Jon",
        "Koldo",
        "Leire",
        "Maite",
        "Nerea",
        "Oier",
        "Pello",
    ]
    made = [
        make_pair(club, names[2 * i % 16] + str(i), names[(2 * i + 1) % 16] + str(i))
        for i in range(pairs)
    ]
    competition = competitions.create_competition(
        club,
        by=organiser,
        name="Liga de invierno",
        pairs=made,
        format=format,
        legs=legs,
        groups=groups,
        draw=list(range(pairs)),
    )
    todo = Match.objects.filter(competition=competition, tie__isnull=True).order_by("number")
    for n, match in enumerate(todo[:results] if results is not None else todo):
        if n == 2:
            league_results.record_no_show(match, by=organiser, who=1)
        else:
            league_results.record_result(
                match,
                by=organiser,
                juegos=[3, n % 3] if n % 2 else [n % 3, 3],
                # Tantos the juegos allow: the winner 3 x 40 and some, the loser its juegos'.
                tantos=([120 + n % 3, 40 * (n % 3) + n] if n % 2
                        else [40 * (n % 3) + n, 120 + n % 3]),
            )
    return competition
