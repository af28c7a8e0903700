"""A finished competition's final order: its entries' indices, the winner first (a
liguilla's standings; a cup's knockout places, then its groups' order; a ceros
tournament's table). For a competition a stage placed (a championship's venue heat or
phase group, read many at once: the qualified pairs of 250 venues' heats, a phase's
groups' orders) the result's write keeps it on the competition for the revision it was
worked out for (:func:`keep`, from ``doors.after_change``); a club's own league pays
nothing for it. :func:`order` works it out when it is not kept for the competition's
revision (finished another way, or its revision moved since: a pair renamed), and a read
never writes it.
"""

from __future__ import annotations

from muscore.leagues import ceros_rounds
from muscore.leagues.models import Competition
from muscore.leagues.results.bracket import placed
from muscore.leagues.results.standings import standings


def worked_out(competition: Competition) -> list[int]:
    """The final order of ``competition`` (finished) from its stored results."""
    if competition.format == Competition.Format.CEROS:
        return [row.entry.index for row in ceros_rounds.table(competition).rows]
    tables = standings(competition)
    if competition.format == Competition.Format.LIGUILLA:
        return [row.pair for row in tables[0].rows]
    order = placed(competition)
    by_place: list[tuple[int, int, int]] = []
    for group in tables:
        for place, row in enumerate(group.rows):
            by_place.append((place, group.group.order if group.group else 0, row.pair))
    # Each pair stands in one group: the groups' order adds each one not placed yet once.
    return order + [index for _place, _group, index in sorted(by_place) if index not in order]


def order(competition: Competition) -> list[int]:
    """The final order of ``competition`` (finished): kept for its revision, else worked
    out (nothing written)."""
    if competition.final_order is not None and \
            competition.order_revision == competition.revision:
        return list(competition.final_order)
    return worked_out(competition)


def keep(competition: Competition) -> None:
    """Keep the final order of ``competition`` (a stage's) for its revision, once it is
    finished (its status and revision as stored: after the write's bump)."""
    if competition.stage_id is None or competition.status != Competition.Status.FINISHED:
        return
    competition.final_order = worked_out(competition)
    competition.order_revision = competition.revision
    Competition.objects.filter(pk=competition.pk).update(
        final_order=competition.final_order, order_revision=competition.revision)
