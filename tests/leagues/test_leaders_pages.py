"""The club's leaders page and the hand stats on the pair page: drawn from the stored
counts in a constant number of queries, in Spanish, English and Basque."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from muscore.leagues import competitions, results
from muscore.leagues.models import Competition, Match
from tests.test_languages_pages import LANGUAGES, foreign_runs, found_in, visible_text

from .factory import liguilla
from .test_stats_store import VACA, play

pytestmark = pytest.mark.django_db


def played(competition: Competition, user: object, count: int) -> list[Match]:
    matches = list(competition.matches.order_by("number")[:count])
    for match in matches:
        play(competitions.open_table(match, by=user), *VACA)
    return matches


def leaders_url(competition: Competition) -> str:
    return reverse("clubs:leaders", args=[competition.club.slug])


def get(url: str, code: str = "es") -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def queries(url: str) -> int:
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_leaders_page_ranks_the_stored_counts() -> None:
    competition, user = liguilla(4)
    matches = played(competition, user, 6)  # every pair plays 3: the shares rank them
    html = get(leaders_url(competition))
    text = visible_text(html)
    assert "De 6 partidas jugadas en las mesas de muscore." in text
    assert "3 partidas o más" in text
    board = re.search(r'data-board="ordagos_won".*?</section>', html, re.S)
    assert board is not None
    # The first pair of each match won 3 órdagos there: the pair first in the most matches.
    firsts = [m.first for m in Match.objects.filter(pk__in=[m.pk for m in matches])
              .select_related("first__pair")]
    best = max({e.pair.name for e in firsts}, key=lambda n: sum(
        e.pair.name == n for e in firsts))
    assert best in board.group(0)
    share = re.search(r'data-board="piedras_juego".*?</section>', html, re.S)
    assert share is not None and "%" in share.group(0)
    # The club page links it.
    club = get(reverse("clubs:club", args=[competition.club.slug]))
    assert leaders_url(competition) in club


def test_an_empty_club_says_how_the_counts_come() -> None:
    competition, user = liguilla(2)
    text = visible_text(get(leaders_url(competition)))
    assert "Todavía no hay partidas jugadas en las mesas de muscore" in text
    assert Client().get("/club/no-such-club/lideres/").status_code == 404


def test_the_leaders_queries_do_not_grow_with_the_club() -> None:
    competition, user = liguilla(4)
    played(competition, user, 1)
    one = queries(leaders_url(competition))
    for match in competition.matches.order_by("number")[1:]:
        play(competitions.open_table(match, by=user), *VACA)
    assert queries(leaders_url(competition)) == one <= 6


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_leaders_and_pair_pages_speak_only_their_language(code: str) -> None:
    competition, user = liguilla(4)
    played(competition, user, 6)
    entry = competition.entries.get(index=0)
    foreign = foreign_runs(code)
    for url in (leaders_url(competition),
                reverse("clubs:entry", args=[competition.club.slug, competition.pk, 0])):
        html = get(url, code)
        assert f'<html lang="{code}"' in html
        found = found_in(visible_text(html), foreign)
        assert not found, (url, found)
    assert entry.pair.name in get(leaders_url(competition), code)


def test_the_pair_page_shows_its_hand_stats() -> None:
    competition, user = liguilla(2)
    match = played(competition, user, 1)[0]
    html = get(reverse("clubs:entry", args=[competition.club.slug, competition.pk,
                                            match.first.index]))
    assert "data-hand-stats" in html
    stat = re.search(r'data-stat="ordagos">([^<]*)<', html)
    assert stat is not None and stat.group(1) == "3 echados, 3 queridos, 3 ganados"
    # A cleared result takes its counts away.
    results.clear_result(match, by=user, reason="un error")
    html = get(reverse("clubs:entry", args=[competition.club.slug, competition.pk,
                                            match.first.index]))
    assert "Aún sin partidas jugadas en una mesa de muscore." in visible_text(html)


def test_the_player_page_shows_his_sides_hand_stats_and_the_leaders_link_it() -> None:
    competition, user = liguilla(2)
    match = played(competition, user, 1)[0]
    player = match.second.pair.members.order_by("position").first().player
    url = reverse("clubs:player", args=[competition.club.slug, player.pk])
    html = get(url)
    stat = re.search(r'data-stat="ordagos">([^<]*)<', html)
    assert stat is not None and stat.group(1) == "1 echados, 1 queridos, 1 ganados"
    assert "la mano apunta qué pareja envida, no quién" in html
    assert f'href="{url}"' in get(leaders_url(competition))


def test_a_seasons_leaders_are_one_competitions() -> None:
    competition, user = liguilla(2)
    played(competition, user, 1)
    other = competitions.create_competition(
        competition.club, by=user, name="Liga de invierno",
        pairs=[e.pair for e in competition.entries.order_by("index")], draw=[1, 0])
    url = leaders_url(competition)
    html = get(url)
    assert f'href="?liga={other.pk}"' in html and "Liga de invierno" in html
    assert "De 1 partida jugada" in visible_text(get(f"{url}?liga={competition.pk}"))
    text = visible_text(get(f"{url}?liga={other.pk}"))
    assert "Todavía no hay partidas jugadas en las mesas de muscore" in text
    assert Client().get(f"{url}?liga=999999").status_code == 404
    assert Client().get(f"{url}?liga=x").status_code == 404
    assert queries(f"{url}?liga={competition.pk}") == queries(url)
