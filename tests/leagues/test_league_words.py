"""The league's words (issue 17.8): each said once and in the right number."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from muscore.leagues import confirmations, results
from tests.clubs.factory import logged_in, make_club, make_league
from tests.test_languages_pages import visible_text

pytestmark = pytest.mark.django_db


def test_a_paper_result_says_en_papel_once() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.order_by("number").first()
    results.record_result(match, by=club.memberships.get().user, juegos=[3, 1])
    html = Client().get(f"/club/{club.slug}/liga/{competition.pk}/partida/1/").content.decode()
    text = visible_text(html)
    assert "anotada a mano" in text and text.count("en papel") == 1, text


def test_a_pair_waiting_to_confirm_agrees_with_its_name() -> None:
    # "Falta que Zazpiko lo confirmen" (issue 29): the pair named as a pair, the verb
    # singular with it, whatever its name ("Los de Leitza", "Zazpiko").
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.select_related("second__pair").order_by("number").first()
    confirmations.claim(match, side=0, juegos=[3, 1])
    organiser = logged_in(club.memberships.get().user)
    html = organiser.get(f"/club/{club.slug}/liga/{competition.pk}/partida/1/").content.decode()
    other = match.second.pair.name
    assert re.search(rf"falta que la pareja {re.escape(other)} lo confirme\.",
                     visible_text(html))
    assert "lo confirmen" not in visible_text(html)


def test_the_round_sheet_names_the_players_of_named_pairs_and_has_juegos_boxes() -> None:
    from muscore.clubs.models import Pair

    club = make_club()
    competition = make_league(club, 4, results=0)
    named = Pair.objects.get(pk=competition.entries.get(index=0).pair_id)
    players = named.player_names()
    named.name = "Los de Azpeitia"
    named.save()
    html = Client().get(f"/club/{club.slug}/liga/{competition.pk}/jornada/1/").content.decode()
    assert f"Los de Azpeitia</a> <span class=\"muted\" data-players>({', '.join(players)})" in html
    # A pair named after its players is not repeated.
    assert html.count("data-players") == 1
    assert html.count("data-juegos-box") == 4  # two matches, a box per pair
