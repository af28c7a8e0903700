"""An entry waiting for its confirmation, or rejected, holds no name at its venue (issue 40:
a false public "Los Txapeldunes" kept the venue's organiser from entering his own pair of
that name, even once he had rejected it). The unique index of a venue's names becomes a
partial one, over the entries that hold their name (entered, waiting, withdrawn).

By the migration rule (docs/operations.md, "Upgrading"): on PostgreSQL the new index is
built CONCURRENTLY and the old one dropped CONCURRENTLY, outside a transaction, so the
entries' table is never locked for the build; SQLite builds it under its one write lock."""

from typing import Any

import django.db.models.functions.text
from django.db import migrations, models

HELD = models.UniqueConstraint(
    django.db.models.functions.text.Lower("name"), models.F("sede"),
    condition=models.Q(("status__in", ("entered", "waiting", "withdrawn"))),
    name="enrolment_name_held_per_sede")


def _concurrently(schema_editor: Any, sql: str) -> str:
    if schema_editor.connection.vendor != "postgresql":
        return sql
    return sql.replace("CREATE UNIQUE INDEX", "CREATE UNIQUE INDEX CONCURRENTLY", 1).replace(
        "DROP INDEX", "DROP INDEX CONCURRENTLY", 1)


def forwards(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("championships", "Enrolment")
    created = str(HELD.create_sql(model, schema_editor))
    schema_editor.execute(_concurrently(schema_editor, created))
    quoted = schema_editor.quote_name("enrolment_name_per_sede")
    schema_editor.execute(_concurrently(schema_editor, f"DROP INDEX IF EXISTS {quoted}"))


def backwards(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("championships", "Enrolment")
    old = models.UniqueConstraint(django.db.models.functions.text.Lower("name"),
                                  models.F("sede"), name="enrolment_name_per_sede")
    schema_editor.execute(_concurrently(schema_editor, str(old.create_sql(model, schema_editor))))
    quoted = schema_editor.quote_name(HELD.name)
    schema_editor.execute(_concurrently(schema_editor, f"DROP INDEX IF EXISTS {quoted}"))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("championships", "0009_person_keys_nfkc_first"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="enrolment",
                                            name="enrolment_name_per_sede"),
                migrations.AddConstraint(model_name="enrolment", constraint=HELD),
            ],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
    ]
