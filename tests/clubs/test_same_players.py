"""Two pairs of a club never have the same two players (issue 17 item 2): one person would
sit at two tables of one draw. The service refuses, naming the pair that has them, and so
does the page."""

from __future__ import annotations

import pytest

from muscore.clubs import services
from muscore.clubs.models import Pair
from tests.clubs.factory import logged_in, make_club, make_pair, make_user

pytestmark = pytest.mark.django_db


def test_a_second_pair_with_the_same_players_is_refused_naming_the_first() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea", name="Las de siempre")
    with pytest.raises(services.ClubError, match="Las de siempre ya tiene esos jugadores"):
        services.save_pair(club, "Otras", ["bea", "ANA"])
    assert Pair.objects.count() == 1


def test_a_pair_changed_to_another_pairs_players_is_refused_and_kept() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea", name="Las de siempre")
    other = make_pair(club, "Ana", "Carla")
    with pytest.raises(services.ClubError, match="Las de siempre"):
        services.save_pair(club, other.name, ["Bea", "Ana"], other)
    assert other.player_names() == ["Ana", "Carla"]
    # Its own players again (a name corrected) are not a twin of itself.
    services.save_pair(club, "Ana y Carla bis", ["Ana", "Carla"], other)


def test_one_shared_player_or_another_club_is_no_twin() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    make_pair(club, "Ana", "Carla")
    other_club = make_club("Bar Goiko", organiser=make_user("koldo"))
    make_pair(other_club, "Ana", "Bea")
    assert Pair.objects.filter(club=club).count() == 2


def test_the_pair_page_says_which_pair_has_those_players() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea", name="Las de siempre")
    client = logged_in(club.memberships.get().user)
    response = client.post(
        f"/club/{club.slug}/parejas/nueva", {"player1": "Bea", "player2": "Ana", "name": "Otras"}
    )
    assert response.status_code == 400
    assert "Las de siempre ya tiene esos jugadores" in response.content.decode()
    assert Pair.objects.count() == 1
