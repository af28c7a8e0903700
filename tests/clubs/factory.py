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
