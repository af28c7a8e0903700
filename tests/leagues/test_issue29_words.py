"""Issue 29 point 5 on the leagues' side: the cup's card names its champion, the pair
that starts as mano turns over a liguilla (Bar Txoko B started none of its 7), the
competition form lists pairs as Spanish sorts them, and the API says a refusal in the
request's language beside its English words."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.leagues import card, competitions, results
from muscore.leagues.forms import CompetitionForm
from muscore.leagues.models import Match
from muscore.tables.models import Table
from tests.clubs.factory import make_club, make_league, make_pair
from tests.leagues.helpers import game

pytestmark = pytest.mark.django_db


def play_cup(competition: object, by: object) -> None:
    while True:
        match = (Match.objects.filter(competition=competition, first__isnull=False,
                                      second__isnull=False).unplayed()
                 .order_by("number").first())
        if match is None:
            return
        results.record_result(match, by=by, juegos=[3, 1])


def test_the_cups_card_names_its_champion() -> None:
    club = make_club()
    cup = make_league(club, 8, format="groups", results=0)
    organiser = club.memberships.get().user
    number = cup.matches.order_by("-round__number").first().round.number
    assert "Campeones" not in card.card_text(card.round_night(cup, 1), "https://x/")
    play_cup(cup, organiser)
    final = game(cup, "final")
    winner = (final.first, final.second)[final.outcome.winner].pair.name
    night = card.round_night(cup, final.round.number if final.round else number)
    assert night is not None and night.champion == winner
    assert f"Campeones: {winner}" in card.card_text(night, "https://x/")
    assert card.render_png(night) != card.render_png(card.Night(**{**night.__dict__,
                                                                   "champion": ""}))


def test_every_pair_of_a_liguilla_starts_as_mano_in_turn() -> None:
    club = make_club()
    league = make_league(club, 8, results=0)
    organiser = club.memberships.get().user
    starts: dict[str, int] = {}
    for match in league.matches.select_related("first__pair", "second__pair").order_by(
            "number"):
        table = competitions.open_table(match, by=organiser)
        mano = Table.objects.get(pk=table.pk).first_mano
        pair = (match.first, match.second)[mano % 2].pair.name
        starts[pair] = starts.get(pair, 0) + 1
    assert len(starts) == 8, starts  # before: the pair always second started none
    assert min(starts.values()) >= 2 and max(starts.values()) <= 5, starts


def test_the_competition_form_lists_pairs_in_spanish_order() -> None:
    club = make_club()
    for name in ("Zazpiko", "Órdago Txiki", "Iñaki eta Jon", "Inza", "ahuntzak"):
        make_pair(club, f"{name} a", f"{name} b", name=name)
    form = CompetitionForm(club=club)
    labels = [label for _value, label in form.fields["pairs"].choices]
    assert labels == ["ahuntzak", "Inza", "Iñaki eta Jon", "Órdago Txiki", "Zazpiko"]
    assert "Órdago Txiki" in str(form["pairs"])


def test_the_api_says_a_refusal_in_the_requests_language() -> None:
    client = Client()
    made = client.post("/api/v1/tables", {}, content_type="application/json").json()
    url = f"/api/v1/tables/{made['id']}/hands"
    stale: dict[str, object] = {}
    headers = {"X-Table-Key": made["edit_key"], "If-Match": '"r999"'}
    english = client.post(url, stale, content_type="application/json", headers=headers)
    spanish = client.post(url, stale, content_type="application/json",
                          headers={**headers, "Accept-Language": "es-ES,es;q=0.9"})
    french = client.post(url, stale, content_type="application/json",
                         headers={**headers, "Accept-Language": "fr"})
    assert english.status_code == spanish.status_code == french.status_code
    assert english.status_code in (400, 409), english.json()
    assert "message" not in english.json()
    assert spanish.json()["error"] == english.json()["error"]  # the contract's words
    assert spanish.json()["message"] and spanish.json()["message"] != french.json()["message"]
    assert "message" not in client.post(url, stale, content_type="application/json", headers={
        **headers, "Accept-Language": "en"}).json()
