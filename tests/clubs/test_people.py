"""People found by their names as Spanish reads them (issue 27, point 6): a match's win
chance showed Íñigo and Álvaro as "(nuevo)" though rated, because the lookup lowercased
in SQLite (which leaves Í and Á as they are). Now every lookup of a club's people (the
win chance, the ratings and hand stats of who sat, a substitute, a pair's players) reads
muscore.clubs.people's key, in Python: the same on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from muscore.clubs import people, services
from muscore.clubs.models import Player
from muscore.leagues import competitions, pages, rating_store, results
from muscore.leagues.models import Match, PlayerRating, RatingPoint
from tests.clubs.factory import make_club, make_pair, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_the_key_reads_case_and_accents_as_spanish_does() -> None:
    same = ["Íñigo", "ÍÑIGO", "íñigo", "Iñigo", " Íñigo ", "IÑIGO"]
    assert len({people.name_key(n) for n in same}) == 1
    assert people.same_person("Álvaro", "alvaro") and people.same_person("ÁLVARO", "Álvaro")
    assert people.same_person("María José", "maria  jose")
    # ñ is a letter of its own: Iñigo is not Inigo, Peña not Pena.
    assert not people.same_person("Iñigo", "Inigo")
    assert not people.same_person("Peña", "Pena")
    assert not people.same_person("Álvaro", "Álvara")


def accented_liguilla(extra: bool = False) -> tuple[Any, Any]:
    user = make_user("maite")
    club = make_club("Bar Ñandú", organiser=user)
    pairs = [make_pair(club, "Íñigo", "Álvaro"), make_pair(club, "Ósca", "Úrsula"),
             make_pair(club, "Ana", "Bea"), make_pair(club, "Carlos", "Dani")]
    if extra:  # five: a pair rests each round
        pairs.append(make_pair(club, "Eva", "Fermín"))
    competition = competitions.create_competition(
        club, by=user, name="Liga", pairs=pairs, draw=list(range(len(pairs))))
    return competition, user


def test_a_rated_player_with_accents_is_shown_with_his_nivel_not_new() -> None:
    competition, user = accented_liguilla()
    for m in Match.objects.filter(competition=competition).select_related(
            "competition").order_by("number")[:3]:
        results.record_result(m, by=user, juegos=[3, 1])
    unplayed = (Match.objects.filter(competition=competition).unplayed()
                .select_related("first__pair", "second__pair", "competition__club")
                .order_by("number"))
    # A match of Íñigo and Álvaro's pair still to play, and both rated by now.
    target = next(m for m in unplayed if 0 in (m.first.index, m.second.index))
    club = competition.club
    for name in ("Íñigo", "Álvaro", "Ósca", "Úrsula"):
        assert PlayerRating.objects.filter(player__club=club, player__name=name).exists()
    html = Client().get(pages.match_url(target)).content.decode()
    prediction = html[html.index('id="pronostico"'):]
    prediction = prediction[:prediction.index("</section>")]
    for name in ("Íñigo", "Álvaro"):
        nivel = PlayerRating.objects.get(player__club=club, player__name=name).nivel
        shown = re.search(re.escape(name) + r"</a> \(([-\d.,]+)\)", prediction)
        assert shown is not None, (name, connection.vendor, prediction)
        assert float(shown.group(1).replace(",", ".")) == round(nivel, 1)
    assert "(nuevo)" not in prediction


def test_a_substitute_written_otherwise_is_the_club_s_player() -> None:
    """A substitute typed in capitals and without the accent is the club's Álvaro: no new
    player is made, his rating and the fresh rate_players agree."""
    competition, user = accented_liguilla(extra=True)
    club = competition.club
    # A match of the round Íñigo and Álvaro's pair rests (one person, one table a round).
    rest = competition.rounds.get(bye__index=0)
    match = (Match.objects.filter(round=rest).select_related(
        "competition", "first__pair", "second__pair").order_by("number").first())
    assert match is not None and match.first is not None
    players = Player.objects.filter(club=club).count()
    own = competitions.match_players(match)[0]
    competitions.set_players(match, by=user, side=0, players=["ALVARO", own[1]])
    assert Player.objects.filter(club=club).count() == players
    match = Match.objects.select_related("competition").get(pk=match.pk)
    results.record_result(match, by=user, juegos=[3, 2])
    alvaro = Player.objects.get(club=club, name="Álvaro")
    assert RatingPoint.objects.filter(player=alvaro, match=match).exists()
    stored = sorted(RatingPoint.objects.filter(club=club).values_list(
        "player_id", "match_id", "mu", "sigma"))
    rating_store.rate_club(club)
    assert sorted(RatingPoint.objects.filter(club=club).values_list(
        "player_id", "match_id", "mu", "sigma")) == stored
    assert Player.objects.filter(club=club).count() == players


def test_a_pair_of_the_same_people_is_found_whatever_the_case() -> None:
    club = make_club("Bar Kaixo", organiser=make_user("kaixo"))
    pair = make_pair(club, "Íñigo", "Álvaro")
    assert services.pair_with_players(club, ["ÍÑIGO", "alvaro"]) == pair
    assert services.pair_with_players(club, ["Álvaro", "Íñigo"]) == pair
    assert services.pair_with_players(club, ["Inigo", "Álvaro"]) is None
    assert people.player_named(club.pk, "íñigo") == Player.objects.get(club=club,
                                                                       name="Íñigo")
