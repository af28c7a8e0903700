"""A championship's stages in the league's rows (muscore.leagues.models.stage): a venue's
heat and each phase say there what holds their competitions and what a phase was drawn
from, so the league's owner of results knows, without asking the championships, what
depends on a result (a drawn phase takes its pairs from the heats' or the groups'
standings), what holds a competition (its championship's phase or venue) and which
competitions are played side by side (a phase's groups). Written here in the
championship's own writes: a heat started, a phase added, a phase drawn.
"""

from __future__ import annotations

from django.utils import timezone

from muscore.championships.models import Phase, PhaseGroup, Sede
from muscore.leagues.models import Competition, Stage
from muscore.leagues.rows import insert_rows


def of_heat(sede: Sede, heat: Competition) -> None:
    """The venue's heat held by its venue within its championship."""
    stage = Stage.objects.create(within=sede.championship.name, name=sede.name)
    Competition.objects.filter(pk=heat.pk).update(stage=stage)
    heat.stage = stage


def of_phase(phase: Phase) -> Stage:
    """A new phase's stage (its groups or knockout, once drawn, are its competitions)."""
    stage = Stage.objects.create(within=phase.championship.name, name=phase.name)
    Phase.objects.filter(pk=phase.pk).update(stage=stage)
    phase.stage = stage
    return stage


def drawn(phase: Phase) -> None:
    """A phase just drawn: its groups (or knockout) are its stage's competitions, and
    the competitions its pairs were drawn from its sources, as of now."""
    stage = phase.stage or of_phase(phase)
    Competition.objects.filter(pk__in=PhaseGroup.objects.filter(phase=phase).values(
        "competition_id")).update(stage=stage)
    Stage.objects.filter(pk=stage.pk).update(drawn_at=phase.drawn_at or timezone.now())
    # Plain rows (muscore.leagues.rows): the draw's transaction prepares no instance.
    insert_rows(Stage.sources.through, ("stage", "competition"),
                [(stage.pk, pk) for pk in sources(phase)])


def sources(phase: Phase) -> list[int]:
    """The competitions whose standings ``phase`` draws from (muscore.championships.phases
    .phase_field): level 1 the heats of its region's venues (of all, with no region), level
    n the groups of the phases of level n - 1 of its region (of all)."""
    if phase.level == 1:
        sedes = Sede.objects.filter(championship_id=phase.championship_id)
        if phase.region_id is not None:
            sedes = sedes.filter(region_id=phase.region_id)
        return [pk for pk in sedes.values_list("heat_id", flat=True) if pk is not None]
    before = Phase.objects.filter(championship_id=phase.championship_id,
                                  level=phase.level - 1)
    if phase.region_id is not None:
        before = before.filter(region_id=phase.region_id)
    return list(PhaseGroup.objects.filter(phase__in=before).values_list("competition_id",
                                                                        flat=True))
