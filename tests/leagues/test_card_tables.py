"""The share card's "Mesa N" is where the match was played, counted within its round, never
the competition-wide match number (issue 17 item 7: round 2's second match read "mesa 4")."""

from __future__ import annotations

import pytest
from django.utils import timezone

from muscore.leagues import card, results
from muscore.leagues.models import Match
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db


def test_a_nights_card_numbers_the_tables_within_each_round() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    organiser = club.memberships.get().user
    matches = list(Match.objects.filter(competition=competition).order_by("number")[:4])
    for match in matches:
        results.record_result(match, by=organiser, juegos=[3, 1])
    night = card.date_night(competition, timezone.localdate())
    assert night is not None
    assert sorted(r["table"] for r in night.results) == ["1", "1", "2", "2"]
    labels = card.table_labels(matches)
    assert [labels[m.pk] for m in matches] == ["1", "2", "1", "2"]
