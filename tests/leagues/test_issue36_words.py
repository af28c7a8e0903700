"""Issue 36 point 6 on the leagues' side: a cup's own page names its champion once its
final is decided, and the night's card says a no-show once, not the pair's name twice."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.leagues import pages, results
from muscore.leagues.models import Match
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db


def play_cup(competition: object, by: object, *, until: str = "") -> None:
    """Every match with its two pairs known, in order, the first pair winning 3-1; stops
    before the match of slot `until`."""
    while True:
        match = (Match.objects.filter(competition=competition, source="",
                                      first__isnull=False, second__isnull=False)
                 .order_by("number").first())
        if match is None or (until and match.slot == until):
            return
        results.record_result(match, by=by, juegos=[3, 1])


def test_the_cups_page_names_its_champion_once_the_final_is_decided() -> None:
    club = make_club()
    cup = make_league(club, 8, format="groups", results=0)
    organiser = club.memberships.get().user
    url = pages.competition_url(cup)
    play_cup(cup, organiser, until="final")
    page = Client().get(url)
    assert page.status_code == 200
    assert "Campeones" not in page.text and "data-champion" not in page.text
    play_cup(cup, organiser)
    final = cup.matches.select_related("first__pair", "second__pair").get(slot="final")
    assert final.winner is not None
    winner = (final.first, final.second)[final.winner].pair.name
    page = Client().get(url)
    assert f"Campeones: {winner}" in page.text and "data-champion" in page.text
    english = Client().get(url, headers={"Accept-Language": "en"})
    assert f"Champions: {winner}" in english.text
