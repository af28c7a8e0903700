"""A small championship for the tests: three bars, heats, quotas."""

from __future__ import annotations

from typing import Any

from muscore.championships import services
from muscore.championships.models import Championship, Phase, Sede
from muscore.leagues import results
from muscore.leagues.models import Competition, Match
from tests.built_once import built_once
from tests.clubs.factory import make_club, make_user

#: Bar Txoko 5 pairs, Herriko Taberna 3, Gure Etxea 4: with 6 seats, 2 each.
BARS = [("Bar Txoko", 5), ("Herriko Taberna", 3), ("Gure Etxea", 4)]


@built_once
def small_championship(seats: int = 6, bars: list[tuple[str, int]] | None = None,
                       capacity: int | None = None) -> tuple[Championship, Any, list[Any]]:
    """The federation's organiser, a championship and its bars (each a club with its own
    organiser, returned in order), every bar's pairs entered."""
    boss = make_user("federacion")
    federation = make_club("Federación de Mus", organiser=boss)
    championship = services.create_championship(
        federation, by=boss, name="Txapelketa 2026", seats=seats, rules={"juegos": 1})
    region = services.add_region(championship, by=boss, name="Gipuzkoa")
    barmen = []
    for number, (name, pairs) in enumerate(bars or BARS):
        barman = make_user(f"barra{number}")
        club = make_club(name, organiser=barman)
        sede = services.add_sede(championship, by=boss, name=name, club=club,
                                 region=region if number % 2 == 0 else None, capacity=capacity)
        for i in range(pairs):
            # Entered by the bar's organiser: confirmed at once (a public entry waits).
            services.enter_pair(sede, name=f"{name} {i + 1}",
                                players=[f"{name} {i + 1}a", f"{name} {i + 1}b"],
                                contact=f"6000000{number}{i}", by=barman)
        barmen.append(barman)
    return championship, boss, barmen


def play_all(competition: Competition | Match, by: Any) -> None:
    """Every match (a knockout's as its pairs become known): the pair entered first wins
    (so a liguilla's order is the order of entry); a knockout's game: its first pair wins."""
    if isinstance(competition, Match):
        results.record_result(competition, by=by, juegos=[1, 0])
        return
    while True:
        match = (competition.matches.filter(first__isnull=False,
                                            second__isnull=False).unplayed()
                 .select_related("first", "second").order_by("number").first())
        if match is None:
            return
        assert match.first is not None and match.second is not None
        first_wins = match.first.index < match.second.index
        results.record_result(match, by=by, juegos=[1, 0] if first_wins else [0, 1])


def play_heats(championship: Championship, barmen: list[Any]) -> list[Sede]:
    sedes = list(championship.sedes.order_by("id"))
    for sede, barman in zip(sedes, barmen, strict=True):
        heat = services.start_heat(sede, by=barman, draw=list(range(
            sede.enrolments.filter(status="entered").count())))
        play_all(heat, barman)
    return sedes


@built_once
def played_heats(**options: Any) -> tuple[Championship, Any, list[Any], list[Sede]]:
    """A small championship with its entries closed and its heats played (`play_heats`):
    the championship, the federation's organiser, the bars' organisers, the venues."""
    championship, boss, barmen = small_championship(**options)
    services.close_entries(championship, by=boss)
    return championship, boss, barmen, play_heats(championship, barmen)


@built_once
def drawn_semifinal(**options: Any) -> tuple[Championship, Any, list[Any], Phase]:
    """A small championship with its entries closed, its heats played and a first phase
    ("Semifinal", the best 2 of each group going on) drawn."""
    championship, boss, barmen = small_championship(**options)
    services.close_entries(championship, by=boss)
    play_heats(championship, barmen)
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    return championship, boss, barmen, services.draw_phase(phase, by=boss, seed="s")


@built_once
def knockout_phase(**options: Any) -> tuple[Championship, Any, Phase]:
    """Three bars' heats played, 6 pairs qualified, a knockout drawn from them."""
    championship, boss, barmen = small_championship()
    services.close_entries(championship, by=boss)
    play_heats(championship, barmen)
    phase = services.add_phase(championship, by=boss, name="Final", knockout=True, **options)
    return championship, boss, services.draw_phase(phase, by=boss, seed="Txapelketa")


def open_games(phase: Phase) -> list[Match]:
    """A knockout phase's games waiting for their result (the results' own writes made
    them: nothing is synced here)."""
    return list(Match.objects.filter(competition__phase_group__phase=phase, tie__isnull=False)
                .exclude(first=None).exclude(second=None).unplayed().order_by("number"))
