"""The club pages, as a visitor and as the organiser, speak only the reader's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client

from muscore.clubs.models import Club
from tests.clubs.factory import make_club, make_league, make_pair
from tests.leagues.test_league_pages import urls as league_urls
from tests.test_languages_pages import LANGUAGES, foreign_runs, found_in, visible_text


def club_urls(club: Club) -> Iterator[str]:
    pair = club.pairs.get(name="Ana y Bea")
    player = club.players.first()
    assert player is not None
    yield "/clubs/"
    yield "/clubs/nuevo"
    yield "/cuentas/entrar"
    yield "/cuentas/clave/xx/yy/"
    yield f"/club/{club.slug}/"
    yield f"/club/{club.slug}/editar"
    yield f"/club/{club.slug}/organizadores"
    yield f"/club/{club.slug}/jugadores/nuevo"
    yield f"/club/{club.slug}/jugadores/{player.pk}/"
    yield f"/club/{club.slug}/parejas/nueva"
    yield f"/club/{club.slug}/parejas/{pair.pk}/editar"


def render(client: Client, code: str, url: str) -> str:
    """The page in `code`; a visitor's 403 page must speak it too."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    response = client.get(url)
    assert response.status_code in (200, 403, 404), (url, response.status_code)
    html = response.content.decode()
    assert f'<html lang="{code}"' in html, f"{url} is not served in {code}"
    return html


@pytest.mark.django_db
@pytest.mark.parametrize("code", LANGUAGES)
def test_club_pages_speak_only_their_language(code: str) -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    league = make_league(club, 4, format="groups", results=3)
    foreign = foreign_runs(code)
    wrong = {}
    for who, client in [("visitor", Client()), ("organiser", Client())]:
        if who == "organiser":
            client.force_login(club.memberships.get().user)
        for url in [*club_urls(club), *league_urls(league)]:
            found = found_in(visible_text(render(client, code, url)), foreign)
            if found:
                wrong[(who, url)] = found
    assert not wrong, f"pages in {code} show other languages' text: {wrong}"
