"""HEAD answered wherever GET is (issue 30 point 8): every URL pattern of the project is
walked, filled with a real table, league, championship and their keys, and asked GET and
HEAD; a pattern the test cannot fill fails it (a new URL is covered from the day it is
added)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from muscore.championships import services as championships
from muscore.leagues import confirmations
from muscore.tables import services
from tests.championships.factory import small_championship
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.django_db
# Routes that answer any method on purpose (the API's JSON 404 for any path under it).
ANY_METHOD = {"api/v1/tables/<path:rest>", "api/v1/leagues/<path:rest>"}


def patterns(items: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for item in items:
        if isinstance(item, URLResolver):
            yield from patterns(item.url_patterns, prefix + str(item.pattern))
        else:
            yield prefix + str(item.pattern), item


def world() -> dict[str, str]:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7",
                                        "3": "S S 7 7"}}, via="api")
    competition, _organiser = liguilla()
    match = competition.matches.order_by("number").first()
    assert match is not None
    side_key = confirmations.keys_for([match])[match.pk][0]
    championship, _boss, _barmen = small_championship()
    sede = championship.sedes.order_by("id").first()
    assert sede is not None
    phase = championships.add_phase(championship, by=_boss, name="Final")
    club = competition.club
    pair = club.pairs.order_by("id").first()
    assert pair is not None
    return {
        "table_id": table.id, "key": table.edit_key, "number": "1", "slug": club.slug,
        "competition_id": str(competition.pk), "league_id": str(competition.pk),
        "index": "0", "player_id": str(club.players.order_by("id").first().pk),  # type: ignore[union-attr]
        "pair_id": str(pair.pk), "membership_id": str(club.memberships.get().pk),
        "pk": str(championship.pk), "championship_id": str(championship.pk),
        "sede_pk": str(sede.pk), "enrolment_pk": str(sede.enrolments.first().pk),  # type: ignore[union-attr]
        "phase_pk": str(phase.pk), "kind": "png", "day": str(match.round.starts_at.date()
                                                             if match.round.starts_at else
                                                             "2026-01-01"),
        "page": "lances", "uidb64": "MQ", "token": "x-y", "action": "confirmar",
        "rest": "nothing/here", "side_key": str(side_key),
    }


def fill(route: str, values: dict[str, str]) -> str:
    """The route with its converters replaced by the world's values."""
    import re

    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        assert name in values, f"{route}: the test has no value for <{name}>"
        return values[name]

    # A pair's link to its match has a key of its own, not the table's edit key.
    route = route.replace("resultado/<str:key>", "resultado/<str:side_key>")
    path = re.sub(r"<(?:\w+:)?(\w+)>", value, route)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)+", value, path)
    return "/" + path.lstrip("^").rstrip("$")


def test_every_url_that_answers_get_answers_head() -> None:
    values = world()
    client = Client()
    wrong = []
    for route, pattern in patterns(get_resolver().url_patterns):
        if route in ANY_METHOD or route.startswith("admin/"):
            continue
        url = fill(route, values)
        get = client.get(url)
        if get.status_code == 405:
            continue  # a POST-only route
        head = client.head(url)
        if head.status_code != get.status_code or head.content:
            wrong.append((url, pattern.name, get.status_code, head.status_code))
    assert not wrong, wrong
