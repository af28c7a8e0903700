"""The share card's "Mesa N" is where the match was played, counted within its round, never
the competition-wide match number (issue 17 item 7: round 2's second match read "mesa 4")."""

from __future__ import annotations

import pytest
from django.utils import timezone
from PIL import Image, ImageDraw

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


def test_a_card_over_several_rounds_labels_each_rounds_results() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    organiser = club.memberships.get().user
    for match in Match.objects.filter(competition=competition).order_by("number")[:4]:
        results.record_result(match, by=organiser, juegos=[3, 1])
    night = card.date_night(competition, timezone.localdate())
    assert night is not None
    assert [r["round"] for r in night.results] == ["Jornada 1"] * 2 + ["Jornada 2"] * 2
    text = card.card_text(night, "http://testserver/")
    assert text.index("Jornada 1:") < text.index("Jornada 2:")
    one_round = card.round_night(competition, 1)
    assert one_round is not None and all(r["round"] == "" for r in one_round.results)


def test_two_long_pair_names_are_shrunk_to_fit_whole_not_cut() -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    line = "3. " + "Los txapeldunak de Azpeitiko Kirol Elkartea" + " – " + "Bea Etxeberria y Ana"
    text, font = card.fitted(draw, line, 32, False, card.WIDTH - 2 * card.MARGIN - 100)
    assert text == line and font.size < 32
    short, same = card.fitted(draw, "1. Ana – Bea", 32, False, 800)
    assert short == "1. Ana – Bea" and same.size == 32
