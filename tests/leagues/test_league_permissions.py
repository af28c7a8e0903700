"""Only a club's organisers change its competitions: a visitor or another club's organiser
gets a 403 on every league page that writes, and nothing is written (no table either)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from muscore.leagues.models import Competition, Correction, Entry, Match, Round
from muscore.tables.models import Table
from tests.clubs.factory import logged_in, make_club, make_league, make_user

pytestmark = pytest.mark.django_db


def snapshot() -> list[Any]:
    return [
        list(Competition.objects.values_list("pk", "name", "draw", "revision", "status")),
        list(Round.objects.values_list("pk", "starts_at")),
        list(Entry.objects.values_list("pk", "index", "pair")),
        list(Match.objects.order_by("pk").values()),
        list(Correction.objects.values_list("pk")),
        list(Table.objects.values_list("pk")),
    ]


def writes(competition: Competition) -> list[tuple[str, dict[str, Any]]]:
    played = competition.matches.played().order_by("number").first()
    left = competition.matches.filter(tie__isnull=True).unplayed().order_by("number").first()
    assert played is not None and left is not None and left.first is not None
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    player = left.first.pair.members.first().player  # type: ignore[union-attr]
    return [
        (f"/club/{competition.club.slug}/ligas/nueva", {"name": "Otra", "format": "liguilla"}),
        (base + "sorteo", {"order": ""}),
        (base + "jornada/1/hora", {"starts_at": "2026-12-03T21:30"}),
        (base + f"partida/{left.number}/jugar", {}),
        (base + f"partida/{left.number}/resultado", {"juegos_first": 3, "juegos_second": 0}),
        (base + f"partida/{left.number}/no-presentado", {"who": "both"}),
        (
            base + f"partida/{left.number}/suplente",
            {"side": "0", "s0-replaced": player.pk, "s0-substitute": "Intruso"},
        ),
        (base + f"partida/{played.number}/titulares", {"side": "0"}),
        (base + f"partida/{played.number}/resultado", {"juegos_first": 0, "juegos_second": 3}),
        (base + f"partida/{played.number}/anular", {}),
    ]


@pytest.mark.parametrize("who", ["visitor", "another club's organiser"])
def test_nobody_but_an_organiser_changes_a_competition(who: str) -> None:
    club = make_club()
    competition = make_league(club, 4, results=2)
    client = Client()
    if who != "visitor":
        client = logged_in(make_club("Peña", make_user("otro")).memberships.get().user)
    before = snapshot()
    for url, data in writes(competition):
        response = client.post(url, data)
        assert response.status_code == 403, (url, response.status_code)
    assert client.get(f"/club/{club.slug}/ligas/nueva").status_code == 403
    assert snapshot() == before


def test_the_organiser_may_post_to_the_same_pages() -> None:
    club = make_club()
    competition = make_league(club, 4, results=2)
    client = logged_in(club.memberships.get().user)
    for url, data in writes(competition):
        assert client.post(url, data).status_code in (200, 302, 400), url
