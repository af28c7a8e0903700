"""The players' pages: a player's nivel, chart, pairs and matches; the club's niveles; the
method page; the win probability on an unplayed match. Read-only, in three languages, and
with a number of queries that does not grow with the matches."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openskill.models import ThurstoneMostellerFull

from muscore.clubs.models import Player
from muscore.leagues import competitions, pages, results, roster
from muscore.leagues.models import Competition, Match, PlayerRating
from muscore.leagues.views.players import nivel_chart
from tests.clubs.factory import logged_in, make_club, make_user
from tests.test_languages_pages import LANGUAGES, foreign_runs, found_in, visible_text

from .factory import liguilla

pytestmark = pytest.mark.django_db


def match(competition: Competition, number: int) -> Match:
    return Match.objects.select_related("first__pair", "second__pair", "competition__club").get(
        competition=competition, number=number)


def play(competition: Competition, user: object, count: int) -> None:
    for m in Match.objects.filter(competition=competition).unplayed().order_by("number")[:count]:
        results.record_result(m, by=user, juegos=[3, 1] if m.number % 3 else [2, 3])


def player_url(player: Player) -> str:
    return f"/club/{player.club.slug}/jugador/{player.pk}/"


def test_a_players_page_shows_the_nivel_chart_pairs_and_matches() -> None:
    competition, user = liguilla(4)
    play(competition, user, 4)
    m1 = match(competition, 1)
    name = competitions.match_players(m1)[0][0]
    player = Player.objects.get(club=competition.club, name=name)
    rating = PlayerRating.objects.get(player=player)
    html = Client().get(player_url(player)).content.decode()
    assert f"<h1>{name}</h1>" in html
    shown = re.search(r'data-nivel="([^"]+)"', html)
    assert shown and shown.group(1) == f"{rating.nivel:.1f}"
    assert f"{rating.nivel:.1f}".replace(".", ",") in html  # Spanish decimals on the page
    assert "<svg" in html and 'class="chart-nivel"' in html
    points = re.search(r'class="chart-nivel" fill="none" points="([^"]+)"', html)
    assert points and len(points.group(1).split()) == rating.matches + 1  # from 0
    assert pages.match_url(m1) in html  # a recent match links to its page
    entry = competition.entries.get(pair=m1.first.pair)  # type: ignore[union-attr]
    assert pages.entry_url(competition, entry.index) in html  # and the pair's page
    assert "/nivel/" in html  # the method


def test_a_player_not_rated_yet_and_one_of_another_club() -> None:
    competition, _user = liguilla(4)
    player = Player.objects.filter(club=competition.club).first()
    assert player is not None
    response = Client().get(player_url(player))
    assert response.status_code == 200 and "<svg" not in response.content.decode()
    other = make_club("Otro bar", make_user("otra"))
    assert Client().get(f"/club/{other.slug}/jugador/{player.pk}/").status_code == 404
    assert Client().get(f"/club/{competition.club.slug}/jugador/999999/").status_code == 404


def test_the_pages_only_read() -> None:
    competition, user = liguilla(4)
    play(competition, user, 2)
    player = Player.objects.filter(club=competition.club).first()
    assert player is not None
    for client in (Client(), logged_in(user)):
        for url in (player_url(player), f"/club/{competition.club.slug}/niveles/", "/nivel/"):
            assert client.post(url).status_code == 405


def test_the_ranking_lists_the_rated_players_highest_first() -> None:
    competition, user = liguilla(4)
    play(competition, user, 3)
    html = Client().get(f"/club/{competition.club.slug}/niveles/").content.decode()
    rows = PlayerRating.objects.filter(club=competition.club).values_list("nivel", "player__name")
    expected = [name for _nivel, name in sorted(rows, key=lambda r: (-r[0], r[1].lower()))]
    assert len(expected) == 8
    found = re.findall(r'<td class="name"><a href="/club/[^/]+/jugador/\d+/">([^<]+)</a>', html)
    assert found == expected


def test_a_retired_player_is_off_the_ranking_and_ranks_nobody() -> None:
    """Retired: off the club's lists, the ranking too; his page keeps his nivel without a
    place, and the others' places count only those on the lists."""
    competition, user = liguilla(4)
    play(competition, user, 3)
    club = competition.club
    ratings = list(PlayerRating.objects.filter(club=club).select_related("player")
                   .order_by("-nivel", "player__name"))
    top, second = ratings[0].player, ratings[1].player
    roster.set_retired(top, True, by=user)
    html = Client().get(f"/club/{club.slug}/niveles/").content.decode()
    names = re.findall(r'<td class="name"><a href="/club/[^/]+/jugador/\d+/">([^<]+)</a>', html)
    assert top.name not in names and len(names) == len(ratings) - 1
    page = Client().get(player_url(top)).content.decode()
    assert "data-retired" in page and "en el club" not in page
    page = Client().get(player_url(second)).content.decode()
    assert f"1.º de {len(ratings) - 1} en el club" in page


def test_the_club_and_pair_pages_link_the_players() -> None:
    competition, _user = liguilla(4)
    club = competition.club
    player = Player.objects.filter(club=club).first()
    assert player is not None
    html = Client().get(f"/club/{club.slug}/").content.decode()
    assert f'href="{player_url(player)}"' in html and f"/club/{club.slug}/niveles/" in html
    entry = competition.entries.select_related("pair").get(index=0)
    html = Client().get(pages.entry_url(competition, 0)).content.decode()
    for member in entry.pair.members.all():
        assert f'href="{player_url(member.player)}"' in html


def test_an_unplayed_match_shows_openskills_prediction() -> None:
    competition, user = liguilla(4)
    play(competition, user, 3)
    unplayed = Match.objects.filter(competition=competition).unplayed().order_by(
        "number").first()
    assert unplayed is not None
    unplayed = match(competition, unplayed.number)
    model = ThurstoneMostellerFull()
    teams = []
    for side in competitions.match_players(unplayed):
        team = []
        for name in side:
            stored = PlayerRating.objects.filter(player__club=competition.club,
                                                 player__name=name).first()
            team.append(model.rating(mu=stored.mu, sigma=stored.sigma) if stored
                        else model.rating())
        teams.append(team)
    first, _second = model.predict_win(teams)
    html = Client().get(pages.match_url(unplayed)).content.decode()
    shown = re.search(r'data-prediction="(\d+)-(\d+)"', html)
    assert shown is not None
    assert int(shown.group(1)) == round(100 * first)
    assert int(shown.group(1)) + int(shown.group(2)) == 100
    # A played match shows its result, not a forecast.
    html = Client().get(pages.match_url(match(competition, 1))).content.decode()
    assert "data-prediction" not in html


def test_the_queries_do_not_grow_with_the_matches() -> None:
    competition, user = liguilla(6, legs=2)
    club = competition.club
    play(competition, user, 1)
    m1 = match(competition, 1)
    player = Player.objects.get(club=club, name=competitions.match_players(m1)[0][0])
    client = Client()

    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    urls = [player_url(player), f"/club/{club.slug}/niveles/"]
    few = [count(u) for u in urls]
    play(competition, user, 29)
    assert PlayerRating.objects.get(player=player).matches >= 5
    assert [count(u) for u in urls] == few


def test_the_chart_scale() -> None:
    assert nivel_chart([]) is None
    chart = nivel_chart([1.5, -2.0, 7.25])
    assert chart is not None
    assert (chart["bottom_value"], chart["top_value"]) == (-5, 10)
    assert len(chart["points"].split()) == 4 and chart["matches"] == 3
    long = nivel_chart([float(i % 17) for i in range(2000)])
    assert long is not None and len(long["points"].split()) <= 401
    assert long["points"].split()[-1] == f'{long["end"]["x"]},{long["end"]["y"]}'


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_players_pages_speak_only_their_language(code: str) -> None:
    competition, user = liguilla(4)
    play(competition, user, 3)
    club = competition.club
    rated = PlayerRating.objects.filter(club=club).first()
    assert rated is not None
    unplayed = Match.objects.filter(competition=competition).unplayed().order_by(
        "number").first()
    assert unplayed is not None
    Player.objects.create(club=club, name="Sin jugar")
    urls = [player_url(rated.player), f"/club/{club.slug}/niveles/", "/nivel/",
            player_url(Player.objects.get(club=club, name="Sin jugar")),
            pages.match_url(unplayed)]
    foreign = foreign_runs(code)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    wrong = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{code}"' in html
        found = found_in(visible_text(html), foreign)
        if found:
            wrong[url] = found
    assert not wrong, wrong
