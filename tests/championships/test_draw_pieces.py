"""A phase's draw in pieces (issue 28 point 5): a phase of 448 pairs held SQLite's one write
lock 0.63-1.24 s and the championship's row on PostgreSQL 1.42 s, because the field (every
heat's qualified), the draw and the rows were read and worked out inside its transaction.
They are worked out before it; the pairs the championship's club lacks are made in a short
transaction of their own; the draw's transaction writes rows already worked out, and works
them out again inside only when the championship changed meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from muscore.championships import kept, phase_draw, services
from muscore.championships.compute.draw import DrawPair, draw_groups
from muscore.championships.models import Enrolment, Phase
from muscore.clubs.models import Pair
from tests.championships.factory import played_heats

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def depths_of(monkeypatch: pytest.MonkeyPatch, name: str,
              effect: Callable[[int], None] | None = None) -> list[int]:
    """How deep in transactions each call of `name` by the phase's draw ran (the test's own
    block is the outside); `effect(call number)` runs after each call."""
    depths: list[int] = []
    real = getattr(phase_draw, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        depths.append(len(connection.atomic_blocks))
        result = real(*args, **kwargs)
        if effect is not None:
            effect(len(depths))
        return result

    monkeypatch.setattr(phase_draw, name, recorded)
    return depths


def ready_phase() -> tuple[Any, Any, Phase]:
    championship, boss, barmen, _sedes = played_heats()
    return championship, boss, services.add_phase(championship, by=boss, name="Semifinal")


def test_the_field_and_the_draw_are_worked_out_outside_the_draws_transaction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _championship, boss, phase = ready_phase()
    outside = len(connection.atomic_blocks)  # the test's own transaction
    fields = depths_of(monkeypatch, "phase_field")
    draws = depths_of(monkeypatch, "draw_groups")
    pairs = depths_of(monkeypatch, "make_phase_pairs")
    writes = depths_of(monkeypatch, "_write_phase")
    services.draw_phase(phase, by=boss, seed="Txapelketa 2026")
    assert fields == [outside] and draws == [outside]
    # The club's new pairs in a transaction of their own, the writes in another.
    assert pairs == [outside + 1] and writes == [outside + 1]
    phase.refresh_from_db()
    assert phase.drawn_at is not None and phase.groups.count() == 2
    assert sorted(len(g) for g in phase.draw["groups"]) == [3, 3]


def test_the_recorded_draw_is_the_pure_draw_of_its_recorded_pairs() -> None:
    # Anyone can make it again: the draw made in pieces records the seed, the pairs in
    # the order given, and groups that the pure seeded draw of those pairs gives.
    _championship, boss, phase = ready_phase()
    services.draw_phase(phase, by=boss, seed="berdin")
    phase.refresh_from_db()
    record = phase.draw
    again = draw_groups([DrawPair(p["enrolment"], str(p["sede"]), p["region"], p["seed"])
                         for p in record["pairs"]], record["seed"])
    assert [[int(str(k)) for k in g] for g in again.groups] == record["groups"]
    entered = {e.pair_id for g in phase.groups.all() for e in g.competition.entries.all()}
    assert entered == set(Enrolment.objects.filter(pk__in=[k for g in record["groups"]
                                                           for k in g])
                          .values_list("phase_pair_id", flat=True))


def test_a_change_while_the_draw_is_worked_out_is_drawn_again_inside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    championship, boss, phase = ready_phase()
    outside = len(connection.atomic_blocks)
    # A change to the championship lands between the draw worked out and its transaction
    # (another organiser's, a corrected heat): the draw is worked out again, inside.
    draws = depths_of(monkeypatch, "draw_groups",
                      lambda n: kept.touch(championship.pk) if n == 1 else None)
    services.draw_phase(phase, by=boss, seed="Txapelketa 2026")
    assert draws == [outside, outside + 1]
    phase.refresh_from_db()
    assert phase.groups.count() == 2


def test_a_pair_withdrawn_meanwhile_is_not_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    championship, boss, phase = ready_phase()
    out = Enrolment.objects.get(name="Bar Txoko 2")

    def withdraw(call: int) -> None:
        if call == 1:
            services.withdraw(Enrolment.objects.get(pk=out.pk), by=boss)

    depths_of(monkeypatch, "draw_groups", withdraw)
    services.draw_phase(phase, by=boss, seed="Txapelketa 2026")
    phase.refresh_from_db()
    placed = {k for group in phase.draw["groups"] for k in group}
    assert out.pk not in placed
    assert Enrolment.objects.get(name="Bar Txoko 3").pk in placed


def test_a_draw_refused_after_its_pairs_were_made_makes_them_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    championship, boss, phase = ready_phase()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise services.ChampionshipError("refused")

    real = phase_draw._write_phase
    monkeypatch.setattr(phase_draw, "_write_phase", refuse)
    with pytest.raises(services.ChampionshipError):
        services.draw_phase(phase, by=boss, seed="a")
    made = Pair.objects.filter(club=championship.club).count()
    assert made == 6 and Phase.objects.get(pk=phase.pk).drawn_at is None
    monkeypatch.setattr(phase_draw, "_write_phase", real)
    services.draw_phase(phase, by=boss, seed="a")
    assert Pair.objects.filter(club=championship.club).count() == made
    assert Phase.objects.get(pk=phase.pk).groups.count() == 2


def test_the_draws_transaction_sends_rows_prepared_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A phase of 112 groups held SQLite's lock 0.6-0.85 s on a busy machine while
    # bulk_create built and prepared its 1,000 instances inside the transaction: the
    # groups' rows are prepared before it, and inside no instance is bulk-made.
    from django.db.models import QuerySet

    from muscore.leagues import draw_plan

    _championship, boss, phase = ready_phase()
    outside = len(connection.atomic_blocks)
    prepared: list[int] = []
    bulk_inside: list[str] = []
    writing: list[bool] = []
    real_prepare, real_bulk = draw_plan.prepared_rows, QuerySet.bulk_create
    real_write = phase_draw._write_phase

    def prepare(*args: Any) -> Any:
        prepared.append(len(connection.atomic_blocks))
        return real_prepare(*args)

    def bulk(self: QuerySet[Any], *args: Any, **kwargs: Any) -> Any:
        if writing:
            bulk_inside.append(self.model.__name__)
        return real_bulk(self, *args, **kwargs)

    def write(*args: Any, **kwargs: Any) -> None:
        writing.append(True)  # the draw's transaction (the pairs were made before it)
        try:
            real_write(*args, **kwargs)
        finally:
            writing.clear()

    monkeypatch.setattr(phase_draw, "_write_phase", write)
    monkeypatch.setattr(draw_plan, "prepared_rows", prepare)
    monkeypatch.setattr(QuerySet, "bulk_create", bulk)
    services.draw_phase(phase, by=boss, seed="Txapelketa 2026")
    assert prepared and set(prepared) == {outside}
    assert bulk_inside == []
    phase.refresh_from_db()
    groups = list(phase.groups.select_related("competition").order_by("order"))
    assert [g.competition.entries.count() for g in groups] == [3, 3]
    assert [g.competition.matches.count() for g in groups] == [3, 3]
    # Each group's entries, rounds and matches are its own (the places turned to ids).
    for group in groups:
        own = set(group.competition.entries.values_list("pk", flat=True))
        for first, second, bye in group.competition.matches.values_list(
                "first_id", "second_id", "round__bye_id"):
            assert {first, second} <= own and (bye is None or bye in own)


def test_insert_returning_gives_the_ids_in_the_rows_order() -> None:
    from muscore.clubs.models import Club
    from muscore.leagues.models import Competition
    from muscore.leagues.rows import insert_returning, prepared_rows

    club = Club.objects.create(name="Orden", slug="orden")
    made = [Competition(club=club, name=f"C{i}", rules={"players": 4}) for i in range(60)]
    fields = [f.name for f in Competition._meta.concrete_fields if not f.primary_key]
    ids = insert_returning(Competition, fields, prepared_rows(made, fields))
    assert len(ids) == 60  # more than one insert: 999 parameters a query at most
    assert [Competition.objects.get(pk=pk).name for pk in ids] == [f"C{i}" for i in range(60)]
    assert Competition.objects.get(pk=ids[0]).rules == {"players": 4}


def test_on_postgresql_the_phases_row_is_locked_after_the_groups_are_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SQLite's one lock is the whole transaction's, whatever its order; PostgreSQL locks
    # rows: there the phase's row (and then the championship's) is locked once the
    # groups' new rows are in, so a writer waits for the commit only, not for the writes.
    from muscore.leagues import draw_plan

    _championship, boss, phase = ready_phase()
    order: list[str] = []
    real_write, real_lock = draw_plan.write_liguillas, phase_draw._locked_undrawn

    def write(*args: Any) -> Any:
        order.append("groups")
        return real_write(*args)

    def lock(*args: Any) -> Any:
        order.append("phase")
        return real_lock(*args)

    monkeypatch.setattr(draw_plan, "write_liguillas", write)
    monkeypatch.setattr(phase_draw, "_locked_undrawn", lock)
    services.draw_phase(phase, by=boss, seed="Txapelketa 2026")
    assert order == (["phase", "groups"] if connection.vendor == "sqlite"
                     else ["groups", "phase"])
    assert Phase.objects.get(pk=phase.pk).groups.count() == 2
