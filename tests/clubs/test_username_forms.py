"""Usernames as Django stores them (NFKC): a fullwidth "ｉｋｅｒ" is the account "iker" to
the login form, so it is to the invitation and new-club forms (a 500 on the unique column
before: issue 21's repeat probe) and to the per-account login limit (each width variant
was a fresh count before)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from muscore.clubs.models import Membership
from tests.clubs.factory import PASSWORD, logged_in, make_club, make_user
from tests.test_rate_limits import RATES, address

pytestmark = pytest.mark.django_db


def fullwidth(name: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in name)


@pytest.fixture
def limits(settings: Settings) -> Iterator[None]:
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {**{k: list(v) for k, v in RATES.items()}, "login": ["3/m"]}
    cache.clear()
    yield
    cache.clear()


def test_inviting_the_fullwidth_name_of_an_account_invites_that_account() -> None:
    organiser = make_user("maite")
    club = make_club(organiser=organiser)
    iker = make_user("iker")
    response = logged_in(organiser).post(
        f"/club/{club.slug}/organizadores", {"username": fullwidth("iker")}
    )
    assert response.status_code == 200
    assert get_user_model().objects.count() == 2
    assert Membership.objects.filter(club=club, user=iker, accepted=False).exists()


def test_a_new_club_with_the_fullwidth_name_of_an_account_is_refused_with_a_message() -> None:
    make_user("iker")
    response = Client().post("/clubs/nuevo", {
        "name": "Bar Txoko", "account-username": fullwidth("iker"),
        "account-password1": PASSWORD, "account-password2": PASSWORD,
    })
    assert response.status_code == 400
    assert "no se puede usar" in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("username", ["\u3164", "ana\u3164", "\u1160bea"])
def test_an_invisible_username_is_refused(username: str) -> None:
    organiser = make_user("maite")
    club = make_club(organiser=organiser)
    response = logged_in(organiser).post(f"/club/{club.slug}/organizadores",
                                         {"username": username})
    assert response.status_code == 400
    assert "invisibles" in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_width_variants_of_a_username_count_as_that_account_at_the_login(limits: None) -> None:
    make_user("maite")
    variants = ["ｍaite", "mａite", "maｉte"]
    for n, variant in enumerate(variants):
        wrong = Client().post("/cuentas/entrar", {"username": variant, "password": "nope"},
                              REMOTE_ADDR=address(60, 20, start=10 * n))
        assert wrong.status_code == 400
    right = Client().post("/cuentas/entrar", {"username": "maitｅ", "password": PASSWORD},
                          REMOTE_ADDR=address(60, 20, start=100))
    assert right.status_code == 429
