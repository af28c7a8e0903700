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
