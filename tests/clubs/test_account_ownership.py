"""An account belongs to whoever it is (issue #21 point 3): adding an existing account to a
club is an invitation it accepts or declines, and nobody asks for or sets an account's
password unless he made it and it belongs to no other club."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from muscore.clubs.models import Membership
from tests.clubs.factory import PASSWORD, logged_in, make_club, make_user

pytestmark = pytest.mark.django_db


def _link(html: str) -> str:
    found = re.search(r"http://testserver(/cuentas/clave/[^<\s]+)", html)
    assert found, "no link on the page"
    return found.group(1)


def _new_pair(club_slug: str, client: Client) -> int:
    return client.post(
        f"/club/{club_slug}/parejas/nueva", {"player1": "Ana", "player2": "Bea"}
    ).status_code


def test_the_takeover_of_issue_21_is_refused_at_every_step() -> None:
    """X invites a new account, Y adds it, X asks for its new-password link, sets it and
    writes to Y as that account: X gets no link, and an earlier link no longer works."""
    club_x = make_club("Club X", make_user("xabi"))
    club_y = make_club("Club Y", make_user("yon"))
    xabi = get_user_model().objects.get(username="xabi")
    yon = get_user_model().objects.get(username="yon")
    as_x, as_y = logged_in(xabi), logged_in(yon)

    invitation = as_x.post(f"/club/{club_x.slug}/organizadores", {"username": "iker"})
    first_link = _link(invitation.content.decode())
    iker = Membership.objects.get(club=club_x, user__username="iker")
    # The real iker sets his password; X keeps a new-password link he asked for after.
    assert (
        Client().post(first_link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    ).status_code == 302
    kept = _link(as_x.post(f"/club/{club_x.slug}/organizadores/{iker.pk}/clave").content.decode())

    # Y adds iker: an invitation, not a membership, until iker accepts.
    as_y.post(f"/club/{club_y.slug}/organizadores", {"username": "iker"})
    pending = Membership.objects.get(club=club_y, user__username="iker")
    assert not pending.accepted
    # Already the invitation makes iker someone else's too: X asks for no link any more...
    reset = as_x.post(f"/club/{club_x.slug}/organizadores/{iker.pk}/clave")
    assert reset.status_code == 403
    # ...and the link he kept is dead.
    thief = Client()
    assert thief.get(kept).status_code == 404
    stolen = {"new_password1": "x-takes-over-9", "new_password2": "x-takes-over-9"}
    assert thief.post(kept, stolen).status_code == 404
    assert not Client().login(username="iker", password="x-takes-over-9")
    assert _new_pair(club_y.slug, thief) == 403

    # iker himself accepts and organises Y; X still cannot reset him.
    as_iker = Client()
    assert as_iker.login(username="iker", password=PASSWORD)
    assert _new_pair(club_y.slug, as_iker) == 403  # not before accepting
    answer = as_iker.post(f"/club/{club_y.slug}/invitacion", {"answer": "accept"})
    assert answer.status_code == 302 and answer["Location"] == f"/club/{club_y.slug}/"
    assert _new_pair(club_y.slug, as_iker) == 302
    assert as_x.post(f"/club/{club_x.slug}/organizadores/{iker.pk}/clave").status_code == 403
    page = as_x.get(f"/club/{club_x.slug}/organizadores").content.decode()
    assert f"/organizadores/{iker.pk}/clave" not in page


def test_adding_an_existing_account_is_an_invitation_it_sees_and_may_decline() -> None:
    club = make_club()
    maite = club.memberships.get().user
    iker = make_user("iker")
    page = logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    assert page.status_code == 200
    assert "data-pending" in page.content.decode()
    # Its link (the same form as a new account's) sets no password: log in and accept.
    link = _link(page.content.decode())
    Client().post(link, {"new_password1": "x-takes-over-9", "new_password2": "x-takes-over-9"})
    assert not Client().login(username="iker", password="x-takes-over-9")
    membership = Membership.objects.get(user=iker)
    assert not membership.accepted and not membership.created_account

    as_iker = logged_in(iker)
    assert _new_pair(club.slug, as_iker) == 403
    index = as_iker.get("/clubs/").content.decode()
    assert 'id="invitaciones"' in index and f"/club/{club.slug}/invitacion" in index
    declined = as_iker.post(f"/club/{club.slug}/invitacion", {"answer": "decline"})
    assert declined.status_code == 302
    assert not Membership.objects.filter(user=iker).exists()
    assert _new_pair(club.slug, as_iker) == 403
    # Nothing left to answer: a second answer finds no invitation.
    assert as_iker.post(f"/club/{club.slug}/invitacion", {"answer": "accept"}).status_code == 404


def test_only_the_invited_account_answers_its_invitation() -> None:
    club = make_club()
    maite = club.memberships.get().user
    make_user("iker")
    logged_in(maite).post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    intruder = logged_in(make_user("otro"))
    assert intruder.post(f"/club/{club.slug}/invitacion", {"answer": "accept"}).status_code == 404
    anonymous = Client().post(f"/club/{club.slug}/invitacion", {"answer": "accept"})
    assert anonymous.status_code == 302 and "/cuentas/entrar" in anonymous["Location"]
    assert not Membership.objects.get(user__username="iker").accepted


def test_a_new_account_is_reset_by_its_inviter_only_while_it_is_in_no_other_club() -> None:
    club = make_club()
    maite = club.memberships.get().user
    as_maite = logged_in(maite)
    as_maite.post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    iker = Membership.objects.get(user__username="iker")
    url = f"/club/{club.slug}/organizadores/{iker.pk}/clave"
    assert as_maite.post(url).status_code == 200
    other = make_club("Otro club", make_user("yon"))
    logged_in(other.memberships.get().user).post(
        f"/club/{other.slug}/organizadores", {"username": "iker"}
    )
    # Now someone else's too: the invitation's link sets no password any more.
    again = as_maite.post(url)
    assert again.status_code == 200
    stolen = {"new_password1": "x-takes-over-9", "new_password2": "x-takes-over-9"}
    assert Client().post(_link(again.content.decode()), stolen).status_code == 200
    assert not Client().login(username="iker", password="x-takes-over-9")
