"""A tie's games found by an index on (tie, game) (0024): built CONCURRENTLY, the matches
writable meanwhile."""

from typing import Any

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class BuildIndexConcurrently(AddIndexConcurrently):
    """CONCURRENTLY on PostgreSQL; on SQLite, which has no such thing, a plain build."""

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any,
                          to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.AddIndex.database_forwards(self, app_label, schema_editor,
                                                  from_state, to_state)

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any,
                           to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.AddIndex.database_backwards(self, app_label, schema_editor,
                                                   from_state, to_state)


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0026_drop_slot"),
    ]

    operations = [
        BuildIndexConcurrently(
            model_name="match",
            index=models.Index(fields=["tie", "game"], name="match_game_of_tie"),
        ),
    ]
