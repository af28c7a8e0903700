"""Migrations that keep the site answering on a large PostgreSQL database (issue 31): no
migration from now on takes a long lock on a table that already holds rows. The rule
(docs/operations.md, "Upgrading"): an index on an existing table is built CONCURRENTLY
(`AddIndexConcurrently` / `RemoveIndexConcurrently` from django.contrib.postgres, in a
migration with `atomic = False`), never by AddIndex, a unique constraint, or a field that
brings its own index (db_index, unique, a ForeignKey) added to an existing table; and no
column of an existing table changes its type (a rewrite under ACCESS EXCLUSIVE). A table the
same migration creates is empty: anything goes there.

Every migration of muscore is checked, by its operations (any database) and by its SQL
(`sqlmigrate` on PostgreSQL). The migrations from before the rule are listed below: they
ran on every database already (the one that built indexes under lock, leagues 0013, ran
when the tables were small).
"""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.core.management import call_command
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader

pytestmark = pytest.mark.postgres

BEFORE_THE_RULE = {
    ("championships", "0001_initial"),
    ("championships", "0002_heat_order"),
    ("championships", "0003_knockout"),
    ("championships", "0004_championship_revision"),
    ("clubs", "0001_initial"),
    ("clubs", "0002_clubchange"),
    ("clubs", "0003_membership_accepted"),
    ("clubs", "0004_retired"),
    ("leagues", "0001_initial"),
    ("leagues", "0002_entry_lines"),
    ("leagues", "0003_result_claims"),
    ("leagues", "0004_player_ratings"),
    ("leagues", "0005_match_doc"),
    ("leagues", "0006_hand_stats"),
    ("leagues", "0007_ceros"),
    ("leagues", "0008_rating_backlog"),
    ("leagues", "0009_night"),
    ("leagues", "0010_correction_reason"),
    ("leagues", "0011_competition_rated"),
    ("leagues", "0012_prepared_documents"),
    ("leagues", "0013_match_indexes_for_pages"),
    ("leagues", "0014_league_import"),
    ("tables", "0001_initial"),
    ("tables", "0002_change_action_redo"),
    ("tables", "0003_vaca_checkpoints"),
    ("tables", "0004_clean_player_names"),
    ("tables", "0005_vaca_summary"),
    ("tables", "0006_vaca_summary_index"),
    ("tables", "0007_idempotent_revision"),
}

INDEXED_FIELDS = (models.ForeignKey, models.OneToOneField)


def muscore_migrations() -> list[migrations.Migration]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return sorted((m for (app, _name), m in loader.disk_migrations.items()
                   if type(m).__module__.startswith("muscore.")),
                  key=lambda m: (m.app_label, m.name))


def before_the_rule(migration: migrations.Migration) -> bool:
    return (migration.app_label, migration.name) in BEFORE_THE_RULE


def _field_indexed(field: Any) -> bool:
    """Whether adding `field` to a table with rows builds an index or checks a key under
    lock: a key is fine only without its index and without its database constraint
    (docs/operations.md: "db_index=False, db_constraint=False for a key")."""
    if isinstance(field, models.OneToOneField):
        return True  # unique: its index is built with it
    if isinstance(field, INDEXED_FIELDS):
        return bool(field.db_index or field.db_constraint)
    return bool(getattr(field, "db_index", False) or getattr(field, "unique", False)
                or getattr(field, "primary_key", False))


def locking_operations(migration: migrations.Migration) -> list[str]:
    """What in this migration would hold a long lock on a table with rows."""
    created = {op.name_lower for op in migration.operations
               if isinstance(op, migrations.CreateModel)}
    found = []
    for op in migration.operations:
        model = getattr(op, "model_name", None) or getattr(op, "name_lower", None)
        if model in created and not isinstance(op, migrations.CreateModel):
            continue  # the table is new: empty
        if isinstance(op, AddIndexConcurrently | RemoveIndexConcurrently):
            if migration.atomic:
                found.append(f"{op.describe()}: CONCURRENTLY needs `atomic = False`")
        elif isinstance(op, migrations.AddIndex | migrations.RemoveIndex):
            found.append(f"{op.describe()}: use {type(op).__name__}Concurrently "
                         "(django.contrib.postgres.operations) with atomic = False")
        elif isinstance(op, migrations.AddConstraint) and isinstance(
                op.constraint, models.UniqueConstraint):
            found.append(f"{op.describe()}: a unique index built under lock; build it "
                         "CONCURRENTLY first (AddIndexConcurrently), then the constraint")
        elif isinstance(op, migrations.AddField) and _field_indexed(op.field):
            found.append(f"{op.describe()}: the field's index is built under lock; add it "
                         "with db_index=False (db_constraint=False for a key) and then "
                         "AddIndexConcurrently")
        elif isinstance(op, migrations.AlterField):
            found.append(f"{op.describe()}: may rewrite the table or build an index under "
                         "lock; add a new column (and copy in batches) instead")
        elif isinstance(op, migrations.RunSQL) and re.search(
                r"CREATE\s+(UNIQUE\s+)?INDEX(?!\s+CONCURRENTLY)", str(op.sql), re.I):
            found.append("RunSQL: CREATE INDEX without CONCURRENTLY")
    return found


@pytest.mark.parametrize("migration", [m for m in muscore_migrations() if not before_the_rule(m)],
                         ids=lambda m: f"{m.app_label}.{m.name}")
def test_no_migration_locks_a_table_with_rows(migration: migrations.Migration) -> None:
    found = locking_operations(migration)
    assert not found, f"{migration.app_label}.{migration.name}: " + "; ".join(found)


def test_the_check_catches_an_index_built_under_lock() -> None:
    index = models.Index(fields=["status"], name="match_status_idx")
    blocking = type("Migration", (migrations.Migration,), {
        "operations": [migrations.AddIndex("match", index),
                       migrations.AddField("match", "club", models.ForeignKey(
                           "clubs.Club", on_delete=models.CASCADE, null=True)),
                       migrations.AlterField("match", "note", models.TextField())]})(
        "0099_x", "leagues")
    found = locking_operations(blocking)
    assert len(found) == 3 and "AddIndexConcurrently" in found[0]
    # A key added without its index and without its constraint takes no lock to speak of.
    bare_key = type("Migration", (migrations.Migration,), {"operations": [
        migrations.AddField("match", "club", models.ForeignKey(
            "clubs.Club", on_delete=models.CASCADE, null=True, db_index=False,
            db_constraint=False))]})("0099_k", "leagues")
    assert locking_operations(bare_key) == []
    bare_key.operations[0].field.db_constraint = True  # its constraint checked under lock
    assert len(locking_operations(bare_key)) == 1
    concurrent = type("Migration", (migrations.Migration,), {
        "atomic": False, "operations": [AddIndexConcurrently("match", index)]})(
        "0099_y", "leagues")
    assert locking_operations(concurrent) == []
    concurrent.atomic = True
    assert "atomic = False" in locking_operations(concurrent)[0]
    new_table = type("Migration", (migrations.Migration,), {"operations": [
        migrations.CreateModel("Thing", [("id", models.BigAutoField(primary_key=True))]),
        migrations.AddIndex("thing", models.Index(fields=["id"], name="thing_idx"))]})(
        "0099_z", "leagues")
    assert locking_operations(new_table) == []


# Outside a transaction: a CONCURRENTLY operation refuses to be worded inside one.
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the SQL of PostgreSQL")
@pytest.mark.parametrize("migration", [m for m in muscore_migrations() if not before_the_rule(m)],
                         ids=lambda m: f"{m.app_label}.{m.name}")
def test_no_migration_sql_builds_an_index_under_lock(migration: migrations.Migration) -> None:
    """The same rule on what PostgreSQL is sent: every CREATE INDEX of a table the
    migration does not create says CONCURRENTLY."""
    out = StringIO()
    call_command("sqlmigrate", migration.app_label, migration.name, stdout=out)
    sql = out.getvalue()
    created = set(re.findall(r'CREATE TABLE "(\w+)"', sql))
    for statement in re.findall(r"CREATE (?:UNIQUE )?INDEX[^;]*;", sql):
        table = re.search(r'ON "(\w+)"', statement)
        assert "CONCURRENTLY" in statement or (table and table.group(1) in created), statement
    for altered in re.findall(r'ALTER TABLE "(\w+)" ALTER COLUMN "\w+" TYPE', sql):
        assert altered in created, f"a column of {altered} changes type under lock"
