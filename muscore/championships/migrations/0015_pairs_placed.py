"""Each pair a championship made for an entry (its heat's pair in the venue's club, its
phases' pair in the championship's club) says by whom it was placed (clubs 0005): the
clubs' doors read it on the pair (muscore.clubs.holders) instead of asking the
championships."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def fill(apps: Any, schema_editor: Any) -> None:
    Championship = apps.get_model("championships", "Championship")
    Enrolment = apps.get_model("championships", "Enrolment")
    Pair = apps.get_model("clubs", "Pair")
    for championship in Championship.objects.order_by("id"):
        entries = Enrolment.objects.filter(championship=championship)
        pairs = {pk for pair in entries.values_list("heat_pair_id", "phase_pair_id")
                 for pk in pair if pk is not None}
        Pair.objects.filter(pk__in=pairs).update(placed_by=championship.name)


def empty(apps: Any, schema_editor: Any) -> None:
    apps.get_model("clubs", "Pair").objects.exclude(placed_by="").update(placed_by="")


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0014_phase_stage'),
        ('clubs', '0005_pair_placed_by'),
    ]

    operations = [
        migrations.RunPython(fill, empty),
    ]
