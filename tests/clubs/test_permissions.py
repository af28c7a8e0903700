"""Only a club's organisers change it: a visitor or another club's organiser gets a 403 on
every page that writes, and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from muscore.clubs.models import Club, Membership, Pair, Player
from tests.clubs.factory import logged_in, make_club, make_pair, make_user

pytestmark = pytest.mark.django_db


def snapshot() -> list[Any]:
    return [
        list(Club.objects.values_list("pk", "name", "slug")),
        list(Membership.objects.values_list("pk", "club", "user")),
        list(Player.objects.values_list("pk", "name")),
        list(Pair.objects.values_list("pk", "name")),
        list(get_user_model().objects.values_list("pk", "username", "password")),
    ]


def writes(club: Club) -> list[tuple[str, dict[str, str]]]:
    """Every page of a club that writes, with a valid form for it."""
    pair = club.pairs.get()
    player = club.players.first()
    assert player is not None
    membership = Membership.objects.get(club=club, created_account=True)
    s = club.slug
    return [
        (f"/club/{s}/editar", {"name": "Otro nombre"}),
        (f"/club/{s}/organizadores", {"username": "intruso"}),
        (f"/club/{s}/organizadores/{membership.pk}/clave", {}),
        (f"/club/{s}/jugadores/nuevo", {"name": "Zoe"}),
        (f"/club/{s}/jugadores/{player.pk}/", {"name": "Ane"}),
        (f"/club/{s}/parejas/nueva", {"player1": "Zoe", "player2": "Yon"}),
        (f"/club/{s}/parejas/{pair.pk}/editar", {"player1": "Ane", "player2": "Unai"}),
    ]


@pytest.fixture
def club() -> Club:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    maite = club.memberships.get().user
    logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    return club


VISITORS: dict[str, Callable[[], Client]] = {
    "visitor": Client,
    "another club's organiser": lambda: logged_in(
        make_club("Peña", make_user("otro")).memberships.get().user
    ),
}


@pytest.mark.parametrize("who", VISITORS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_nobody_but_an_organiser_changes_a_club(club: Club, who: str, method: str) -> None:
    client = VISITORS[who]()
    before = snapshot()
    for url, data in writes(club):
        response = getattr(client, method)(url, data)
        # A GET of a form page is refused too; the reset link takes POST only (405 first).
        expected = {403, 405} if method == "get" else {403}
        assert response.status_code in expected, (url, method, response.status_code)
    assert snapshot() == before


def test_the_organiser_is_allowed_the_same_pages(club: Club) -> None:
    client = logged_in(club.memberships.get(invited_by=None).user)
    for url, data in writes(club):
        assert client.post(url, data).status_code in (200, 302), url
