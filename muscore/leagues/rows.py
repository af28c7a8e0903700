"""Rows inserted by one executemany of plain tuples, where bulk_create would build and
prepare a model instance for each: a large club's ratings (156,000 points for the
benchmark's club) and a large competition's fixtures (19,900 matches for a 200-pair
liguilla: bulk_create held SQLite's write lock 1.5 s in the request that drew it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def insert_rows(model: type[models.Model], fields: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert `rows`, each the values of `fields` (model field names; a foreign key's
    value is the related row's id) in that order. The columns left out must be nullable
    or have a database default; no signal is sent, no value converted: give what the
    column stores."""
    if not rows:
        return
    meta = model._meta
    columns = {f.name: str(f.column) for f in meta.concrete_fields}
    names = ", ".join(connection.ops.quote_name(columns[f]) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({names}) VALUES ({marks})",
            rows)


def prepared_rows(objs: Sequence[models.Model], fields: Sequence[str]) -> list[tuple[Any, ...]]:
    """Each unsaved instance's values of `fields` as their columns store them (what
    bulk_create prepares in its insert), worked out before a transaction so that the
    transaction only sends them (`insert_rows`, `insert_returning`)."""
    if not objs:
        return []
    meta = objs[0]._meta
    every = [meta.get_field(name) for name in fields]
    return [tuple(field.get_db_prep_save(field.pre_save(obj, True), connection)  # type: ignore[union-attr]
                  for field in every) for obj in objs]


def insert_returning(model: type[models.Model], fields: Sequence[str],
                     rows: Sequence[tuple[Any, ...]]) -> list[int]:
    """`insert_rows`, giving back the new rows' ids in the rows' order: multi-row INSERT
    ... RETURNING (SQLite 3.35, PostgreSQL), whose order bulk_create relies on too."""
    if not rows:
        return []
    assert connection.features.can_return_rows_from_bulk_insert
    meta = model._meta
    columns = {f.name: str(f.column) for f in meta.concrete_fields}
    names = ", ".join(connection.ops.quote_name(columns[f]) for f in fields)
    marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
    table, pk = connection.ops.quote_name(meta.db_table), connection.ops.quote_name(
        str(meta.pk.column))
    size = max(1, 999 // len(fields))  # SQLite's smallest limit of parameters a query
    ids: list[int] = []
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start:start + size]
            cursor.execute(f"INSERT INTO {table} ({names}) VALUES "
                           f"{', '.join([marks] * len(batch))} RETURNING {pk}",
                           [value for row in batch for value in row])
            # In the rows' order: the ids one insert gives are ascending, whatever order
            # RETURNING lists them in.
            ids.extend(sorted(row[0] for row in cursor.fetchall()))
    return ids
