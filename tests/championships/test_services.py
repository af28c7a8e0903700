"""The championship's services: entries, quotas, heats, phases, withdrawals, permissions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from muscore.championships import services
from muscore.championships.models import Enrolment, Phase
from muscore.championships.services import ChampionshipError
from muscore.leagues.models import Competition
from muscore.leagues.results import final as final_order
from tests.championships.factory import (
    drawn_semifinal,
    play_all,
    played_heats,
    small_championship,
)
from tests.clubs.factory import make_club, make_user
from tests.leagues.helpers import game

pytestmark = pytest.mark.django_db


def test_one_person_one_pair_names_the_pair_he_is_in() -> None:
    championship, boss, _ = small_championship()
    other = championship.sedes.order_by("id")[1]
    before = Enrolment.objects.count()
    with pytest.raises(ChampionshipError, match=r"Bar Txoko 1a ya juega en la pareja Bar Txoko 1 "
                                                r"\(Bar Txoko\)"):
        # Case, accents and spaces do not make another person.
        services.enter_pair(other, name="Nuevos", players=["Otro", "  bar  TXOKO 1A "])
    assert Enrolment.objects.count() == before


def test_a_withdrawn_pairs_players_may_enter_again() -> None:
    championship, boss, barmen = small_championship()
    enrolment = Enrolment.objects.get(name="Bar Txoko 1")
    services.withdraw(enrolment, by=boss)
    again = services.enter_pair(enrolment.sede, name="Otra", players=["Bar Txoko 1a", "Zuri"],
                                by=barmen[0])
    assert again.status == Enrolment.Status.ENTERED


def test_the_two_players_must_be_two_people_and_names_are_required() -> None:
    championship, _, _ = small_championship()
    sede = championship.sedes.first()
    assert sede is not None
    with pytest.raises(ChampionshipError, match="misma persona"):
        services.enter_pair(sede, name="Solo", players=["Ane", "ane"])
    with pytest.raises(ChampionshipError, match="Falta el nombre de la pareja"):
        services.enter_pair(sede, name="  ", players=["Ane", "Jon"])
    with pytest.raises(ChampionshipError, match="Ya hay una pareja llamada"):
        services.enter_pair(sede, name="bar txoko 1", players=["Ane", "Jon"])


def test_a_full_venue_puts_the_pair_on_its_waiting_list_and_a_withdrawal_frees_a_place() -> None:
    championship, boss, _ = small_championship(capacity=3)
    sede = championship.sedes.order_by("id")[0]
    statuses = list(sede.enrolments.order_by("id").values_list("status", flat=True))
    assert statuses == ["entered"] * 3 + ["waiting"] * 2
    services.withdraw(sede.enrolments.order_by("id")[0], by=boss)
    assert list(sede.enrolments.order_by("id").values_list("status", flat=True)) == [
        "withdrawn", "entered", "entered", "entered", "waiting"]


def test_no_entry_after_closing_by_hand_or_by_date() -> None:
    championship, boss, _ = small_championship()
    sede = championship.sedes.first()
    assert sede is not None
    championship.entries_close_at = timezone.now() - timedelta(minutes=1)
    championship.save()
    with pytest.raises(ChampionshipError, match="están cerradas"):
        services.enter_pair(sede, name="Tarde", players=["Ane", "Jon"])
    championship.entries_close_at = None
    championship.save()
    services.close_entries(championship, by=boss)
    with pytest.raises(ChampionshipError, match="están cerradas"):
        services.enter_pair(sede, name="Tarde", players=["Ane", "Jon"])


def test_closing_shares_the_seats_with_the_arithmetic() -> None:
    championship, boss, _ = small_championship()
    quotas = services.close_entries(championship, by=boss)
    assert [r.seats for r in quotas.rows] == [2, 2, 2]
    championship.refresh_from_db()
    assert championship.quotas is not None
    assert championship.quotas["total"] == 12 and championship.quotas["left"] == 3
    assert [r["remainder"] for r in championship.quotas["rows"]] == [3, 9, 0]
    assert list(championship.sedes.order_by("id").values_list("quota", flat=True)) == [2, 2, 2]


def test_a_quota_the_contract_refuses_closes_nothing() -> None:
    championship, boss, _ = small_championship(seats=13)
    with pytest.raises(ChampionshipError, match="13 plazas pero solo 12 parejas"):
        services.close_entries(championship, by=boss)
    championship.refresh_from_db()
    assert championship.entries_closed_at is None and championship.quotas is None


def test_an_organiser_of_one_venue_cannot_write_to_another() -> None:
    championship, boss, barmen = small_championship()
    first, second = championship.sedes.order_by("id")[:2]
    enrolment = second.enrolments.first()
    assert enrolment is not None
    with pytest.raises(PermissionDenied):
        services.mark_paid(enrolment, by=barmen[0])
    with pytest.raises(PermissionDenied):
        services.withdraw(enrolment, by=barmen[0])
    enrolment.refresh_from_db()
    assert not enrolment.paid and enrolment.status == "entered"
    services.mark_paid(enrolment, by=barmen[1])
    with pytest.raises(PermissionDenied):
        services.close_entries(championship, by=barmen[0])
    services.close_entries(championship, by=boss)
    with pytest.raises(PermissionDenied):
        services.start_heat(second, by=barmen[0])
    assert championship.sedes.filter(heat__isnull=False).count() == 0


def test_a_public_entry_is_never_marked_paid() -> None:
    championship, _, barmen = small_championship()
    sede = championship.sedes.order_by("id")[0]
    public = services.enter_pair(sede, name="Web", players=["Ane", "Jon"], paid=True)
    at_bar = services.enter_pair(sede, name="Barra", players=["Miren", "Xabi"], paid=True,
                                 by=barmen[0])
    assert not public.paid and at_bar.paid


def test_a_phase_is_not_drawn_before_its_heats_end() -> None:
    championship, boss, barmen = small_championship()
    services.close_entries(championship, by=boss)
    phase = services.add_phase(championship, by=boss, name="Final provincial")
    sede = championship.sedes.order_by("id")[0]
    services.start_heat(sede, by=barmen[0], draw=[0, 1, 2, 3, 4])
    with pytest.raises(ChampionshipError, match="no han terminado: Bar Txoko, Herriko"):
        services.draw_phase(phase, by=boss, seed="2026")
    phase.refresh_from_db()
    assert phase.drawn_at is None and not phase.groups.exists()


def test_from_entries_to_the_champion() -> None:
    championship, boss, barmen, _sedes = played_heats()
    heats = services.qualified(championship)
    assert [[e.name for e in h.qualified] for h in heats.values()] == [
        ["Bar Txoko 1", "Bar Txoko 2"], ["Herriko Taberna 1", "Herriko Taberna 2"],
        ["Gure Etxea 1", "Gure Etxea 2"]]
    assert [e.name for e in heats[championship.sedes.order_by("id")[0].pk].reserves] == [
        "Bar Txoko 3", "Bar Txoko 4", "Bar Txoko 5"]
    semi = services.add_phase(championship, by=boss, name="Semifinal", advance=2)
    final = services.add_phase(championship, by=boss, name="Final", level=2, advance=1)
    with pytest.raises(ChampionshipError, match="no ha terminado"):
        services.draw_phase(final, by=boss, seed="x")
    services.draw_phase(semi, by=boss, seed="Txapelketa 2026")
    semi.refresh_from_db()
    assert semi.draw is not None and semi.draw["seed"] == "Txapelketa 2026"
    groups = [list(g) for g in semi.draw["groups"]]
    assert sorted(len(g) for g in groups) == [3, 3]
    # Heat winners seeded one per group... three winners, two groups: two heads; no two
    # pairs of one bar together.
    enrolments = {e.pk: e for e in Enrolment.objects.all()}
    for group in groups:
        bars = [enrolments[k].sede_id for k in group]
        assert len(set(bars)) == len(bars)
    with pytest.raises(ChampionshipError, match="ya está hecho"):
        services.draw_phase(semi, by=boss, seed="again")
    for group in semi.groups.all():
        play_all(group.competition, boss)
    services.draw_phase(final, by=boss, seed="final")
    final_group = final.groups.get().competition
    assert final_group.entries.count() == 4  # the best 2 of each of the 2 groups
    assert services.champion(championship) is None
    play_all(final_group, boss)
    champion = services.champion(championship)
    # play_all: the pair entered first wins every match.
    assert champion is not None
    assert champion.phase_pair_id == final_group.entries.get(index=0).pair_id


def test_a_withdrawn_pairs_place_in_a_group_goes_to_the_next_reserve() -> None:
    championship, boss, barmen, phase = drawn_semifinal()
    out = Enrolment.objects.get(name="Bar Txoko 2")
    services.withdraw(out, by=barmen[0])
    phase.refresh_from_db()
    assert phase.draw is not None
    placed = {k for g in phase.draw["groups"] for k in g}
    reserve = Enrolment.objects.get(name="Bar Txoko 3")
    assert out.pk not in placed and reserve.pk in placed
    names = {e.pair.name for g in phase.groups.all() for e in g.competition.entries.all()}
    assert "Bar Txoko 3" in names and "Bar Txoko 2" not in names


def test_a_ceros_heat_and_a_groups_heat_give_their_order() -> None:
    championship, boss, barmen = small_championship(bars=[("Bar Txoko", 8), ("Casino", 4)])
    services.close_entries(championship, by=boss)
    txoko, casino = championship.sedes.order_by("id")
    heat = services.start_heat(txoko, by=barmen[0], format=Competition.Format.GROUPS,
                               draw=list(range(8)))
    play_all(heat, barmen[0])
    heat.refresh_from_db()
    assert heat.status == Competition.Status.FINISHED
    order = final_order.worked_out(heat)
    assert sorted(order) == list(range(8))
    # Kept on the heat by the result that finished it, for the revision it was worked out for.
    assert (heat.final_order, heat.order_revision) == (order, heat.revision)
    assert final_order.order(heat) == order
    final = game(heat, "final")
    assert order[0] == (final.first if final.outcome.winner == 0 else final.second).index


def test_a_championship_organiser_may_start_a_venues_heat() -> None:
    championship, boss, _ = small_championship()
    services.close_entries(championship, by=boss)
    heat = services.start_heat(championship.sedes.order_by("id")[0], by=boss)
    assert heat.club.name == "Bar Txoko" and heat.entries.count() == 5


def test_a_region_of_another_championship_is_refused() -> None:
    championship, boss, _ = small_championship()
    other_boss = make_user("otra")
    other = services.create_championship(make_club("Otra", organiser=other_boss),
                                         by=other_boss, name="Otra")
    region = services.add_region(other, by=other_boss, name="Lapurdi")
    with pytest.raises(ChampionshipError, match="no es de este campeonato"):
        services.add_phase(championship, by=boss, name="X", region=region)
    assert not Phase.objects.filter(championship=championship).exists()
