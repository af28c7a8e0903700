"""Another club's competition imported (issue 17): the page checks the file, then asks the
name it takes here (prefilled from the document) and whether its matches join the club's
ratings and leaders, "no" ticked. With no they are neither rated nor in the leaders; with
yes they are, and the ratings equal a fresh `rate_players`."""

from __future__ import annotations

import re
from typing import Any

import pytest

from muscore.clubs.models import Club
from muscore.leagues import competitions, documents, imports, rating_store, stats_store
from muscore.leagues.models import Competition, PlayerRating, RatingPoint
from tests.clubs.factory import logged_in, make_club

from .factory import liguilla
from .test_league_import import upload
from .test_stats_store import VACA, play

pytestmark = pytest.mark.django_db


def exported_with_a_table() -> tuple[dict[str, Any], Any]:
    """Another club's liguilla: its first match played on a table (hand stats), the rest
    entered by hand, exported with the hands."""
    competition, user = liguilla(4)
    first = competition.matches.select_related("first__pair", "second__pair").first()
    assert first is not None
    play(competitions.open_table(first, by=user), *VACA)
    from muscore.leagues import results
    for m in competition.matches.select_related("competition").exclude(pk=first.pk):
        results.record_result(m, by=user, juegos=[3, 1])
    competition.refresh_from_db()
    return documents.league_document(competition, hands=True), user


def snapshot(club: Club) -> tuple[list[Any], list[Any]]:
    return (sorted(PlayerRating.objects.filter(club=club).values_list(
                "player_id", "mu", "sigma", "matches")),
            sorted(RatingPoint.objects.filter(club=club).values_list(
                "player_id", "match_id", "mu", "sigma")))


def leaders_matches(club: Club) -> int:
    return int(stats_store.leaders(club)["matches"])


def test_the_page_asks_the_name_prefilled_and_the_ratings_no_by_default() -> None:
    exported, user = exported_with_a_table()
    club = make_club("Bar Kaixo", user)
    client = logged_in(user)
    url = f"/club/{club.slug}/ligas/importar"
    asked = client.post(url, {"file": upload(exported), "format": "liguilla"})
    assert asked.status_code == 200
    page = asked.content.decode()
    assert 'data-step="2"' in page
    assert f'value="{exported["name"]}"' in page  # the name, from the document
    radios = re.findall(r'<input type="radio" name="rated"[^>]*>', page)
    assert len(radios) == 2 and "checked" in radios[0] and 'value="0"' in radios[0]
    assert not Competition.objects.filter(club=club).exists()  # nothing written yet
    document = asked.context["form"]["document"].value()
    done = client.post(url, {"document": document, "format": "liguilla",
                             "name": "Liga del Bar Txoko", "rated": "0"})
    assert done.status_code == 302
    copy = Competition.objects.get(club=club)
    assert copy.name == "Liga del Bar Txoko" and copy.rated is False
    assert not RatingPoint.objects.filter(club=club).exists()
    assert not PlayerRating.objects.filter(club=club).exists()
    assert leaders_matches(club) == 0
    # Its own leaders (the competition's page) still count its hands.
    assert stats_store.leaders(club, copy.pk)["matches"] == 1


def test_a_bad_file_is_refused_at_the_first_step() -> None:
    exported, user = exported_with_a_table()
    club = make_club("Bar Kaixo", user)
    response = logged_in(user).post(f"/club/{club.slug}/ligas/importar",
                                    {"file": upload({"name": "X", "pairs": []}),
                                     "format": "liguilla"})
    assert response.status_code == 400 and "al menos 2 parejas" in response.content.decode()


def test_with_no_the_club_s_own_ratings_and_leaders_stay_as_they_were() -> None:
    exported, user = exported_with_a_table()
    home, home_user = liguilla(4, organiser=user)
    club = home.club
    from muscore.leagues import results
    for m in home.matches.select_related("competition"):
        results.record_result(m, by=user, juegos=[3, 2])
    before = snapshot(club), leaders_matches(club)
    imports.import_competition(club, exported, by=home_user, name="De fuera", rated=False)
    assert (snapshot(club), leaders_matches(club)) == before
    rating_store.rate_club(club)  # afresh: the imported matches still left out
    assert snapshot(club) == before[0]


def test_with_yes_its_matches_are_rated_and_led_as_a_fresh_rating_gives() -> None:
    exported, user = exported_with_a_table()
    club = make_club("Bar Kaixo", user)
    copy = imports.import_competition(club, exported, by=user, rated=True)
    assert copy.rated is True
    assert RatingPoint.objects.filter(club=club).values("match").distinct().count() == (
        copy.matches.played().count())
    assert leaders_matches(club) == 1
    imported = snapshot(club)
    rating_store.rate_club(club)
    assert snapshot(club) == imported
