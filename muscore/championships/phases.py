"""A championship's phases: level 1 draws the heats' qualified, level n the pairs going
on from the groups of level n - 1, the last one a group or a knockout whose winner is the
champion; each group's final order, and its round clock."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from muscore.championships import clock, kept, knockout, stages
from muscore.championships.compute.draw import group_winners
from muscore.championships.entry_text import checked_name
from muscore.championships.errors import ChampionshipError
from muscore.championships.heats import qualified
from muscore.championships.models import Championship, Enrolment, Phase, Region
from muscore.clubs.permissions import Actor, require_organiser
from muscore.leagues.models import Competition
from muscore.leagues.results import final


@transaction.atomic
def add_phase(championship: Championship, *, by: Actor, name: str, level: int = 1,
              region: Region | None = None, advance: int = 2, knockout: bool = False,
              best_of: int = 1, third_place: bool = False) -> Phase:
    """A phase: level 1 draws the heats' qualified (its region's venues' only, if it has
    one); level n the pairs going on from the groups of level n - 1 (of its region).
    ``knockout`` makes it the last phase as a bracket, each tie one vaca (``best_of`` 1)
    or the best of 3, with a match for third place if ``third_place``."""
    require_organiser(by, championship.club)
    if best_of not in (1, 3):
        raise ChampionshipError(_("Una eliminatoria se juega a una vaca o al mejor de 3."))
    if championship.phases.filter(knockout=True, level__lt=level).exists() or (
            knockout and championship.phases.filter(level__gt=level).exists()):
        raise ChampionshipError(_("La eliminatoria es la última fase."))
    if level < 1:
        raise ChampionshipError(_("El nivel de una fase es 1 o más."))
    if advance < 1:
        raise ChampionshipError(_("De cada grupo pasa al menos una pareja."))
    if region is not None and region.championship_id != championship.pk:
        raise ChampionshipError(_("La región no es de este campeonato."))
    kept.touch(championship.pk)
    phase = Phase.objects.create(
        championship=championship, name=checked_name(name, _("el nombre")), level=level,
        region=region, advance=advance, knockout=knockout, best_of=best_of,
        third_place=third_place and knockout)
    stages.of_phase(phase)
    return phase



def phase_field(phase: Phase) -> list[tuple[Enrolment, int | None]]:
    """The pairs a phase draws, with their seed rank: level 1 the heats' qualified
    (every heat winner seeded before any runner-up), else the groups' best of the level
    before. Raises :class:`ChampionshipError` while any of those is still playing."""
    championship = phase.championship
    if phase.level == 1:
        sedes = championship.sedes.all()
        if phase.region_id is not None:
            sedes = sedes.filter(region_id=phase.region_id)
        waiting = [s.name for s in sedes.select_related("heat")
                   if s.heat is None or s.heat.status != Competition.Status.FINISHED]
        if championship.entries_closed_at is None:
            raise ChampionshipError(_("Las inscripciones siguen abiertas."))
        if waiting:
            raise ChampionshipError(
                _("Las fases previas no han terminado: %(sedes)s.") % {"sedes": ", ".join(
                    waiting[:10]) + ("…" if len(waiting) > 10 else "")})
        heats = qualified(championship)
        ranked: list[tuple[int, int, Enrolment]] = []
        for order, sede in enumerate(sedes):
            for place, enrolment in enumerate(heats[sede.pk].qualified):
                ranked.append((place, order, enrolment))
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [(e, rank + 1 if place == 0 else None)
                for rank, (place, _o, e) in enumerate(ranked)]
    before = championship.phases.filter(level=phase.level - 1)
    if phase.region_id is not None:
        before = before.filter(region_id=phase.region_id)
    before_list = list(before)
    if not before_list:
        raise ChampionshipError(_("No hay fase anterior de nivel %(level)s.")
                                % {"level": phase.level - 1})
    going: list[tuple[Enrolment, int | None]] = []
    by_pk = {e.pk: e for e in championship.enrolments.select_related("sede")}
    for previous in before_list:
        orders = phase_group_orders(previous)
        if orders is None:
            raise ChampionshipError(_("La fase %(phase)s no ha terminado.")
                                    % {"phase": previous.name})
        going += [(by_pk[int(str(key))], rank) for key, rank in
                  group_winners([[e.pk for e in order] for order in orders], previous.advance)]
    # Group winners first (their rank), then runners-up: the next draw's seeds.
    going.sort(key=lambda pair: pair[1] or 0)
    return [(e, rank + 1) for rank, (e, _s) in enumerate(going)
            if e.status != Enrolment.Status.WITHDRAWN]



def phase_group_orders(phase: Phase) -> list[list[Enrolment]] | None:
    """Each group's final order (enrolments), or None while a group is playing (a
    knockout has no groups: its order is its bracket)."""
    if phase.knockout:
        return None
    groups = list(phase.groups.select_related("competition"))
    if not groups or any(g.competition.status != Competition.Status.FINISHED for g in groups):
        return None
    by_pair = {e.phase_pair_id: e for e in phase.championship.enrolments.filter(
        phase_pair__isnull=False)}
    orders = []
    for group in groups:
        pair_of = dict(group.competition.entries.values_list("index", "pair_id"))
        orders.append([by_pair[pair_of[i]] for i in final.order(group.competition)])
    return orders



def champion(championship: Championship) -> Enrolment | None:
    """The winner of the last phase once it is finished: its knockout's final, or its
    one group."""
    last = championship.phases.order_by("-level", "-id").first()
    if last is None:
        return None
    if last.knockout:
        state = knockout.bracket(last)
        return state.enrolments.get(state.champion) if state and state.champion else None
    if last.groups.count() != 1:  # no champion yet: no group's order is worked out
        return None
    orders = phase_group_orders(last)
    if orders is None or len(orders) != 1 or not orders[0]:
        return None
    return orders[0][0]



def start_round_clock(phase: Phase, *, by: Actor, now: datetime | None = None) -> int:
    """Start the clock of each group's current round (its first round with a match to play):
    the hall's screen counts down the championship's time per match from now
    (:mod:`muscore.championships.clock`, which also pauses and resets it)."""
    return clock.start(phase, by=by, now=now)
