"""Organisers' accounts: a new club makes one, log in and out, invitations and new password
links (no email: the organiser who invited someone hands them the link)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from muscore.clubs.models import Club, Membership
from tests.clubs.factory import PASSWORD, logged_in, make_club, make_user

pytestmark = pytest.mark.django_db


def test_creating_a_club_without_an_account_makes_its_first_organiser() -> None:
    client = Client()
    response = client.post(
        "/clubs/nuevo",
        {
            "name": "Bar Txoko",
            "account-username": "maite",
            "account-password1": PASSWORD,
            "account-password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/club/bar-txoko/"
    club = Club.objects.get()
    assert [m.user.username for m in club.memberships.all()] == ["maite"]
    page = client.get("/club/bar-txoko/")
    assert "Nueva pareja" in page.content.decode()  # logged in, as its organiser


def test_a_new_club_form_with_mismatched_passwords_saves_nothing() -> None:
    response = Client().post(
        "/clubs/nuevo",
        {
            "name": "Bar Txoko",
            "account-username": "maite",
            "account-password1": PASSWORD,
            "account-password2": PASSWORD + "x",
        },
    )
    assert response.status_code == 400
    assert "Las dos contraseñas no coinciden." in response.content.decode()
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_logged_in_user_creates_a_club_with_just_its_name() -> None:
    user = make_user()
    response = logged_in(user).post("/clubs/nuevo", {"name": "Peña Hordago"})
    assert response.status_code == 302
    assert Membership.objects.get().user == user


def test_login_and_logout() -> None:
    make_user("maite")
    client = Client()
    bad = client.post("/cuentas/entrar", {"username": "maite", "password": "nope"})
    assert bad.status_code == 400
    good = client.post(
        "/cuentas/entrar", {"username": "maite", "password": PASSWORD, "next": "/club/x/"}
    )
    assert good.status_code == 302 and good["Location"] == "/club/x/"
    outside = client.post(
        "/cuentas/entrar",
        {"username": "maite", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert outside["Location"] == "/clubs/"
    assert client.get("/cuentas/salir").status_code == 405  # logging out is a POST
    assert client.post("/cuentas/salir").status_code == 302
    assert "_auth_user_id" not in client.session


def _link(html: str) -> str:
    found = re.search(r"http://testserver(/cuentas/clave/[^<\s]+)", html)
    assert found, "no link on the page"
    return found.group(1)


def test_an_invitation_is_a_link_to_set_a_password_used_once() -> None:
    club = make_club()
    maite = club.memberships.get().user
    page = logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    assert page.status_code == 200
    link = _link(page.content.decode())
    iker = get_user_model().objects.get(username="iker")
    assert not iker.has_usable_password()
    membership = Membership.objects.get(user=iker)
    assert membership.invited_by == maite and membership.created_account

    guest = Client()
    form = guest.get(link)
    assert form.status_code == 200 and "iker" in form.content.decode()
    done = guest.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    assert guest.get(f"/club/{club.slug}/organizadores").status_code == 200  # now an organiser
    assert Client().get(link).status_code == 404  # the link died with the password change
    assert Client().login(username="iker", password=PASSWORD)


def test_inviting_an_existing_account_gives_a_link_that_sets_no_password() -> None:
    club = make_club()
    maite = club.memberships.get().user
    make_user("iker")
    page = logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "IKER"})
    link = _link(page.content.decode())  # a link of the same form as a new account's
    membership = Membership.objects.get(user__username="iker")
    assert not membership.created_account and not membership.accepted
    opened = Client().get(link)
    assert opened.status_code == 200 and "new_password1" not in opened.content.decode()
    assert "Entra con ella" in opened.content.decode()
    Client().post(link, {"new_password1": "taken-over-1", "new_password2": "taken-over-1"})
    assert not Client().login(username="iker", password="taken-over-1")
    assert Client().login(username="iker", password=PASSWORD)
    # Its inviter may see the invitation's link again: it sets nothing either.
    again = logged_in(maite).post(f"/club/{club.slug}/organizadores/{membership.pk}/clave")
    assert again.status_code == 200
    Client().post(_link(again.content.decode()),
                  {"new_password1": "taken-over-1", "new_password2": "taken-over-1"})
    assert Client().login(username="iker", password=PASSWORD)


def _answer(page: str, username: str, club: Club) -> list[str]:
    """What the organisers' page says of an invitation just made, with the username, the
    club, its organiser, the link's keys and the row's ids taken out."""
    status = re.findall(r'role="status"[^>]*>(.*?)</', page, re.S)
    box = re.findall(r'class="share-link invite-link".*?</div>', page, re.S)
    row = [li for li in re.findall(r"<li>.*?</li>", page, re.S) if username in li]
    text = "\n".join(status + box + row)
    text = re.sub(r"/cuentas/clave/[^/]+/[^/<\s]+/", "/cuentas/clave/U/T/", text)
    text = re.sub(r"/organizadores/\d+/", "/organizadores/N/", text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    inviter = club.memberships.get(accepted=True).user.get_username()
    return [text.replace(username, "X").replace(club.slug, "S").replace(inviter, "M")]


def test_the_invite_form_answers_alike_whether_the_username_exists_or_not() -> None:
    """Issue 21: a stranger (anyone can start a club) must not learn from the invite form
    which usernames exist."""
    make_user("ikerexiste")
    answers = []
    for n, username in enumerate(["ikerexiste", "ikernuevoo"]):
        club = make_club(f"Club {n}", make_user(f"maite{n}"))
        page = logged_in(club.memberships.get().user).post(
            f"/club/{club.slug}/organizadores", {"username": username})
        assert page.status_code == 200
        answers.append((page.status_code, _answer(page.content.decode(), username, club)))
    assert answers[0] == answers[1]
    assert "invitado" in answers[0][1][0] and "/cuentas/clave/U/T/" in answers[0][1][0]


def test_only_the_inviter_gives_a_new_password_link() -> None:
    club = make_club()
    maite = club.memberships.get().user
    logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "nerea"})
    iker = Membership.objects.get(user__username="iker")
    nerea_user = get_user_model().objects.get(username="nerea")
    url = f"/club/{club.slug}/organizadores/{iker.pk}/clave"
    assert logged_in(nerea_user).post(url).status_code == 403
    page = logged_in(maite).post(url)
    assert page.status_code == 200
    link = _link(page.content.decode())
    assert (
        Client().post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD}).status_code
        == 302
    )


def test_a_broken_password_link_is_a_404_page() -> None:
    assert Client().get("/cuentas/clave/zz/nope/").status_code == 404
