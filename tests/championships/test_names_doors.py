"""Names the app makes, in the reader's language at every door (issue 27, point 5): a
phase's groups and a knockout's games drawn from a French page are named in Spanish to a
Spanish reader and in French to a French reader on the league pages (competition, rounds,
match), the club's page, its TV, the organiser's night, the leaders, the round's card and
the championship's API; the stored name is the site's language whoever drew it, and a
name the organiser typed stays as typed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from muscore.championships import services
from muscore.championships.models import PhaseGroup
from muscore.leagues import pages, results
from muscore.leagues.models import Competition, Match
from muscore.leagues.models.knockout import game_title

from .factory import played_heats

pytestmark = pytest.mark.django_db

#: What each language calls group 1 of the phase "Semifinal" (typed by its organiser).
GROUP = {"es": "Semifinal · Grupo 1", "fr": "Semifinal · Poule 1"}
#: ... and the first game of a quarterfinal of the knockout "Cuadro" (best of 3).
GAME = {"es": "Cuadro · Cuarto de final {tie} · partida 1",
        "fr": "Cuadro · Quart de finale {tie} · partie 1"}
OTHER = {"es": "fr", "fr": "es"}


def french_groups() -> tuple[Any, Any, Competition]:
    """A phase of groups drawn from a French page, one match of its first group played."""
    championship, boss, barmen, _sedes = played_heats()
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    with translation.override("fr"):
        services.draw_phase(phase, by=boss, seed="s")
    group = PhaseGroup.objects.get(phase=phase, order=0).competition
    match = Match.objects.filter(competition=group).order_by("number").first()
    assert match is not None
    with translation.override("fr"):
        results.record_result(match, by=boss, juegos=[1, 0])
    return championship, boss, group


def french_knockout() -> tuple[Any, Any, Match]:
    championship, boss, barmen, _sedes = played_heats()
    phase = services.add_phase(championship, by=boss, name="Cuadro", knockout=True, best_of=3)
    with translation.override("fr"):
        services.draw_phase(phase, by=boss, seed="s")
    game = (Match.objects.filter(competition__phase_group__phase=phase, tie__round=1, game=1)
            .select_related("competition__club", "tie").order_by("tie__order").first())
    assert game is not None and game.tie is not None  # the best 2 seeds wait the quarters
    return championship, game.tie.order + 1, game


def reader(language: str, user: Any = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def test_a_name_the_app_made_is_stored_in_the_site_s_language_and_made_of_its_parts() -> None:
    _championship, _boss, group = french_groups()
    assert group.name == GROUP["es"]  # drawn from a French page
    assert group.made == {"of": "Semifinal", "group": 1}
    with translation.override("fr"):
        assert group.title == str(group) == GROUP["fr"]
    typed = Competition(name="Phase de poules · Grupo 1")  # an organiser's own name
    with translation.override("fr"):
        assert typed.title == "Phase de poules · Grupo 1"


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_league_s_pages_name_a_group_in_the_reader_s_language(language: str) -> None:
    _championship, boss, group = french_groups()
    match = Match.objects.filter(competition=group).order_by("number").first()
    assert match is not None
    slug = group.club.slug
    for url, user in [(pages.competition_url(group), None),
                      (pages.competition_url(group, "rounds"), None),
                      (pages.match_url(match), None),
                      # The club page and its leaders' picker name the championship,
                      # not its groups (issue 36: tests/championships/test_club_lists.py);
                      # the night lists a group with matches to mark under it.
                      (f"/club/{slug}/tv/?liga={group.pk}", None),
                      (f"/club/{slug}/noche/", boss),
                      (pages.competition_url(group, "round_card", 1, "txt"), None)]:
        page = reader(language, user).get(url)
        assert page.status_code == 200, url
        body = page.content.decode()
        assert GROUP[language] in body, url
        assert GROUP[OTHER[language]] not in body, url


@pytest.mark.parametrize("language", ["es", "fr"])
def test_a_knockout_s_game_is_named_in_the_reader_s_language(language: str) -> None:
    _championship, tie, game = french_knockout()
    named = {k: v.format(tie=tie) for k, v in GAME.items()}
    with translation.override("es"):  # drawn from a French page: named in Spanish too
        assert game_title(game.competition, game.tie, game.game) == named["es"]
    for url in [pages.match_url(game), pages.competition_url(game.competition, "rounds")]:
        body = reader(language).get(url).content.decode()
        assert named[language] in body, url
        assert named[OTHER[language]] not in body, url


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_championship_s_api_names_its_groups_in_the_request_s_language(
    language: str,
) -> None:
    championship, _boss, group = french_groups()
    client = reader(language)
    answer = client.get(f"/api/v1/championships/{championship.pk}")
    assert answer.status_code == 200
    assert "Accept-Language" in answer["Vary"]
    named = [g["name"] for p in answer.json()["phases"] for g in p["groups"]]
    assert GROUP[language] in named
    assert not [n for n in named if n.endswith(GROUP[OTHER[language]][-7:])]
    # Each language its own kept copy: the other reader is not served this one.
    other = reader(OTHER[language]).get(f"/api/v1/championships/{championship.pk}")
    assert GROUP[OTHER[language]] in [g["name"] for p in other.json()["phases"]
                                      for g in p["groups"]]
    assert other["ETag"] != answer["ETag"]


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_championship_s_pages_name_its_groups_in_the_reader_s_language(
    language: str,
) -> None:
    championship, _boss, group = french_groups()
    phase = PhaseGroup.objects.get(competition=group).phase
    word = {"es": "Grupo 1", "fr": "Poule 1"}
    for url in [f"/campeonatos/{championship.pk}/",
                f"/campeonatos/{championship.pk}/fases/{phase.pk}/",
                f"/campeonatos/{championship.pk}/fases/{phase.pk}/tv/"]:
        page = reader(language).get(url)
        assert page.status_code == 200, url
        body = page.content.decode()
        assert word[language] in body, url
        assert word[OTHER[language]] not in body, url


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_league_s_api_names_a_group_in_the_request_s_language(language: str) -> None:
    _championship, _boss, group = french_groups()
    url = f"/api/v1/leagues/{group.pk}"
    answer = reader(language).get(url)
    assert answer.status_code == 200
    assert answer.json()["name"] == GROUP[language]
    assert "Accept-Language" in answer["Vary"]
    other = reader(OTHER[language]).get(url)
    assert other.json()["name"] == GROUP[OTHER[language]]
    assert other["ETag"] != answer["ETag"]
    again = reader(language).get(url, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304
    # The export, made once for every reader by the worker: the stored name.
    export = reader(language).get(f"/api/v1/leagues/{group.pk}/export")
    assert export.status_code == 200
    body = b"".join(export.streaming_content if export.streaming else [export.content])
    assert json.loads(body)["name"] == GROUP["es"]
