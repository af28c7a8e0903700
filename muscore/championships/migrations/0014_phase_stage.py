"""Each venue's heat and each phase gets its stage in the league's rows (leagues 0029):
what holds its competitions (the championship's name, the venue's or the phase's), the
competitions played side by side (a phase's groups) and, for a drawn phase, the
competitions whose standings it was drawn from (level 1: the heats of its region's venues,
or of all; level n: the groups of level n - 1 of its region, or of all), as the
championship's draw read them. The league's owner of results reads these rows instead of
asking the championships (muscore.leagues.results.consequences)."""

from __future__ import annotations

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def fill(apps: Any, schema_editor: Any) -> None:
    Stage = apps.get_model("leagues", "Stage")
    Competition = apps.get_model("leagues", "Competition")
    Sede = apps.get_model("championships", "Sede")
    Phase = apps.get_model("championships", "Phase")
    PhaseGroup = apps.get_model("championships", "PhaseGroup")
    for sede in Sede.objects.exclude(heat=None).select_related("championship").order_by("id"):
        stage = Stage.objects.create(within=sede.championship.name, name=sede.name)
        Competition.objects.filter(pk=sede.heat_id).update(stage=stage)
    for phase in Phase.objects.select_related("championship").order_by("id"):
        stage = Stage.objects.create(within=phase.championship.name, name=phase.name,
                                     drawn_at=phase.drawn_at)
        Phase.objects.filter(pk=phase.pk).update(stage=stage)
        Competition.objects.filter(pk__in=PhaseGroup.objects.filter(phase=phase).values(
            "competition_id")).update(stage=stage)
        if phase.drawn_at is None:
            continue
        if phase.level == 1:
            sedes = Sede.objects.filter(championship_id=phase.championship_id)
            if phase.region_id is not None:
                sedes = sedes.filter(region_id=phase.region_id)
            sources = sedes.exclude(heat=None).values_list("heat_id", flat=True)
        else:
            before = Phase.objects.filter(championship_id=phase.championship_id,
                                          level=phase.level - 1)
            if phase.region_id is not None:
                before = before.filter(region_id=phase.region_id)
            sources = PhaseGroup.objects.filter(phase__in=before).values_list(
                "competition_id", flat=True)
        Stage.sources.through.objects.bulk_create(
            Stage.sources.through(stage_id=stage.pk, competition_id=pk) for pk in sources)


def empty(apps: Any, schema_editor: Any) -> None:
    apps.get_model("leagues", "Stage").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0013_old_games'),
        ('leagues', '0029_stage'),
    ]

    operations = [
        migrations.AddField(
            model_name='phase',
            name='stage',
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='phases', to='leagues.stage'),
        ),
        migrations.RunPython(fill, empty),
    ]
