"""Drop the index of the matches left to play on (competition, source, number) before its
column goes (0022), CONCURRENTLY: the matches stay writable while it is dropped."""

from typing import Any

from django.contrib.postgres.operations import RemoveIndexConcurrently
from django.db import migrations


class DropIndexConcurrently(RemoveIndexConcurrently):
    """CONCURRENTLY on PostgreSQL; on SQLite, which has no such thing, a plain drop."""

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any,
                          to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.RemoveIndex.database_forwards(self, app_label, schema_editor,
                                                     from_state, to_state)

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any,
                           to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            migrations.RemoveIndex.database_backwards(self, app_label, schema_editor,
                                                      from_state, to_state)


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0020_move_results"),
    ]

    operations = [
        DropIndexConcurrently(model_name="match", name="match_left_in_order"),
    ]
