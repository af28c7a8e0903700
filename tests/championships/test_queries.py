"""The championship's pages read a fixed number of queries whatever the groups and venues:
two championships of different sizes, cold (no cached standings), the same count."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Concat
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from muscore.championships import pages, services
from muscore.championships.models import Enrolment, PhaseGroup, Region, Sede
from muscore.leagues import competitions
from muscore.leagues.models import Competition, Entry
from muscore.leagues.results import final as final_order
from muscore.leagues.results import standings as results_standings
from tests.championships.factory import played_heats, small_championship

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def drawn(bars: list[tuple[str, int]], seats: int) -> tuple[int, int, int]:
    championship, boss, barmen, _sedes = played_heats(seats=seats, bars=bars)
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
        sede = Sede.objects.filter(championship_id=pk).order_by("id").first()
        enrolment = Enrolment.objects.filter(
            championship_id=pk, phase_pair__isnull=False).order_by("id").first()
        region = Region.objects.filter(championship_id=pk).first()
        assert sede is not None and enrolment is not None and region is not None
        counts.append({name: cold_queries(path) for name, path in {
            "championship": reverse("championships:detail", args=[pk]),
            "region": reverse("championships:detail", args=[pk]) + f"?region={region.pk}",
            "tv": reverse("championships:tv", args=[pk, phase_pk]),
            "phase": reverse("championships:phase", args=[pk, phase_pk]),
            "venue": reverse("championships:sede", args=[pk, sede.pk]),
            "pair": reverse("championships:pair", args=[pk, enrolment.pk]),
            "player": reverse("championships:player", args=[pk])
            + f"?nombre={enrolment.player_a}",
            "api": reverse("api:championship", args=[pk]),
        }.items()})
    assert counts[0] == counts[1], counts


def test_many_standings_at_once_are_each_ones_standings() -> None:
    championship_pk, _phase, _groups = drawn([("Bar A", 5), ("Bar B", 3), ("Bar C", 4)], 6)
    heats = [s.heat for s in Sede.objects.filter(championship_id=championship_pk)]
    groups = [g.competition for g in PhaseGroup.objects.filter(
        phase__championship_id=championship_pk)]
    every = [c for c in heats + groups if c is not None]
    cache.clear()
    batched = results_standings.standings_of(every)
    for competition in every:
        one = results_standings.standings(competition, cached=False)
        assert [[r.name for r in t.rows] for t in batched[competition.pk]] == [
            [r.name for r in t.rows] for t in one]
        assert [[r.points for r in t.rows] for t in batched[competition.pk]] == [
            [r.points for r in t.rows] for t in one]
    # Now cached: the same answer from the cache.
    again = results_standings.standings_of(every)
    assert {pk: [[r.name for r in t.rows] for t in v] for pk, v in again.items()} == {
        pk: [[r.name for r in t.rows] for t in v] for pk, v in batched.items()}


def test_the_draw_makes_the_phase_pairs_at_once_with_their_players_and_audit() -> None:
    championship, boss, barmen, _sedes = played_heats(seats=6)
    # A pair of the championship's club already has the name of a qualified pair.
    from muscore.clubs.services import save_pair

    save_pair(championship.club, "Bar Txoko 1", ["Bar Txoko 1a", "Someone else"])
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    with CaptureQueriesContext(connection) as queries:
        services.draw_phase(phase, by=boss, seed="s")
    enrolments = list(championship.enrolments.filter(phase_pair__isnull=False)
                      .select_related("phase_pair"))
    assert len(enrolments) == 6
    names = {e.name: e.phase_pair.name for e in enrolments if e.phase_pair}
    assert names["Bar Txoko 1"] == "Bar Txoko 1 (Bar Txoko)"
    for e in enrolments:
        assert e.phase_pair is not None and e.phase_pair.player_names() == e.players
    # The player already in the club is that player, not a second one of the same name.
    assert championship.club.players.filter(name="Bar Txoko 1a").count() == 1
    assert championship.club.changes.filter(what="pair").count() == 7
    pair_writes = [q for q in queries.captured_queries
                   if 'INSERT INTO "clubs_pair"' in q["sql"]]
    assert len(pair_writes) == 1


def draw_queries(bars: list[tuple[str, int]], seats: int) -> tuple[int, int]:
    championship, boss, barmen, _sedes = played_heats(seats=seats, bars=bars)
    services.qualified(championship)  # each heat's order, kept once the heats end
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    with CaptureQueriesContext(connection) as queries:
        services.draw_phase(phase, by=boss, seed="s")
    return len(queries), phase.groups.count()


def test_drawing_a_phase_does_not_read_or_write_more_for_more_groups() -> None:
    small = draw_queries([("Bar A", 4), ("Bar B", 4), ("Bar C", 4)], seats=6)
    get_user_model().objects.update(username=Concat("username", Value("-1")))
    large = draw_queries([(f"Bar {n}", 4) for n in range(7)], seats=14)
    assert (small[1], large[1]) == (2, 4)
    assert small[0] == large[0]


def test_liguillas_made_at_once_are_as_made_one_by_one() -> None:
    championship, boss, _barmen = small_championship()
    club = championship.club
    from muscore.clubs.services import save_pair

    pairs = [save_pair(club, f"P{i}", [f"P{i}a", f"P{i}b"]) for i in range(9)]
    one = [competitions.create_competition(club, by=boss, name=f"One {n}", pairs=group,
                                           draw=list(range(len(group))), draw_method="phase",
                                           rules=championship.rules)
           for n, group in enumerate([pairs[:4], pairs[4:]])]
    bulk = competitions.create_liguillas(club, by=boss, rules=championship.rules,
                                         draw_method="phase",
                                         leagues=[("Bulk 0", pairs[:4]), ("Bulk 1", pairs[4:])])

    def shape(competition: Competition) -> tuple[object, ...]:
        competition.refresh_from_db()
        return (competition.status, competition.draw, competition.revision,
                competition.draw_method, competition.legs, competition.rules,
                list(competition.rounds.values_list("number", "bye__index")),
                list(competition.matches.order_by("number").values_list(
                    "number", "round__number", "first__index", "second__index", "doc")),
                list(competition.entries.values_list("index", "pair_id")))

    assert [shape(c) for c in bulk] == [shape(c) for c in one]
    with pytest.raises(competitions.CompetitionError, match="dos veces"):
        competitions.create_liguillas(club, by=boss, leagues=[("X", [pairs[0], pairs[0]])])
    with pytest.raises(competitions.CompetitionError, match="ya juega"):
        competitions.create_liguillas(club, by=boss, leagues=[("X", [pairs[0], save_pair(
            club, "Otra", ["P0a", "Z"])])])


def test_the_pages_links_to_the_pairs_paths_are_their_urls() -> None:
    from muscore.championships import pages

    championship, boss, barmen, _sedes = played_heats()
    rows = pages.heat_rows(championship, list(championship.sedes.all()))
    links = [(e, url) for row in rows for e, url in row["qualified"] + row["reserves"]]
    assert len(links) == 12
    assert all(url == pages.pair_url(e) for e, url in links)


def test_a_pairs_path_reads_as_much_through_several_phases_as_through_one(
        django_assert_max_num_queries: Any) -> None:
    """The path of a pair out after the first group phase, and of the champion through
    two group phases and the knockout: the same queries, cold (no standings cached)."""
    from tests.championships.factory import drawn_semifinal, open_games, play_all

    championship, boss, _barmen, first = drawn_semifinal()
    for group in first.groups.select_related("competition"):
        play_all(group.competition, boss)
    second = services.add_phase(championship, by=boss, name="Cuartos", level=2)
    second = services.draw_phase(second, by=boss, seed="c")
    for group in second.groups.select_related("competition"):
        play_all(group.competition, boss)
    final = services.add_phase(championship, by=boss, name="Final", level=3, knockout=True)
    final = services.draw_phase(final, by=boss, seed="f")
    while games := open_games(final):
        play_all(games[0], boss)
    champion = services.champion(championship)
    assert champion is not None and champion.phase_pair_id is not None
    out = Enrolment.objects.filter(championship=championship, phase_pair__isnull=False).exclude(
        phase_pair__entries__competition__phase_group__phase=second).first()
    assert out is not None
    counts = []
    for enrolment in (out, champion):
        enrolment = Enrolment.objects.select_related("sede__heat").get(pk=enrolment.pk)
        cache.clear()
        with django_assert_max_num_queries(9) as queries:
            steps = pages.pair_path(enrolment)
        counts.append(len(queries))
        places = [s["place"] for s in steps if s["title"].startswith(("Semifinal", "Cuartos"))]
        assert None not in places
    assert len(steps) == 1 + 2 + 1  # the heat, two groups, the final's one game
    assert counts[0] == counts[1], counts
    # Each group's place is the group's final order's, as a heat's is.
    assert places == [
        final_order.order(e.competition).index(e.index) + 1 for e in Entry.objects.filter(
            pair_id=champion.phase_pair_id, competition__phase_group__phase__knockout=False)
        .select_related("competition").order_by("competition_id")]
