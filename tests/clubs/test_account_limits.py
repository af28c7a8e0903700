"""Accounts and clubs are not made without limit nor with the password "a", the hash runs
outside the write transaction, the logins (the admin's too) are limited per address and per
account, and /clubs/nuevo tells nobody which usernames exist (issue #21 points 4 and 7)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from muscore.clubs.models import Club, Membership
from tests.clubs.factory import PASSWORD, logged_in, make_club, make_user
from tests.clubs.test_login_lockout import RateClock
from tests.test_rate_limits import RATES, address

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    # The limits' clock stands still: address() leaves each address's window 20 s or more,
    # but an account's window (keyed by its name) could end mid-test on a loaded machine.
    RateClock(monkeypatch)
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {**{k: list(v) for k, v in RATES.items()}, "account": ["3/m"]}
    cache.clear()
    yield settings.MUSCORE_RATE_LIMITS
    cache.clear()


def new_club(client: Client, n: int, ip: str, password: str = PASSWORD,
             language: str = "es", **extra: str) -> Any:
    data = {
        "name": f"Club {n}",
        "account-username": f"socio{n}",
        "account-password1": password,
        "account-password2": password,
        **extra,
    }
    return client.post("/clubs/nuevo", data, REMOTE_ADDR=ip,
                       headers={"Accept-Language": language})


def test_accounts_and_clubs_are_limited_per_address(limits: dict[str, list[str]]) -> None:
    ip = address(60, 20)
    for n in range(3):
        assert new_club(Client(), n, ip).status_code == 302
    refused = new_club(Client(), 3, ip)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert Club.objects.count() == 3 and get_user_model().objects.count() == 3
    assert new_club(Client(), 4, address(60, 20, start=100)).status_code == 302


def test_an_organiser_is_limited_per_account_whatever_his_address(
    limits: dict[str, list[str]],
) -> None:
    client = logged_in(make_user())
    for n in range(3):
        ip = address(60, 20, start=10 * n)
        assert client.post("/clubs/nuevo", {"name": f"C{n}"}, REMOTE_ADDR=ip).status_code == 302
    ip = address(60, 20, start=100)
    assert client.post("/clubs/nuevo", {"name": "C3"}, REMOTE_ADDR=ip).status_code == 429
    club = Club.objects.first()
    assert club is not None
    # Invitations and new-password links count in the same group.
    url = f"/club/{club.slug}/organizadores"
    assert client.post(url, {"username": "iker"}, REMOTE_ADDR=ip).status_code == 429
    assert not get_user_model().objects.filter(username="iker").exists()


@pytest.mark.parametrize("password", ["a", "12345678901", "password123", "socio0-club"])
def test_a_weak_password_is_refused_with_the_reason_and_nothing_saved(password: str) -> None:
    response = new_club(Client(), 0, "203.0.113.9", password=password)
    assert response.status_code == 400
    assert "account-password1" in response.content.decode() or "contraseña" in (
        response.content.decode().lower()
    )
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_new_password_link_asks_the_validators_too() -> None:
    club = make_club()
    page = logged_in(club.memberships.get().user).post(
        f"/club/{club.slug}/organizadores", {"username": "iker"}
    )


    link = re.search(r"http://testserver(/cuentas/clave/[^<\s]+)", page.content.decode())
    assert link
    weak = Client().post(link.group(1), {"new_password1": "a", "new_password2": "a"})
    assert weak.status_code == 400
    assert not get_user_model().objects.get(username="iker").has_usable_password()


class DepthRecordingHasher(MD5PasswordHasher):
    """Records how deep in transactions each hash was computed."""

    algorithm = "depth_md5"
    depths: list[int] = []

    def encode(self, password: str, salt: str) -> str:
        self.depths.append(len(connection.atomic_blocks))
        return super().encode(password, salt)


def test_the_password_is_hashed_outside_the_write_transaction(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = [f"{__name__}.DepthRecordingHasher"]
    DepthRecordingHasher.depths = []
    outside = len(connection.atomic_blocks)  # the test's own transaction
    assert new_club(Client(), 0, "203.0.113.9").status_code == 302
    assert DepthRecordingHasher.depths == [outside]
    assert Client().login(username="socio0", password=PASSWORD)


def test_login_is_limited_per_account_across_addresses(limits: dict[str, list[str]]) -> None:
    make_user("maite")
    for n in range(3):
        ip = address(60, 20, start=10 * n)
        wrong = Client().post(
            "/cuentas/entrar", {"username": "maite", "password": "nope"}, REMOTE_ADDR=ip
        )
        assert wrong.status_code == 400
    ip = address(60, 20, start=100)
    right = Client().post(
        "/cuentas/entrar", {"username": "MAITE", "password": PASSWORD}, REMOTE_ADDR=ip
    )
    assert right.status_code == 429
    # Another account from that address is not held back by maite's.
    make_user("iker")
    other = Client().post(
        "/cuentas/entrar", {"username": "iker", "password": PASSWORD}, REMOTE_ADDR=ip
    )
    assert other.status_code == 302


def test_the_admin_login_is_limited_per_address_and_per_account(
    limits: dict[str, list[str]],
) -> None:
    admin = get_user_model().objects.create_superuser("jefa", password=PASSWORD)
    ip = address(60, 20)
    for _ in range(3):
        wrong = Client().post(
            "/admin/login/", {"username": "jefa", "password": "nope"}, REMOTE_ADDR=ip
        )
        assert wrong.status_code == 200  # the admin's form again, with its error
    right = Client().post(
        "/admin/login/", {"username": "jefa", "password": PASSWORD}, REMOTE_ADDR=ip
    )
    assert right.status_code == 429
    elsewhere = address(60, 20, start=100)
    again = Client().post(
        "/admin/login/", {"username": "jefa", "password": PASSWORD}, REMOTE_ADDR=elsewhere
    )
    assert again.status_code == 429  # the account itself is held back
    assert "_auth_user_id" not in Client().session
    assert admin.last_login is None
    # The admin's own name for its login still works.


    assert reverse("admin:login") == "/admin/login/"


def test_new_club_gives_the_same_answer_whether_a_username_exists() -> None:
    make_user("maite")
    # Any other mistake in the form: the answer says nothing about the username.
    answers = []
    for username in ("maite", "nadie"):
        response = Client().post(
            "/clubs/nuevo",
            {
                "name": "",
                "account-username": username,
                "account-password1": "a",
                "account-password2": "a",
            },
        )
        assert response.status_code == 400
        answers.append(response.content.decode().replace(username, "USERNAME"))


    def errors(html: str) -> list[str]:
        return re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]*)<', html)

    assert errors(answers[0]) == errors(answers[1]) and errors(answers[0])
    # Everything valid but the name taken: one message for every refusal, nothing saved.
    taken = new_club(Client(), 0, "203.0.113.9", **{"account-username": "MAITE"})
    assert taken.status_code == 400
    assert "Ese nombre de usuario no se puede usar" in taken.content.decode()
    assert not Club.objects.exists() and get_user_model().objects.count() == 1
    assert not Membership.objects.exists()


def test_new_accounts_have_a_ceiling_for_the_whole_site_whatever_the_addresses(
    settings: Settings,
) -> None:
    # Each new account is a password hash (a quarter of a second of a core in production):
    # 60 from 60 addresses slowed every other write, so the site takes so many a period
    # whoever sends them (a day here: no window ends in the middle of the test).
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {**{k: list(v) for k, v in RATES.items()},
                                    "account": ["5/m"], "signup": ["3/d"]}
    cache.clear()
    try:
        for n in range(2):
            assert new_club(Client(), n, address(60, 20, start=10 * n)).status_code == 302
        # An organiser already logged in makes a club without a new account: not counted.
        organiser = logged_in(make_user("maite"))
        made = organiser.post("/clubs/nuevo", {"name": "De Maite"},
                              REMOTE_ADDR=address(60, 20, start=60))
        assert made.status_code == 302
        # A password chosen through an invitation's link is a hash too: the third.
        club = Club.objects.get(name="De Maite")
        page = organiser.post(f"/club/{club.slug}/organizadores", {"username": "iker"},
                              REMOTE_ADDR=address(60, 20, start=60))
        link = re.search(r"http://testserver(/cuentas/clave/[^<\s]+)", page.content.decode())
        assert link
        chosen = {"new_password1": PASSWORD, "new_password2": PASSWORD}
        assert Client().post(link.group(1), chosen,
                             REMOTE_ADDR=address(60, 20, start=70)).status_code == 302
        users = get_user_model().objects.count()
        refused = new_club(Client(), 5, address(60, 20, start=100))
        assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
        text = refused.content.decode()
        assert "Se están creando muchas cuentas nuevas en este sitio" in text
        assert "desde esta conexión" not in text  # not this address's fault
        assert get_user_model().objects.count() == users
        assert not Club.objects.filter(name="Club 5").exists()
        english = new_club(Client(), 6, address(60, 20, start=120), language="en")
        assert english.status_code == 429
        assert "Many new accounts are being made on this site" in english.content.decode()
        # Everything else goes on: an organiser's own club, a login.
        assert organiser.post("/clubs/nuevo", {"name": "Otra"},
                              REMOTE_ADDR=address(60, 20, start=130)).status_code == 302
        assert Client().post("/cuentas/entrar", {"username": "maite", "password": PASSWORD},
                             REMOTE_ADDR=address(60, 20, start=140)).status_code == 302
    finally:
        cache.clear()


def test_the_sites_ceiling_on_new_accounts_comes_from_the_environment() -> None:
    from tests.test_settings import manage

    probe = "from django.conf import settings; print(settings.MUSCORE_RATE_LIMITS['signup'])"
    result = manage("shell", "--no-imports", "-c", probe, MUSCORE_RATE_SIGNUP="40/m")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['40/m']"
    default = manage("shell", "--no-imports", "-c", probe)
    assert default.stdout.strip().splitlines()[-1] == "['20/m', '300/h']"
