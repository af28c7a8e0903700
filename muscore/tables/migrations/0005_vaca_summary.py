"""Each stored vaca's summary (juegos, winner, score, next_mano, first_hand, mano,
hand_count) beside its replay, so the board and the API's default read take the finished
vacas without their hands (issue 10: a cold read on a full table costs what it costs on a
short one). The rows already stored get theirs from their `result` here."""

import json
from typing import Any

from django.db import migrations, models
from django.db.migrations.state import StateApps

# The keys of muscore.tables.services.summary_of, written out: a migration keeps what it did.
KEYS = ("juegos", "winner", "score", "next_mano", "first_hand", "mano")


def fill_summaries(apps: StateApps, schema_editor: Any) -> None:
    VacaCheckpoint = apps.get_model("tables", "VacaCheckpoint")
    ids = list(VacaCheckpoint.objects.filter(summary="").values_list("id", flat=True))
    for start in range(0, len(ids), 200):
        # In chunks, read before written: no cursor stays open over the rows being updated.
        rows = list(VacaCheckpoint.objects.filter(id__in=ids[start : start + 200]))
        for row in rows:
            vaca = json.loads(row.result)
            summary = {key: vaca[key] for key in KEYS}
            summary["hand_count"] = len(vaca["hands"])
            row.summary = json.dumps(summary)
        VacaCheckpoint.objects.bulk_update(rows, ["summary"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_clean_player_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="vacacheckpoint",
            name="summary",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(fill_summaries, migrations.RunPython.noop),
    ]
