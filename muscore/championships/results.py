"""What a league result changes in a championship, inside the result's own write
(:data:`muscore.leagues.signals.result_changed`), so that reading a page never writes:

- a knockout game's result makes the games the bracket now waits for (the tie's next
  game, the next round's tie, the third place);
- a venue's heat keeps its final order for its revision (the qualified and reserves
  that the championship's pages read for 250 venues at once).
"""

from __future__ import annotations

from muscore.championships import knockout
from muscore.championships.models import Phase, Sede
from muscore.championships.services import heat_order
from muscore.clubs.permissions import Actor
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Competition


def on_result(competition: Competition, by: Actor | None = None) -> None:
    """The receiver of ``result_changed``: one query for a competition that is not a
    championship's; a KnockoutError becomes the league's CompetitionError (the result is
    refused whole, with the reason)."""
    row = (Competition.objects.filter(pk=competition.pk)
           .values_list("phase_group__phase_id", "phase_group__phase__knockout", "sede__id")
           .first())
    if row is None:
        return
    phase_id, is_knockout, sede_id = row
    if phase_id is not None and is_knockout:  # a group's result moves nothing else here
        phase = Phase.objects.select_related("championship__club").get(pk=phase_id)
        try:
            knockout.sync(phase, by)
        except knockout.KnockoutError as error:
            raise CompetitionError(str(error)) from None
    if sede_id is not None and competition.status == Competition.Status.FINISHED:
        keep_heat_order(sede_id, competition)


def keep_heat_order(sede_id: int, heat: Competition) -> None:
    """Store a finished heat's final order on its venue, for the heat's revision."""
    Sede.objects.filter(pk=sede_id).update(final_order=heat_order(heat),
                                           order_revision=heat.revision)
