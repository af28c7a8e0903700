"""Club forms check names with `muscore.text` as the tables do (issue #21 point 9): a direction
override, a zero-width-only name, ESC, BEL or DEL is refused with a message and nothing is
saved; "Jugar" on a pair whose name was saved before that is a 400 page, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.clubs.models import Club, Pair, Player
from muscore.leagues.models import Competition
from muscore.tables.models import Table
from tests.clubs.factory import logged_in, make_club, make_league, make_pair

pytestmark = pytest.mark.django_db

BAD = {
    "\u202eAna": "cambia el sentido del texto",
    "Ana\u2066Bea": "cambia el sentido del texto",
    "\u200b\u200b": "solo tiene caracteres invisibles",
    "\u2800": "solo tiene caracteres invisibles",
    "Ana\x1b[31m": "carácter de control",
    "Ana\x07": "carácter de control",
    "Ana\x7f": "carácter de control",
}


def _organiser(club: Club) -> Client:
    return logged_in(club.memberships.get().user)


@pytest.mark.parametrize("name", list(BAD))
def test_a_club_name_is_checked(name: str) -> None:
    club = make_club()
    client = _organiser(club)
    for url in ("/clubs/nuevo", f"/club/{club.slug}/editar"):
        response = client.post(url, {"name": name})
        assert response.status_code == 400, url
        assert BAD[name] in response.content.decode()
    assert list(Club.objects.values_list("name", flat=True)) == ["Bar Txoko"]


@pytest.mark.parametrize("name", list(BAD))
def test_a_player_name_is_checked(name: str) -> None:
    club = make_club()
    response = _organiser(club).post(f"/club/{club.slug}/jugadores/nuevo", {"name": name})
    assert response.status_code == 400
    assert BAD[name] in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.parametrize("field", ["player1", "player2", "player3", "name"])
@pytest.mark.parametrize("name", ["\u202eAna", "\u200b\u200b", "Ana\x1b[31m"])
def test_a_pair_and_its_players_names_are_checked(field: str, name: str) -> None:
    club = make_club()
    data = {"player1": "Ana", "player2": "Bea", "player3": "", "name": "", field: name}
    response = _organiser(club).post(f"/club/{club.slug}/parejas/nueva", data)
    assert response.status_code == 400
    assert BAD[name] in response.content.decode()
    assert not Pair.objects.exists() and not Player.objects.exists()


def test_a_competition_name_is_checked() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    make_pair(club, "Carla", "Dani")
    response = _organiser(club).post(
        f"/club/{club.slug}/ligas/nueva",
        {
            "name": "Liga\u202e",
            "format": "liguilla",
            "legs": "1",
            "groups": "2",
            "pairs": [p.pk for p in club.pairs.all()],
            "reyes": "8",
            "target": "40",
            "juegos": "3",
            "real31": "no",
            "win": "2",
            "loss": "0",
        },
    )
    assert response.status_code == 400
    assert "cambia el sentido del texto" in response.content.decode()
    assert not Competition.objects.exists()


def test_jugar_on_a_pair_named_before_the_checks_is_a_400_page_in_the_players_language() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.order_by("number").first()
    assert match is not None and match.first is not None
    # A name saved before the forms refused it (straight to the database).
    member = match.first.pair.members.order_by("position").first()
    assert member is not None
    Player.objects.filter(pk=member.player_id).update(name="Ana\x1b[2J")
    url = f"/club/{club.slug}/liga/{competition.pk}/partida/{match.number}/jugar"
    response = _organiser(club).post(url)
    assert response.status_code == 400
    page = response.content.decode()
    assert "No se puede abrir la mesa" in page and "carácter de control" in page
    assert not Table.objects.exists()
    match.refresh_from_db()
    assert match.table_id is None
