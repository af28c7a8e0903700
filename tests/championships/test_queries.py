"""The championship's pages read a fixed number of queries whatever the groups and venues:
two championships of different sizes, cold (no cached standings), the same count."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Concat
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from muscore.championships import services
from muscore.leagues import competitions
from tests.championships.factory import play_heats, small_championship

pytestmark = pytest.mark.django_db


def drawn(bars: list[tuple[str, int]], seats: int) -> tuple[int, int, int]:
    championship, boss, barmen = small_championship(seats=seats, bars=bars)
    services.close_entries(championship, by=boss)
    play_heats(championship, barmen)
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    services.draw_phase(phase, by=boss, seed="s")
    return championship.pk, phase.pk, phase.groups.count()


def cold_queries(path: str) -> int:
    client = Client()
    client.get(path)  # the first read after the heats keeps each heat's order (once)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_page_and_the_hall_do_not_read_more_for_more_groups_and_venues() -> None:
    small = drawn([("Bar A", 4), ("Bar B", 4), ("Bar C", 4)], seats=6)
    # The factory's users have fixed names: the first championship's are renamed.
    get_user_model().objects.update(username=Concat("username", Value("-1")))
    large = drawn([(f"Bar {n}", 4) for n in range(7)], seats=14)
    assert small[2] == 2 and large[2] == 4
    counts = []
    for pk, phase_pk, _groups in (small, large):
        counts.append((cold_queries(reverse("championships:detail", args=[pk])),
                       cold_queries(reverse("championships:tv", args=[pk, phase_pk]))))
    assert counts[0] == counts[1]


def test_many_standings_at_once_are_each_ones_standings() -> None:
    championship_pk, _phase, _groups = drawn([("Bar A", 5), ("Bar B", 3), ("Bar C", 4)], 6)
    heats = [s.heat for s in services.Sede.objects.filter(championship_id=championship_pk)]
    groups = [g.competition for g in services.PhaseGroup.objects.filter(
        phase__championship_id=championship_pk)]
    every = [c for c in heats + groups if c is not None]
    cache.clear()
    batched = competitions.standings_of(every)
    for competition in every:
        one = competitions.standings(competition, cached=False)
        assert [[r.name for r in t.rows] for t in batched[competition.pk]] == [
            [r.name for r in t.rows] for t in one]
        assert [[r.points for r in t.rows] for t in batched[competition.pk]] == [
            [r.points for r in t.rows] for t in one]
    # Now cached: the same answer from the cache.
    again = competitions.standings_of(every)
    assert {pk: [[r.name for r in t.rows] for t in v] for pk, v in again.items()} == {
        pk: [[r.name for r in t.rows] for t in v] for pk, v in batched.items()}
