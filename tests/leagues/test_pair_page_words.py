"""The pair page says a score from the pair's side (its own juegos first), and the Basque
pages name the first pair first ("A – B", never the Spanish word order "A aurka B", which
in Basque reads as B against A) (issue 17 item 8)."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.leagues import results
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db


def test_the_pair_page_puts_the_pairs_own_juegos_first() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.order_by("number").first()
    assert match is not None
    results.record_result(match, by=club.memberships.get().user, juegos=[3, 1])
    base = f"/club/{club.slug}/liga/{competition.pk}/pareja/"
    winner = Client().get(f"{base}{match.first.index}/").content.decode()
    loser = Client().get(f"{base}{match.second.index}/").content.decode()
    assert "3–1 · ganada" in winner
    assert "1–3 · perdida" in loser and "3–1" not in loser


def test_a_basque_match_list_names_the_first_pair_first_without_aurka() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.order_by("number").first()
    assert match is not None
    client = Client(headers={"accept-language": "eu"})
    html = client.get(f"/club/{club.slug}/liga/{competition.pk}/jornada/1/").content.decode()
    first, second = match.first.pair.name, match.second.pair.name
    assert html.index(first) < html.index(second)
    assert '<span class="muted">–</span>' in html and "aurka</span>" not in html
