"""A phase's draw: the pure seeded draw into groups of 4 (each a liguilla of the
championship's club, its fixtures at once) or a knockout's bracket, worked out before its
transaction and written in a short one (issue 28), recorded with its seed so that anyone
can make it again."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.championships import kept, knockout, stages
from muscore.championships.compute.draw import DrawError, DrawPair, draw_groups
from muscore.championships.errors import ChampionshipError
from muscore.championships.models import Championship, Enrolment, Phase, PhaseGroup
from muscore.championships.pairs import make_phase_pairs
from muscore.championships.phases import phase_field
from muscore.clubs.models import Pair
from muscore.clubs.permissions import Actor, require_organiser
from muscore.leagues import changes, competitions, draw_plan, names
from muscore.leagues.models import Competition
from muscore.leagues.rows import insert_rows


@dataclass
class _PhaseDraw:
    """A phase's draw worked out before its transaction: the stamp of what it was worked
    out from (kept.stamp: entries, heats' and groups' results, withdrawals), the field
    (enrolments and their seeds) and, for groups, the pure draw and each group's pairs."""

    stamp: str
    pairs: list[tuple[Enrolment, int | None]]
    drawn: list[DrawPair] = field(default_factory=list)
    groups: list[list[Pair]] = field(default_factory=list)
    members: competitions.Members = field(default_factory=dict)
    keys: list[list[int]] = field(default_factory=list)
    liguillas: draw_plan.Liguillas | None = None  # the groups' rows, prepared



def draw_phase(phase: Phase, *, by: Actor, seed: str) -> Phase:
    """Draw the phase's pairs into groups of 4 (the pure seeded draw, recorded with its
    seed and the pairs in the order given, so anyone can make it again), each group a
    liguilla of the championship's club with its fixtures at once.

    In pieces, so that no transaction holds SQLite's one write lock (or the phase's and
    the championship's rows on PostgreSQL) long (issue 28: a phase of 448 pairs held it
    0.63-1.24 s): the field and the draw are read and worked out first, outside any
    transaction; the pairs the championship's club lacks are made in a short one of their
    own (made once: a draw refused after it finds them made); then one transaction writes
    the groups, their fixtures and the phase's draw from rows worked out already, and
    works the draw out again inside only if the championship changed meanwhile."""
    phase = Phase.objects.select_related("championship").get(pk=phase.pk)  # as it is now
    championship = phase.championship
    require_organiser(by, championship.club)
    if phase.drawn_at is not None:
        raise ChampionshipError(_("El sorteo de %(phase)s ya está hecho.") % {"phase": phase.name})
    seed = (seed or "").strip()
    if not seed or len(seed) > 100:
        raise ChampionshipError(_("El sorteo necesita una semilla (hasta 100 caracteres)."))
    planned = _plan_phase(phase, seed, by)
    if connection.vendor != "sqlite" and not phase.knockout:
        # Rows are locked here, not the database: the groups' new rows first, the phase's
        # and the championship's rows last, for the moment of the commit (they were held
        # 0.8 s at load 12 while 112 groups were written). Changed meanwhile: again below.
        try:
            assert planned.liguillas is not None
            with transaction.atomic():
                groups = draw_plan.write_liguillas(planned.liguillas)
                if _stamp(championship) != planned.stamp:
                    raise _Changed
                phase = _locked_undrawn(phase)
                _write_phase(phase, planned, seed, by, groups)
                kept.touch(championship.pk)
            return phase
        except _Changed:
            pass
    with transaction.atomic():
        phase = _locked_undrawn(phase)
        if _stamp(championship) != planned.stamp:  # changed meanwhile: again, inside
            planned = _plan_phase(phase, seed, by)
        _write_phase(phase, planned, seed, by)
        kept.touch(championship.pk)  # last: the championship's row is locked till commit
    return phase



class _Changed(Exception):
    """The championship changed while its phase's draw was written (PostgreSQL)."""



def _locked_undrawn(phase: Phase) -> Phase:
    phase = Phase.objects.select_for_update().get(pk=phase.pk)
    if phase.drawn_at is not None:
        raise ChampionshipError(_("El sorteo de %(phase)s ya está hecho.") % {"phase": phase.name})
    return phase



def _stamp(championship: Championship) -> str:
    """The championship's stamp as the database has it now (not as its instance was read)."""
    return kept.stamp(Championship.objects.get(pk=championship.pk))



def _plan_phase(phase: Phase, seed: str, by: Actor) -> _PhaseDraw:
    """The phase's field, its pairs in the championship's club (made in a transaction of
    their own when some lack one) and, for groups, the draw and each group's pairs with
    their players, all read before the draw's transaction."""
    championship = phase.championship
    stamp = _stamp(championship)
    pairs = phase_field(phase)
    if any(e.status == Enrolment.Status.WITHDRAWN for e, _s in pairs):
        raise ChampionshipError(_("Una pareja retirada no puede entrar en un grupo."))
    if any(e.phase_pair_id is None for e, _s in pairs):
        with transaction.atomic():
            # Two draws at once make each pair once: the phase's row first, then the
            # enrolments' pairs as they are now.
            Phase.objects.select_for_update().filter(pk=phase.pk).first()
            made = dict(Enrolment.objects.filter(pk__in=[e.pk for e, _s in pairs])
                        .values_list("pk", "phase_pair_id"))
            for enrolment, _s in pairs:
                enrolment.phase_pair_id = made[enrolment.pk]
            make_phase_pairs(championship, [e for e, _s in pairs], by)
    planned = _PhaseDraw(stamp, pairs)
    if phase.knockout:
        return planned
    region_of = {s.pk: s.region.name if s.region else None
                 for s in championship.sedes.select_related("region")}
    planned.drawn = [DrawPair(e.pk, str(e.sede_id), region_of.get(e.sede_id), s)
                     for e, s in pairs]
    try:
        draw = draw_groups(planned.drawn, seed)
    except DrawError as error:
        raise ChampionshipError(
            _("No se puede sortear %(phase)s: %(n)s parejas.") % {"phase": phase.name,
                                                                 "n": len(pairs)}) from error
    # Every pair read at once (a pair made in an earlier phase is not loaded on its entry).
    pair_of = Pair.objects.in_bulk([e.phase_pair_id for e, _s in pairs])
    by_pk = {e.pk: pair_of[e.phase_pair_id or 0] for e, _s in pairs}
    planned.keys = [[int(str(k)) for k in keys] for keys in draw.groups]
    planned.groups = [[by_pk[k] for k in keys] for keys in planned.keys]
    planned.members = competitions.pair_members(list(by_pk.values()))
    try:
        planned.liguillas = competitions.plan_liguillas(
            championship.club, by=by, rules=championship.rules, draw_method="phase",
            members=planned.members,
            leagues=[(names.stored_name(names.group_parts(phase.name, number)), pairs)
                     for number, pairs in enumerate(planned.groups, 1)],
            made=[names.group_parts(phase.name, number)
                  for number in range(1, len(planned.groups) + 1)])
    except changes.CompetitionError as error:
        raise ChampionshipError(str(error)) from None
    return planned



def _write_phase(phase: Phase, planned: _PhaseDraw, seed: str, by: Actor,
                 groups: list[Competition] | None = None) -> None:
    """The draw's writes, in the caller's transaction: a knockout's bracket, or the
    groups from their rows prepared before it (`draw_plan.write_liguillas`: a phase of
    112 groups in a fixed number of plain inserts; `groups` when written already)."""
    phase.seed, phase.drawn_at = seed, timezone.now()
    if phase.knockout:
        phase.save(update_fields=["seed", "drawn_at"])
        try:
            knockout.draw(phase, planned.pairs, seed, by)
        except knockout.KnockoutError as error:  # the whole draw is rolled back
            raise ChampionshipError(str(error)) from None
        stages.drawn(phase)
        return
    if groups is None:
        assert planned.liguillas is not None
        groups = draw_plan.write_liguillas(planned.liguillas)
    insert_rows(PhaseGroup, ("phase", "order", "competition"), [
        (phase.pk, number, competition.pk) for number, competition in enumerate(groups)])
    phase.draw = {"seed": seed,
                  "pairs": [{"enrolment": p.key, "sede": int(p.sede), "region": p.region,
                             "seed": p.seed} for p in planned.drawn],
                  "groups": planned.keys}
    phase.save(update_fields=["seed", "draw", "drawn_at"])
    stages.drawn(phase)
