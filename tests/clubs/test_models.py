"""The club's storage: names unique per club whatever their case, pairs in seat order."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from muscore.clubs.models import Pair, Player
from tests.clubs.factory import make_club, make_pair, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_a_pair_keeps_its_players_in_seat_order() -> None:
    club = make_club()
    pair = make_pair(club, "Bea", "Ana")
    assert pair.player_names() == ["Bea", "Ana"]
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Ana", "Bea"]


def test_a_pair_of_three_for_six_player_leagues() -> None:
    pair = make_pair(make_club(), "Ana", "Bea", "Carla")
    assert pair.player_names() == ["Ana", "Bea", "Carla"]


def test_a_player_name_is_unique_in_a_club_whatever_its_case() -> None:
    club = make_club()
    Player.objects.create(club=club, name="Ana")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="ana")
    other = make_club("Peña Hordago", make_user("iker"))
    Player.objects.create(club=other, name="Ana")  # another club's Ana is another person


def test_a_pair_name_is_unique_in_a_club() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea", name="Las de siempre")
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(club=club, name="las de siempre")


def test_a_club_slug_is_made_unique() -> None:
    first = make_club("Bar Txoko")
    second = make_club("Bar  TXOKO", make_user("iker"))
    assert (first.slug, second.slug) == ("bar-txoko", "bar-txoko-2")
