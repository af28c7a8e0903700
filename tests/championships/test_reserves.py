"""A withdrawn pair's place goes to the next reserve: in a group that has not started, in a
knockout while the pair has played no game there (refused, with the reason, once it has),
at level 1 from its venue's heat and after that from the group it came from."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from muscore.championships import knockout, services
from muscore.championships.models import Enrolment, Phase
from muscore.championships.services import ChampionshipError
from muscore.leagues import results
from tests.championships.factory import (
    drawn_semifinal,
    knockout_phase,
    play_all,
    played_heats,
)
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db


def names_in(phase: Phase) -> set[str]:
    return {e.pair.name for g in phase.groups.select_related("competition")
            for e in g.competition.entries.select_related("pair")}


def test_a_pair_withdrawn_before_the_draw_is_not_drawn_its_reserve_is() -> None:
    championship, boss, barmen, _sedes = played_heats()
    services.withdraw(Enrolment.objects.get(name="Bar Txoko 1"), by=barmen[0])
    phase = services.add_phase(championship, by=boss, name="Semifinal")
    phase = services.draw_phase(phase, by=boss, seed="s")
    assert phase.draw is not None
    drawn = {Enrolment.objects.get(pk=k).name for g in phase.draw["groups"] for k in g}
    assert "Bar Txoko 1" not in drawn and {"Bar Txoko 2", "Bar Txoko 3"} <= drawn
    assert "Bar Txoko 1" not in names_in(phase)


def test_a_withdrawn_pair_in_a_level_2_group_gives_its_place_to_its_groups_next() -> None:
    championship, boss, _barmen, semifinal = drawn_semifinal()
    for group in semifinal.groups.select_related("competition"):
        play_all(group.competition, boss)
    final = services.add_phase(championship, by=boss, name="Final", level=2)
    final = services.draw_phase(final, by=boss, seed="f")
    orders = services.phase_group_orders(semifinal)
    assert orders is not None
    group = next(order for order in orders if len(order) >= 3)
    out, reserve = group[1], group[2]  # its group's runner-up, then the third
    services.withdraw(out, by=boss)
    final.refresh_from_db()
    assert final.draw is not None
    placed = services.placed_in(final)
    assert out.pk not in placed and reserve.pk in placed
    assert final.draw["replaced"] == [{"out": out.pk, "in": reserve.pk}]
    assert reserve.name in names_in(final) and out.name not in names_in(final)


def test_a_withdrawn_pair_in_an_unplayed_knockout_tie_gives_its_place_to_the_reserve() -> None:
    championship, boss, phase = knockout_phase()
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    out = state.enrolments[tie.first or 0]
    heat = services.qualified(championship)[out.sede_id]
    reserve = heat.reserves[0]
    services.withdraw(out, by=boss)
    phase.refresh_from_db()
    assert phase.draw is not None
    assert out.pk not in phase.draw["bracket"] and reserve.pk in phase.draw["bracket"]
    state = knockout.bracket(phase)
    assert state is not None
    tie = state.rounds[0][tie.order]
    assert reserve.pk in (tie.first, tie.second)
    reserve.refresh_from_db()
    game = tie.games[0].competition
    assert reserve.phase_pair_id in set(game.entries.values_list("pair_id", flat=True))
    # The reserve plays the tie: its result goes on through the bracket as any other.
    play_all(game, boss)
    state = knockout.bracket(phase)
    assert state is not None and state.rounds[0][tie.order].winner is not None


def test_a_pair_that_played_in_the_knockout_cannot_give_its_place_away() -> None:
    championship, boss, phase = knockout_phase()
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    play_all(tie.games[0].competition, boss)
    out = state.enrolments[tie.first or 0]
    before = dict(phase.draw or {})
    with pytest.raises(ChampionshipError, match="ya ha jugado en Final"):
        services.withdraw(out, by=boss)
    out.refresh_from_db()
    phase.refresh_from_db()
    assert out.status == Enrolment.Status.ENTERED and phase.draw == before
    # Through the venue's page: a 400 naming the reason, nothing changed.
    sede = out.sede
    client = logged_in(boss)
    response = client.post(reverse("championships:enrolment_action",
                                   args=[championship.pk, sede.pk, out.pk]),
                           {"action": "withdraw"})
    assert response.status_code == 400 and "ya ha jugado" in response.text
    out.refresh_from_db()
    assert out.status == Enrolment.Status.ENTERED
    assert Client().get(reverse("championships:detail", args=[championship.pk])).status_code == 200


def test_a_withdrawn_pair_in_a_started_group_stays_there() -> None:
    _championship, boss, barmen, phase = drawn_semifinal()
    group = phase.groups.select_related("competition").first()
    assert group is not None
    match = group.competition.matches.select_related("first__pair").order_by("number").first()
    assert match is not None and match.first is not None
    results.record_result(match, by=boss, juegos=[1, 0])
    out = Enrolment.objects.get(phase_pair_id=match.first.pair_id)
    services.withdraw(out, by=boss)
    phase.refresh_from_db()
    assert out.pk in services.placed_in(phase) and "replaced" not in (phase.draw or {})
