"""What a league result changes in a championship, inside the result's own write
(:data:`muscore.leagues.signals.result_changed`), so that reading a page never writes: a
venue's heat keeps its final order for its revision (the qualified and reserves that the
championship's pages read for 250 venues at once). A knockout phase's next games are the
league's owner of results' own (muscore.leagues.results.bracket).

What depends on a result, what holds a competition and which are played side by side
the league knows from its own rows, which the championship writes when it draws
(:mod:`muscore.championships.stages`); what holds a pair its draw placed, the clubs from
the pair's (muscore.championships.pairs.placed).
"""

from __future__ import annotations

from muscore.championships.models import Sede
from muscore.championships.services import heat_order
from muscore.clubs.permissions import Actor
from muscore.leagues.models import Competition


def on_result(competition: Competition, by: Actor | None = None) -> None:
    """The receiver of ``result_changed``: one query for a competition that is not a
    venue's heat. A person's change under what was drawn from it (a phase) was refused
    before (the league asks its stages, :mod:`muscore.leagues.results.consequences`)."""
    if competition.status != Competition.Status.FINISHED:
        return
    sede_id = Sede.objects.filter(heat_id=competition.pk).values_list("pk", flat=True).first()
    if sede_id is not None:
        keep_heat_order(sede_id, competition)


def keep_heat_order(sede_id: int, heat: Competition) -> None:
    """Store a finished heat's final order on its venue, for the heat's revision."""
    Sede.objects.filter(pk=sede_id).update(final_order=heat_order(heat),
                                           order_revision=heat.revision)
