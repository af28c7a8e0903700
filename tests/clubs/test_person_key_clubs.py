"""One person, one player, one pair in a club whatever the spelling (issue 28 point 4): the
club's players, its pairs and a match's substitutes are told apart by
muscore.text.person_key, as the championship's entries are."""

from __future__ import annotations

import pytest

from muscore.clubs import services
from muscore.clubs.forms import PairForm, PlayerForm
from muscore.clubs.models import Pair, Player
from muscore.leagues import competitions
from tests.clubs.factory import make_club, make_pair, make_user

pytestmark = pytest.mark.django_db

SAME = ["Etxeberria, Iñaki.", "Iñaki Etxe\u00adberria", "\u0131ñaki Etxeberria",
        "ＩÑＡＫＩ ＥＴＸＥＢＥＲＲＩＡ", "Iñ\u200daki Etxeberria"]


@pytest.mark.parametrize("spelling", SAME)
def test_a_player_spelt_another_way_is_the_same_player(spelling: str) -> None:
    club = make_club()
    make_pair(club, "Iñaki Etxeberria", "Ane")
    form = PlayerForm({"name": spelling}, club=club)
    assert not form.is_valid()
    assert "Ya hay un jugador llamado Iñaki Etxeberria" in form.errors["name"][0]
    # A pair naming him takes the club's player, not a new one.
    services.save_pair(club, "Otra", [spelling, "Jon"])
    assert Player.objects.filter(club=club).count() == 3


@pytest.mark.parametrize("spelling", SAME)
def test_a_pair_of_the_same_two_people_is_the_same_pair(spelling: str) -> None:
    club = make_club()
    make_pair(club, "Iñaki Etxeberria", "Ane", name="Los de siempre")
    with pytest.raises(services.ClubError, match="Los de siempre ya tiene esos jugadores"):
        services.save_pair(club, "Otros", ["ane", spelling])
    assert Pair.objects.count() == 1


def test_the_pair_form_refuses_one_person_twice_and_mixed_scripts() -> None:
    club = make_club()
    twice = PairForm({"player1": "Iñaki", "player2": "\u0131ñaki", "name": ""}, club=club)
    assert not twice.is_valid() and "dos veces" in str(twice.errors["player2"])
    mixed = PairForm({"player1": "\u0406ñaki", "player2": "Ane", "name": ""}, club=club)
    assert not mixed.is_valid() and "alfabetos distintos" in str(mixed.errors["player1"])
    other = PairForm({"player1": "Inaki", "player2": "Iñaki", "name": ""}, club=club)
    assert other.is_valid()  # ñ is a letter of its own: two people


def test_a_substitute_is_told_apart_by_his_key() -> None:
    club = make_club(organiser=make_user("boss"))
    user = club.memberships.get().user
    first = make_pair(club, "Iñaki Etxeberria", "Ane")
    second = make_pair(club, "Jon", "Miren")
    competition = competitions.create_competition(club, by=user, name="Liga",
                                                  pairs=[first, second], draw=[0, 1])
    match = competition.matches.get()
    with pytest.raises(competitions.CompetitionError, match="con las dos parejas|contra ella"):
        competitions.set_players(match, by=user, side=1, players=["Etxeberria Iñaki", "Jon"])
    with pytest.raises(competitions.CompetitionError, match="dos veces"):
        competitions.set_players(match, by=user, side=0, players=["Ane", "ANE."])
    with pytest.raises(competitions.CompetitionError, match="alfabetos distintos"):
        competitions.set_players(match, by=user, side=1, players=["Jon", "Mir\u0435n"])
    competitions.set_players(match, by=user, side=1, players=["Jon", "Koldo"])
    before = Player.objects.count()
    competitions.set_players(match, by=user, side=1, players=["Jon", "koldo."])
    assert Player.objects.count() == before  # the same substitute, not a new player
