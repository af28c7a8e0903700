"""The league pages read a bounded number of rows: their SQL query count does not grow with
the number of pairs or matches (a club's double liguilla of 200 pairs has 39,800)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from muscore.leagues.models import Competition
from tests.clubs.factory import make_club, make_league, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def queries(client: Client, url: str) -> int:
    cache.clear()  # the standings' cache would hide their queries
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return len(captured)


def page_queries(competition: Competition, client: Client) -> dict[str, int]:
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    return {
        name: queries(client, base + path)
        for name, path in [
            ("standings", ""),
            ("rounds", "jornadas"),
            ("round", "jornada/2/"),
            ("pair", "pareja/1/"),
            ("match", "partida/3/"),
        ]
    }


@pytest.mark.parametrize("organiser", [False, True])
def test_query_counts_do_not_grow_with_the_league(organiser: bool) -> None:
    small = make_league(make_club("Peña chica"), 4, legs=2, results=8)
    large = make_league(make_club("Peña grande", make_user("iker")), 12, legs=2, results=100)
    counts = []
    for competition in (small, large):
        client = Client()
        if organiser:
            client.force_login(competition.club.memberships.get().user)
        counts.append(page_queries(competition, client))
    assert counts[0] == counts[1], counts
