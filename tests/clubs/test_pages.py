"""The club pages render, and an organiser adds and changes players and pairs."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.clubs.models import Pair, Player
from tests.clubs.factory import logged_in, make_club, make_pair

pytestmark = pytest.mark.django_db


def test_anyone_sees_a_club_page_with_its_pairs_and_players() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    response = Client().get(f"/club/{club.slug}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ana y Bea" in html and "Nueva pareja" not in html
    assert Client().get("/clubs/").status_code == 200
    assert Client().get("/club/nadie/").status_code == 404


def test_an_organiser_adds_a_pair_by_typing_names() -> None:
    club = make_club()
    client = logged_in(club.memberships.get().user)
    Player.objects.create(club=club, name="Ana")
    response = client.post(
        f"/club/{club.slug}/parejas/nueva", {"player1": " ana ", "player2": "Bea", "another": "1"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/club/{club.slug}/parejas/nueva"
    pair = Pair.objects.get()
    assert pair.name == "ana y Bea" and pair.player_names() == ["Ana", "Bea"]
    assert Player.objects.filter(club=club).count() == 2  # Ana was reused, Bea added


def test_a_pair_form_with_the_same_player_twice_says_so() -> None:
    club = make_club()
    client = logged_in(club.memberships.get().user)
    response = client.post(f"/club/{club.slug}/parejas/nueva", {"player1": "Ana", "player2": "ANA"})
    assert response.status_code == 400
    assert "Un jugador no puede estar dos veces en la pareja." in response.content.decode()
    assert not Pair.objects.exists() and not Player.objects.exists()


def test_a_pair_name_already_taken_says_so() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    client = logged_in(club.memberships.get().user)
    response = client.post(f"/club/{club.slug}/parejas/nueva", {"player1": "Ana", "player2": "Bea"})
    assert response.status_code == 400
    assert "Ya hay una pareja llamada Ana y Bea en el club." in response.content.decode()


def test_an_organiser_changes_a_pair_and_a_player() -> None:
    club = make_club()
    pair = make_pair(club, "Ana", "Bea")
    client = logged_in(club.memberships.get().user)
    form = client.get(f"/club/{club.slug}/parejas/{pair.pk}/editar")
    assert 'value="Ana"' in form.content.decode()
    response = client.post(
        f"/club/{club.slug}/parejas/{pair.pk}/editar",
        {"player1": "Ana", "player2": "Carla", "name": "Las txapeldunas"},
    )
    assert response.status_code == 302
    pair.refresh_from_db()
    assert pair.name == "Las txapeldunas" and pair.player_names() == ["Ana", "Carla"]
    carla = Player.objects.get(name="Carla")
    response = client.post(f"/club/{club.slug}/jugadores/{carla.pk}/", {"name": "Carla Etxeberria"})
    assert response.status_code == 302
    assert pair.player_names() == ["Ana", "Carla Etxeberria"]


def test_a_duplicate_player_name_is_refused() -> None:
    club = make_club()
    Player.objects.create(club=club, name="Ana")
    client = logged_in(club.memberships.get().user)
    response = client.post(f"/club/{club.slug}/jugadores/nuevo", {"name": "ANA"})
    assert response.status_code == 400
    # The message names the player the club has (one person however typed).
    assert "Ya hay un jugador llamado Ana en el club." in response.content.decode()


def test_a_default_pair_name_over_60_letters_is_refused_with_a_message() -> None:
    """Issue 17.8: the default of two long names was silently cut to one player's name."""
    club = make_club()
    client = logged_in(club.memberships.get().user)
    first, second = "Maria Jesus Etxeberria Goikoetxea", "Jose Ramon Agirrezabala Urrutia"
    response = client.post(f"/club/{club.slug}/parejas/nueva",
                           {"player1": first, "player2": second})
    assert response.status_code == 400
    html = response.content.decode()
    assert f"«{first} y {second}» pasa de 60 letras" in html
    assert not Pair.objects.exists() and not Player.objects.exists()
    named = client.post(f"/club/{club.slug}/parejas/nueva",
                        {"player1": first, "player2": second, "name": "Los de Azpeitia"})
    assert named.status_code == 302 and Pair.objects.get().name == "Los de Azpeitia"


@pytest.mark.parametrize(("code", "expected"), [("es", "Ana y Bea"), ("en", "Ana and Bea"),
                                                 ("eu", "Ana eta Bea")])
def test_a_default_pair_name_says_and_in_the_pages_language(code: str, expected: str) -> None:
    from django.conf import settings

    club = make_club()
    client = logged_in(club.memberships.get().user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    response = client.post(f"/club/{club.slug}/parejas/nueva", {"player1": "Ana", "player2": "Bea"})
    assert response.status_code == 302 and Pair.objects.get().name == expected
