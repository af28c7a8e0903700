"""IdempotentWrite.revision: the revision a stored answer shows, read from its body once
here, so that a retry is answered (with its ETag) without parsing the body."""

import json
from typing import Any

from django.db import migrations, models
from django.db.migrations.state import StateApps


def fill_revisions(apps: StateApps, schema_editor: Any) -> None:
    IdempotentWrite = apps.get_model("tables", "IdempotentWrite")
    for stored in IdempotentWrite.objects.only("id", "body").iterator():
        try:
            revision = int(json.loads(stored.body)["revision"])
        except (ValueError, KeyError, TypeError):
            continue  # not a state: the retry answers revision 0, as nothing better is known
        IdempotentWrite.objects.filter(pk=stored.pk).update(revision=revision)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0006_vaca_summary_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotentwrite",
            name="revision",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill_revisions, migrations.RunPython.noop),
    ]
