"""A venue's heat (its fase previa): a competition of its club with the pairs entered
there, played like any other, and once finished its qualified pairs and reserves, from
its final order as the league keeps it (muscore.leagues.results.final)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from muscore.championships import kept, stages
from muscore.championships.errors import ChampionshipError
from muscore.championships.models import Championship, Enrolment, Sede
from muscore.championships.pairs import acting, heat_pair
from muscore.championships.venues import require_sede
from muscore.clubs.permissions import Actor
from muscore.leagues import changes, competitions
from muscore.leagues.models import Competition, Entry
from muscore.leagues.results import final


@transaction.atomic
def start_heat(sede: Sede, *, by: Actor, format: str = Competition.Format.LIGUILLA,
               groups: int = 2, ceros: int = 3, legs: int = 1,
               draw: Sequence[int] | None = None) -> Competition:
    """The venue's heat: a competition of its club with the pairs entered (in the order
    they entered), played and drawn on the club's competition pages like any other."""
    require_sede(by, sede)
    sede = Sede.objects.select_for_update().select_related("championship", "club").get(
        pk=sede.pk)
    if sede.championship.entries_closed_at is None:
        raise ChampionshipError(_("Cierra las inscripciones antes de empezar una fase previa."))
    if sede.heat_id is not None:
        raise ChampionshipError(_("La fase previa de %(sede)s ya ha empezado.")
                                % {"sede": sede.name})
    enrolments = list(sede.enrolments.filter(status=Enrolment.Status.ENTERED)
                      .select_related("championship", "sede__club"))
    if len(enrolments) < 2:
        raise ChampionshipError(_("%(sede)s no tiene parejas suficientes para jugar (%(n)s).")
                                % {"sede": sede.name, "n": len(enrolments)})
    pairs = [heat_pair(e, by) for e in enrolments]
    try:
        heat = competitions.create_competition(
            sede.club, by=acting(by, sede.club), name=f"{sede.championship.name} · {sede.name}",
            pairs=pairs, format=format, groups=groups, ceros=ceros, legs=legs,
            rules=sede.championship.rules, draw=draw)
    except changes.CompetitionError as error:
        raise ChampionshipError(str(error)) from None
    sede.heat = heat
    sede.save(update_fields=["heat"])
    stages.of_heat(sede, heat)
    kept.touch(sede.championship_id)
    return heat



@dataclass
class HeatQualifiers:
    """A venue's qualified pairs (its quota, the best of its heat not withdrawn) and its
    reserves in order, once its heat is finished."""

    sede: Sede
    qualified: list[Enrolment] = field(default_factory=list)
    reserves: list[Enrolment] = field(default_factory=list)



def qualified(championship: Championship,
              sede_ids: Sequence[int] | None = None) -> dict[int, HeatQualifiers]:
    """Each venue whose heat is finished (of ``sede_ids`` only, if given: a page of
    venues): its qualified pairs and reserves. A fixed number of queries: each heat's
    final order is kept on it for its revision by the result that finished it
    (muscore.leagues.results.final); nothing is written."""
    out: dict[int, HeatQualifiers] = {}
    found = championship.sedes.filter(heat__status=Competition.Status.FINISHED)
    entered = Enrolment.objects.filter(championship=championship, heat_pair__isnull=False)
    if sede_ids is not None:
        found, entered = found.filter(pk__in=sede_ids), entered.filter(sede_id__in=sede_ids)
    sedes = list(found.select_related("heat", "region"))
    enrolments = {e.heat_pair_id: e for e in entered}
    pair_of: dict[int, dict[int, int]] = {}
    for competition_id, index, pair_id in Entry.objects.filter(
            competition_id__in=[s.heat_id for s in sedes]).values_list(
            "competition_id", "index", "pair_id"):
        pair_of.setdefault(competition_id, {})[index] = pair_id
    for sede in sedes:
        assert sede.heat is not None
        pairs = pair_of.get(sede.heat.pk, {})
        order = [enrolments[pairs[i]] for i in final.order(sede.heat)
                 if pairs.get(i) in enrolments]
        for enrolment in order:
            enrolment.sede = sede  # loaded once per venue, not once per pair
        withdrawn = {e.pk for e in order if e.status == Enrolment.Status.WITHDRAWN}
        present = [e for e in order if e.pk not in withdrawn]
        seats = sede.quota or 0
        out[sede.pk] = HeatQualifiers(sede, present[:seats], present[seats:])
    return out
