"""A venue's heat's final order moves to the heat itself (leagues 0032): the league's owner
of results keeps every finished competition's order in the result's write, so the
championship no longer keeps a copy on its venues. Each kept order is copied as it is,
with the revision it was kept for (a stale one stays stale: worked out when read)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def to_heats(apps: Any, schema_editor: Any) -> None:
    Competition = apps.get_model("leagues", "Competition")
    Sede = apps.get_model("championships", "Sede")
    kept = Sede.objects.filter(heat__isnull=False, final_order__isnull=False)
    for heat_id, order, revision in kept.values_list("heat_id", "final_order",
                                                     "order_revision"):
        Competition.objects.filter(pk=heat_id).update(final_order=order,
                                                      order_revision=revision)


def to_sedes(apps: Any, schema_editor: Any) -> None:
    Competition = apps.get_model("leagues", "Competition")
    Sede = apps.get_model("championships", "Sede")
    kept = Competition.objects.filter(sede__isnull=False, final_order__isnull=False)
    for sede_id, order, revision in kept.values_list("sede", "final_order",
                                                     "order_revision"):
        Sede.objects.filter(pk=sede_id).update(final_order=order, order_revision=revision)


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0015_pairs_placed'),
        ('leagues', '0032_competition_final_order'),
    ]

    operations = [
        migrations.RunPython(to_heats, to_sedes),
        migrations.RemoveField(
            model_name='sede',
            name='final_order',
        ),
        migrations.RemoveField(
            model_name='sede',
            name='order_revision',
        ),
    ]
