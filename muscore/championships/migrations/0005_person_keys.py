"""The entries' player keys made again by muscore.text.person_key: stored by the old fold
(case, accents, spaces), "Iñaki Etxeberria" with a soft hyphen or the names swapped was
another person."""

from typing import Any

from django.db import migrations

from muscore.text import person_key

NAME_MAX = 60


def rekey(apps: Any, schema_editor: Any) -> None:
    Enrolment = apps.get_model("championships", "Enrolment")
    batch = []
    for enrolment in Enrolment.objects.only("pk", "player_a", "player_b").iterator(2000):
        enrolment.key_a = person_key(enrolment.player_a)[:NAME_MAX]
        enrolment.key_b = person_key(enrolment.player_b)[:NAME_MAX]
        batch.append(enrolment)
        if len(batch) >= 2000:
            Enrolment.objects.bulk_update(batch, ["key_a", "key_b"])
            batch = []
    Enrolment.objects.bulk_update(batch, ["key_a", "key_b"])


class Migration(migrations.Migration):
    # Each batch of 2,000 entries in a transaction of its own: the entries' table is never
    # locked for the whole pass (docs/operations.md, "Upgrading").
    atomic = False

    dependencies = [
        ("championships", "0004_championship_revision"),
    ]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
