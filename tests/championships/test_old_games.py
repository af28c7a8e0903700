"""A knockout game's addresses from before championships 0011 (each game a competition of
its own: its page, round, pairs, match, cards, the bar's screen and its API document)
lead to the same game now, for good (301); an id no game had, a page the game's
competition did not have, another club's address or a form sent there stay as they were.
The migration that keeps which competition became which match is tested from a database
made by that code (tests/upgrade)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from muscore.championships import knockout
from muscore.championships.models import OldGame
from muscore.leagues import confirmations
from muscore.leagues.models import Match
from tests.championships.factory import knockout_phase
from tests.clubs.factory import make_club

pytestmark = pytest.mark.django_db

OLD = 9001


def _game() -> tuple[str, Match]:
    """A best-of-3 knockout's second game of a tie (its sides swapped, a round of its
    own), kept as the old competition OLD became it."""
    championship, _boss, phase = knockout_phase(best_of=3)
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    game = Match.objects.select_related("competition", "round", "first", "second").get(
        pk=tie.games[1].pk)
    assert game.number != 1 and game.round.number != 1
    OldGame.objects.create(competition_id=OLD, match=game)
    return championship.club.slug, game


def moved(client: Client, url: str, **extra: Any) -> str:
    response = client.get(url, **extra)
    assert response.status_code == 301, (url, response.status_code)
    location: str = response["Location"]
    assert client.get(location, **extra).status_code == 200, location
    return location


def test_every_page_of_an_old_game_leads_to_the_same_game_now() -> None:
    slug, game = _game()
    client = Client()
    new = game.competition_id
    old = f"/club/{slug}/liga/{OLD}/"
    now = f"/club/{slug}/liga/{new}/"
    number = game.number
    assert game.first is not None and game.second is not None
    for page in ("", "jornadas", "sorteo", "partida/1/"):
        assert moved(client, old + page) == f"{now}partida/{number}/"
    assert moved(client, f"{old}jornada/1/") == f"{now}jornada/{game.round.number}/"
    assert moved(client, f"{old}pareja/0/") == f"{now}pareja/{game.first.index}/"
    assert moved(client, f"{old}pareja/1/") == f"{now}pareja/{game.second.index}/"
    # The game's first pair is the tie's second: the sides swap each game.
    assert game.first.index != 0 or game.second.index != 1
    # A pair's result link, with its key, and the round's card.
    key = confirmations.keys_for([game])[game.pk][1]
    assert moved(client, f"{old}partida/1/resultado/{key}/") == \
        f"{now}partida/{number}/resultado/{key}/"
    assert client.get(f"{old}jornada/1/tarjeta.png").headers["Location"] == \
        f"{now}jornada/{game.round.number}/tarjeta.png"
    # The bar's screen that showed the game shows its knockout; the query kept.
    assert moved(client, f"/club/{slug}/tv/?liga={OLD}&live=1") == \
        f"/club/{slug}/tv/?liga={new}&live=1"
    # The API's document, export and CSVs: the knockout's.
    assert moved(client, f"/api/v1/leagues/{OLD}") == f"/api/v1/leagues/{new}"
    assert moved(client, f"/api/v1/leagues/{OLD}/standings.csv") == \
        f"/api/v1/leagues/{new}/standings.csv"
    assert client.get(f"/api/v1/leagues/{OLD}/export")["Location"] == \
        f"/api/v1/leagues/{new}/export"
    # In the address's language; HEAD too.
    assert moved(client, f"/en/club/{slug}/liga/{OLD}/") == f"/en{now}partida/{number}/"
    assert moved(client, f"/fr/club/{slug}/liga/{OLD}/pareja/1/",
                 HTTP_ACCEPT_LANGUAGE="eu") == f"/fr{now}pareja/{game.second.index}/"
    assert moved(client, old, HTTP_ACCEPT_LANGUAGE="en") == f"{now}partida/{number}/"
    assert client.head(old).status_code == 301


def test_what_no_old_game_had_stays_404() -> None:
    slug, game = _game()
    client = Client()
    old = f"/club/{slug}/liga/{OLD}/"
    other = make_club("Otro Bar").slug
    for url in (f"/club/{slug}/liga/{OLD + 1}/",  # an id no game had
                f"/club/{other}/liga/{OLD}/",  # another club's
                f"{old}jornada/2/", f"{old}partida/2/", f"{old}pareja/2/",
                f"/club/{slug}/tv/?liga={OLD + 1}",
                f"/api/v1/leagues/{OLD + 1}"):
        assert client.get(url).status_code == 404, url
    # A form sent to the old game's competition is not sent on to the knockout.
    for url in (f"{old}partida/1/resultado", f"{old}archivar", f"{old}borrar"):
        assert client.post(url, {"juegos_first": 1}).status_code in (403, 404, 405), url
    assert client.get(f"{old}archivar").status_code in (404, 405)
    # A game that goes (its match deleted) takes its old address with it.
    game.delete()
    assert client.get(old).status_code == 404
