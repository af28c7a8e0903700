"""What a league result changes in a championship, inside the result's own write
(:data:`muscore.leagues.signals.result_changed`), so that reading a page never writes: a
venue's heat keeps its final order for its revision (the qualified and reserves that the
championship's pages read for 250 venues at once). A knockout phase's next games are the
league's owner of results' own (muscore.leagues.results.bracket).

And what the championship answers the league's owner of results
(:mod:`muscore.leagues.consequences`, registered by the app): what depends on a match's
result (:func:`dependents`), what placed a competition (:func:`holders`).
"""

from __future__ import annotations

from django.db.models import Q

from muscore.championships.models import Championship, Phase, PhaseGroup, Sede
from muscore.championships.services import heat_order
from muscore.clubs.models import Pair
from muscore.clubs.permissions import Actor
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import consequences


def on_result(competition: Competition, by: Actor | None = None) -> None:
    """The receiver of ``result_changed``: one query for a competition that is not a
    venue's heat. A person's change under what was drawn from it (a phase) was refused
    before (the league asks :func:`dependents`)."""
    if competition.status != Competition.Status.FINISHED:
        return
    sede_id = Sede.objects.filter(heat_id=competition.pk).values_list("pk", flat=True).first()
    if sede_id is not None:
        keep_heat_order(sede_id, competition)


def keep_heat_order(sede_id: int, heat: Competition) -> None:
    """Store a finished heat's final order on its venue, for the heat's revision."""
    Sede.objects.filter(pk=sede_id).update(final_order=heat_order(heat),
                                           order_revision=heat.revision)


def dependents(match: Match) -> list[str]:
    """What a championship drew from ``match``'s result: the drawn phases that took their
    pairs from its competition, level 1 from a venue's heat (the phases of its region, or
    of none), level n + 1 from a group of level n (a knockout's later games are the
    league's own answer)."""
    competition_id = match.competition_id
    drawn = Phase.objects.exclude(drawn_at=None)
    sede = Sede.objects.filter(heat_id=competition_id).values_list(
        "championship_id", "region_id").first()
    if sede is not None:
        championship_id, region_id = sede
        drawn = drawn.filter(championship_id=championship_id, level=1)
    else:
        group = (PhaseGroup.objects.filter(competition_id=competition_id, phase__knockout=False)
                 .values_list("phase__championship_id", "phase__level", "phase__region_id")
                 .first())
        if group is None:
            return []
        championship_id, level, region_id = group
        drawn = drawn.filter(championship_id=championship_id, level=level + 1)
    if region_id is not None:
        drawn = drawn.filter(Q(region_id=None) | Q(region_id=region_id))
    return list(drawn.order_by("level", "id").values_list("name", flat=True))


def holders(competition: Competition) -> list[consequences.Holder]:
    """The championship's phase a competition is a group or the knockout of, or the venue
    whose heat it is: it is deleted or changed only through the championship."""
    phase = (PhaseGroup.objects.filter(competition_id=competition.pk)
             .values_list("phase__championship__name", "phase__name").first())
    if phase is not None:
        return [consequences.Holder(*phase)]
    return [consequences.Holder(name, sede) for name, sede in Sede.objects.filter(
        heat_id=competition.pk).values_list("championship__name", "name")]


def siblings(competition: Competition) -> list[int]:
    """The competitions whose rounds are played with this one's: the other groups of its
    phase (round n with round n; a knockout's games are one competition's)."""
    phase_id = (PhaseGroup.objects.filter(competition_id=competition.pk)
                .values_list("phase_id", flat=True).first())
    if phase_id is None:
        return []
    return list(PhaseGroup.objects.filter(phase_id=phase_id)
                .values_list("competition_id", flat=True))


def pair_holders(pair: Pair) -> list[str]:
    """The championships whose draw placed ``pair`` (an entry's pair in its venue's heat or
    in its phases): the club's doors leave it as its entry made it (muscore.clubs.holders)."""
    return list(Championship.objects.filter(
        Q(enrolments__heat_pair=pair) | Q(enrolments__phase_pair=pair)).order_by("id")
        .values_list("name", flat=True).distinct())
