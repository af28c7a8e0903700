"""Every account form says what its fields are to the browser's password manager (issue 30
point 8): `autocomplete` username and current-password to log in, username and
new-password for a new account, new-password for a new-password link, off for another
organiser's username."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from muscore.clubs import services
from tests.clubs.factory import logged_in, make_club, make_user

pytestmark = pytest.mark.django_db


class Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        fields = dict(attrs)
        if tag == "input" and fields.get("type") in ("text", "password", None):
            self.found[str(fields.get("name"))] = fields


def inputs(client: Client, url: str) -> dict[str, dict[str, str | None]]:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    parser = Inputs()
    parser.feed(answer.content.decode())
    return parser.found


def autocomplete(found: dict[str, dict[str, str | None]]) -> dict[str, str | None]:
    return {name: attrs.get("autocomplete") for name, attrs in found.items()
            if name in ("username", "password", "password1", "password2", "new_password1",
                        "new_password2", "account-username", "account-password1",
                        "account-password2")}


def test_every_account_form_has_its_autocomplete() -> None:
    anonymous = Client()
    assert autocomplete(inputs(anonymous, "/cuentas/entrar")) == {
        "username": "username", "password": "current-password"}
    assert autocomplete(inputs(anonymous, "/admin/login/")) == {
        "username": "username", "password": "current-password"}
    assert autocomplete(inputs(anonymous, "/clubs/nuevo")) == {
        "account-username": "username", "account-password1": "new-password",
        "account-password2": "new-password"}
    user = make_user("iker")
    assert autocomplete(inputs(anonymous, services.password_link(user))) == {
        "new_password1": "new-password", "new_password2": "new-password"}
    club = make_club("Bar Txoko", organiser=make_user("maite"))
    organisers = inputs(logged_in(club.memberships.get().user),
                        f"/club/{club.slug}/organizadores")
    assert organisers["username"].get("autocomplete") == "off"
    # Every password field of these pages says which kind it is.
    for url in ("/cuentas/entrar", "/clubs/nuevo", services.password_link(user)):
        for name, attrs in inputs(anonymous, url).items():
            if attrs.get("type") == "password":
                assert attrs.get("autocomplete") in ("new-password", "current-password"), name
