"""A round's card shows the standings after that round (issue 17 item 7), not today's: the
share card of round N is computed from the results of rounds up to N, so a card shared (or
opened again) after round 2 was played still tells round 1 as it stood."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from muscore.leagues import card, pages, results
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import standings as results_standings
from tests.clubs.factory import make_club, make_league
from tests.leagues.test_ceros_services import play_round as play_ceros_round
from tests.leagues.test_ceros_services import tournament

pytestmark = pytest.mark.django_db


def play_round(competition: Competition, number: int, first_wins: bool) -> None:
    user = competition.club.memberships.get().user
    for m in Match.objects.filter(competition=competition, round__number=number).select_related(
            "competition").order_by("number"):
        results.record_result(m, by=user, juegos=[3, 1] if first_wins else [0, 3])


def top(competition: Competition, number: int) -> list[tuple[str, str]]:
    night = card.round_night(competition, number)
    assert night is not None
    return [(row["name"], row["figure"]) for row in night.standings[0]["rows"]]


def test_round_one_s_card_keeps_round_one_s_standings_after_round_two() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    play_round(competition, 1, first_wins=True)
    after_one = top(competition, 1)
    assert [figure for _name, figure in after_one] == ["2 puntos", "2 puntos", "0 puntos"]
    play_round(competition, 2, first_wins=False)
    competition.refresh_from_db()
    assert top(competition, 1) == after_one  # round 2 changed nothing of round 1's card
    today = [(r["row"].name, r["row"].points) for r in pages.standings_tables(competition)[0].rows]
    assert top(competition, 2) == [(name, f"{points} puntos") for name, points in today[:3]]
    assert top(competition, 2) != after_one  # today's differ: round 1's card kept its own
    # The card's text and JSON say the same.
    url = pages.competition_url(competition, "round_card", 1, "json")
    data = json.loads(Client().get(url).content)
    assert [(r["name"], r["figure"]) for r in data["standings"][0]["rows"]] == after_one


def test_the_standings_after_the_last_round_are_today_s() -> None:
    club = make_club()
    competition = make_league(club, 6)
    last = competition.rounds.order_by("-number").values_list("number", flat=True).first()
    assert last is not None
    upto = results_standings.standings_until(competition, last)
    assert [g.rows for g in upto] == [g.rows for g in results_standings.standings(competition,
                                                                            cached=False)]


def test_a_ceros_round_s_card_keeps_the_ceros_of_that_round() -> None:
    """The ceros tournament's card of round 1, read after round 2 was played, still says
    the ceros each pair had after round 1."""
    competition, user = tournament(4, ceros=3)
    play_ceros_round(competition, user, winner=0)
    after_one = top(competition, 1)
    assert sorted(figure for _name, figure in after_one) == ["0 ceros", "0 ceros", "1 cero"]
    play_ceros_round(competition, user, winner=1)
    competition.refresh_from_db()
    assert top(competition, 1) == after_one
    assert top(competition, 2) != after_one  # today's ceros differ after round 2
