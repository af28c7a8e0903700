"""Migration operations shared by the apps' migrations: an index built or dropped
CONCURRENTLY on PostgreSQL (the table stays writable meanwhile), plainly on SQLite, which
has no such thing. Migrations import these by name, so a name here never changes."""

from __future__ import annotations

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState


class _ConcurrentlyOnPostgres(Operation):
    """The CONCURRENTLY operation on PostgreSQL, else the ``plain`` one it stands for."""

    plain: type[Operation]

    def database_forwards(self, app_label: str, schema_editor: BaseDatabaseSchemaEditor,
                          from_state: ProjectState, to_state: ProjectState) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)
        else:
            self.plain.database_forwards(self, app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label: str, schema_editor: BaseDatabaseSchemaEditor,
                           from_state: ProjectState, to_state: ProjectState) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
        else:
            self.plain.database_backwards(self, app_label, schema_editor, from_state, to_state)


class BuildIndexConcurrently(_ConcurrentlyOnPostgres, AddIndexConcurrently):
    """``AddIndexConcurrently`` on PostgreSQL, ``AddIndex`` on SQLite."""

    plain = migrations.AddIndex


class DropIndexConcurrently(_ConcurrentlyOnPostgres, RemoveIndexConcurrently):
    """``RemoveIndexConcurrently`` on PostgreSQL, ``RemoveIndex`` on SQLite."""

    plain = migrations.RemoveIndex
