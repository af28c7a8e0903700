"""A public page names no organiser's account (issue 40: "Sorteado con el botón ·
bench-organiser" on the draw page gave an attacker the username to lock out).

The draw, a match's change log and its pairs' claims, a ceros tournament's log: a visitor
reads "la organización" (or nothing); the club's organisers still read who did it.
"""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.leagues import confirmations, results
from muscore.leagues.models import Match
from tests.clubs.factory import logged_in, make_club, make_league, make_pair, make_user
from tests.leagues.test_ceros_pages import NAMES

pytestmark = pytest.mark.django_db

USERNAME = "bench-organiser"


def test_the_league_pages_name_the_organiser_to_his_club_only() -> None:
    organiser = make_user(USERNAME)
    club = make_club(organiser=organiser)
    competition = make_league(club, 4, results=1)
    match = competition.matches.order_by("number").first()
    assert match is not None
    results.record_result(match, by=organiser, juegos=[1, 3], reason="el acta decía 1-3")
    second = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert second is not None
    confirmations.claim(second, side=0, juegos=[3, 0])
    confirmations.accept(second, by=organiser)
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    pages = [base + "sorteo", base + f"partida/{match.number}/",
             base + f"partida/{second.number}/"]
    for url in pages:
        public = Client().get(url)
        assert public.status_code == 200, url
        assert USERNAME not in public.content.decode(), url
        assert USERNAME in logged_in(organiser).get(url).content.decode(), url
    assert "la organización" in Client().get(pages[1]).content.decode()


def test_a_ceros_tournaments_log_names_no_account_to_visitors() -> None:
    organiser = make_user(USERNAME)
    club = make_club(organiser=organiser)
    for names in NAMES:
        make_pair(club, *names)
    client = logged_in(organiser)
    response = client.post(f"/club/{club.slug}/ligas/nueva", {
        "name": "Ceros", "format": "ceros", "ceros": 2, "legs": 1, "groups": 2,
        "pairs": [p.pk for p in club.pairs.all()], "reyes": 8, "target": 40, "juegos": 3,
        "real31": "no", "win": 2, "loss": 0, "forfeit": 0})
    page = response["Location"]
    assert client.post(page + "sortear").status_code == 302
    assert client.post(page + "publicar").status_code == 302
    assert USERNAME in client.get(page).content.decode()
    public = Client().get(page)
    assert public.status_code == 200 and USERNAME not in public.content.decode()
