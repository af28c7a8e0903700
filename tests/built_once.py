"""The rows a test factory builds, built once per test process and written back for each
later test that asks for the same build (issue 36: CI time).

The championship factory's builders (tests/championships/factory.py) play their heats
through the results' one owner (`muscore.leagues.results`): about 0.6 s of CPU a call,
and some 90 tests ask for one of a few builds, each from the empty test database. A
builder decorated with `built_once` runs for real the first time (in its test), and the
rows it added are kept (every table read back with a plain SELECT, compared with the same
before it ran). A later call with the same arguments, from a database with as many rows
in each table (and SQLite's same key counters), inserts those rows again instead: the
rows, keys and values the real path wrote (on SQLite the keys of a fresh build too: a
test's rollback gives the counters back).
tests/championships/test_built_once.py holds a build written back equal to one made anew.

What is not rows is kept as the real build left it: the builder's return value (deep-
copied: the objects as the build left them, a stale field included); the times the build
wrote (a row's `created_at`, a result's time) move with the clock, as if built just before
the test (a date, when the day changed since); SQLite's key counters; the cache keys the
build wrote or dropped are dropped (its drops keep an earlier test's entries of the same
keys from being read; what it wrote is read cold, as after a cache clear).

A build is kept for its arguments, language, settings (a test's own are another
`settings._wrapped`) and starting database. It runs for real every time where reusing it
would not hold: with a test's own clock (`timezone.now` replaced), in a test without its
transaction (live servers: their rows are committed), inside another build, and when it
changed a row it did not add, counted in the cache (`incr`) or wrote today's date inside a
text (a JSON's time would not move).
"""

from __future__ import annotations

import copy
import functools
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.db.models import Model
from django.db.utils import DJANGO_VERSION_PICKLE_KEY
from django.utils import timezone, translation

P = ParamSpec("P")
R = TypeVar("R")

_REAL_NOW = timezone.now
#: The cache's writes, watched while a build runs (`_CacheWatch`).
_CACHE_WRITES = ("set", "add", "delete", "incr", "decr", "set_many", "delete_many",
                 "clear", "touch")
_local = threading.local()


@dataclass
class Built:
    """One build kept: the rows it added (by table), SQLite's key counters it left, what
    it returned, the cache keys it wrote or dropped, and when it ran."""

    rows: dict[str, Rows]
    counters: list[tuple[str, int]]
    value: Any
    cached: dict[str, set[str]]
    began: datetime
    ended: datetime

    def write_back(self) -> Any:
        """Insert the rows again, the times moved to now; the return value, likewise; drop
        the cache keys the build wrote or dropped."""
        now = _REAL_NOW()
        shift = _Shift(self.began, self.ended, now - self.ended,
                       timezone.localdate(now) - timezone.localdate(self.ended))
        with connection.cursor() as cursor:
            for table, (columns, json, rows) in self.rows.items():
                names = ", ".join(connection.ops.quote_name(c) for c in columns)
                marks = ", ".join("%s::jsonb" if is_json else "%s" for is_json in json)
                cursor.executemany(
                    f"INSERT INTO {connection.ops.quote_name(table)} ({names}) VALUES ({marks})",
                    [tuple(_for_insert(shift.value(v)) for v in row) for row in rows])
            if connection.vendor == "sqlite":
                cursor.executemany("UPDATE sqlite_sequence SET seq = %s WHERE name = %s",
                                   [(seq, name) for name, seq in self.counters])
                cursor.executemany(
                    "INSERT INTO sqlite_sequence (name, seq) SELECT %s, %s WHERE NOT EXISTS"
                    " (SELECT 1 FROM sqlite_sequence WHERE name = %s)",
                    [(name, seq, name) for name, seq in self.counters])
            elif connection.vendor == "postgresql":
                _advance_sequences(cursor, self.rows)
        for alias, keys in self.cached.items():
            caches[alias].delete_many(list(keys))
        return shift.objects(copy.deepcopy(self.value))


@dataclass
class _Shift:
    """The times a build wrote (between `began` and `ended`), moved by `by`; its dates
    (the day it ended) by `days`. A time given to the build (an option's date) stays."""

    began: datetime
    ended: datetime
    by: timedelta
    days: timedelta

    def value(self, value: Any) -> Any:
        if isinstance(value, datetime):
            aware = value if timezone.is_aware(value) else timezone.make_aware(
                value, UTC)
            return value + self.by if self.began <= aware <= self.ended else value
        if isinstance(value, date) and value == timezone.localdate(self.ended):
            return value + self.days
        return value

    def objects(self, value: Any, seen: set[int] | None = None) -> Any:
        """Move the times inside the returned objects (deep-copied) as in the rows."""
        seen = set() if seen is None else seen
        if id(value) in seen:
            return value
        seen.add(id(value))
        if isinstance(value, Model):
            vars(value).pop(DJANGO_VERSION_PICKLE_KEY, None)  # put there by the deep copy
            for name, field in list(vars(value).items()):
                if name != "_state":
                    vars(value)[name] = self.objects(self.value(field), seen)
            for cached in value._state.fields_cache.values():
                self.objects(cached, seen)
        elif isinstance(value, list | tuple | set):
            for item in value:
                self.objects(item, seen)
        elif isinstance(value, dict):
            for item in value.values():
                self.objects(item, seen)
        return value


def _for_insert(value: Any) -> Any:
    """A value read back by SELECT, as the database takes it again."""
    if isinstance(value, time):
        return value.isoformat()  # as Django writes a TimeField on SQLite
    return value


def _advance_sequences(cursor: Any, rows: dict[str, Rows]) -> None:
    """PostgreSQL's key sequences past the keys written back (they are not rolled back
    with a test, so the next key is never one of them)."""
    quote = connection.ops.quote_name
    for table in rows:
        key = connection.introspection.get_primary_key_column(cursor, table)
        if key is None:
            continue
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [quote(table), key])
        found = cursor.fetchone()
        if found and found[0]:
            cursor.execute(f"SELECT setval(%s, GREATEST(nextval(%s), (SELECT MAX({quote(key)})"
                           f" FROM {quote(table)})))", [found[0], found[0]])


def _tables() -> list[str]:
    tables: list[str] | None = getattr(_local, "tables", None)
    if tables is None:
        with connection.cursor() as cursor:
            tables = sorted(t.name for t in connection.introspection.get_table_list(cursor)
                            if t.type == "t")
        _local.tables = tables
    return tables


def _start() -> tuple[Any, ...]:
    """The database as a build finds it: each table's row count (and SQLite's counters)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(
            f"SELECT '{table}', COUNT(*) FROM {quote(table)}" for table in _tables()))
        counts = tuple(sorted(cursor.fetchall()))
        counters: tuple[Any, ...] = ()
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name, seq FROM sqlite_sequence ORDER BY name")
            counters = tuple(cursor.fetchall())
    return counts, counters


#: A table's rows as read back: its columns, which of them are PostgreSQL's jsonb (read
#: back as their text, as Django's connection reads them, and cast when written), its rows.
Rows = tuple[list[str], list[bool], list[tuple[Any, ...]]]
_JSONB = 3802


def table_rows() -> dict[str, Rows]:
    """Every table's rows, as SELECT reads them back."""
    quote = connection.ops.quote_name
    found = {}
    with connection.cursor() as cursor:
        for table in _tables():
            cursor.execute(f"SELECT * FROM {quote(table)}")
            found[table] = ([d[0] for d in cursor.description],
                            [connection.vendor == "postgresql" and d[1] == _JSONB
                             for d in cursor.description], cursor.fetchall())
    return found


def _added(before: dict[str, Rows], after: dict[str, Rows], days: set[str]
           ) -> dict[str, Rows] | None:
    """The rows the build added, by table; None when it changed or deleted one it found,
    or wrote one of `days` into a text (a time written back would not move there)."""
    added = {}
    for table, (columns, json, rows) in after.items():
        old = Counter(repr(row) for row in before[table][2])
        new = Counter(repr(row) for row in rows)
        if old - new:
            return None
        fresh, kept = new - old, []
        for row in rows:  # in the order read, each added row once
            if fresh[repr(row)] > 0:
                fresh[repr(row)] -= 1
                kept.append(row)
        if any(isinstance(v, str) and any(day in v for day in days)
               for row in kept for v in row):
            return None
        if kept:
            added[table] = (columns, json, kept)
    return added


class _CacheWatch:
    """The cache keys a build wrote or dropped while it is on (by cache alias), and
    whether it counted (`incr`, `decr`: a count dropped is not the count it left)."""

    def __init__(self) -> None:
        self.keys: dict[str, set[str]] = {}
        self.counted = False
        self.saved: list[tuple[Any, str]] = []

    def __enter__(self) -> _CacheWatch:
        for alias in settings.CACHES:
            backend = caches[alias]
            for name in _CACHE_WRITES:
                setattr(backend, name, self._watched(alias, name, getattr(backend, name)))
                self.saved.append((backend, name))  # on this object: its class stays
        return self

    def _watched(self, alias: str, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def watched(*args: Any, **kwargs: Any) -> Any:
            keys = self.keys.setdefault(alias, set())
            if name in ("incr", "decr", "clear"):
                self.counted = True
            elif name == "set_many":
                keys.update(args[0] if args else kwargs["data"])
            elif name == "delete_many":
                keys.update(args[0] if args else kwargs["keys"])
            else:
                keys.add(args[0] if args else kwargs["key"])
            return real(*args, **kwargs)

        return watched

    def __exit__(self, *exc: object) -> None:
        for backend, name in self.saved:
            delattr(backend, name)


_BUILT: dict[tuple[Any, ...], Built | None] = {}
#: How many builds were written back, and run, in this process (tests/test_built_once.py).
counts: Counter[str] = Counter()


@contextmanager
def anew() -> Iterator[None]:
    """Every build inside runs for real: nothing kept, nothing written back."""
    was = getattr(_local, "building", False)
    _local.building = True
    try:
        yield
    finally:
        _local.building = was


def built_once(builder: Callable[P, R]) -> Callable[P, R]:
    """`builder`, run for real once per process and arguments, its rows written back after."""

    @functools.wraps(builder)
    def build(*args: P.args, **kwargs: P.kwargs) -> R:
        if (getattr(_local, "building", False) or not connection.in_atomic_block
                or timezone.now is not _REAL_NOW):
            counts["run"] += 1
            return builder(*args, **kwargs)
        # The settings' holder itself (kept alive here, so its id is never another's).
        key = (builder.__module__, builder.__qualname__, repr(args),
               repr(sorted(kwargs.items())), translation.get_language(), connection.vendor,
               settings._wrapped, _start())
        if key in _BUILT:
            kept = _BUILT[key]
            if kept is not None:
                counts["written back"] += 1
                value: R = kept.write_back()
                return value
            counts["run"] += 1
            return builder(*args, **kwargs)  # a build that cannot be written back
        counts["run"] += 1
        _local.building = True
        try:
            before, began = table_rows(), _REAL_NOW()
            with _CacheWatch() as cache:
                value = builder(*args, **kwargs)
            ended = _REAL_NOW()
            added = _added(before, table_rows(), {
                timezone.localdate(ended).isoformat(), ended.date().isoformat(),
                timezone.localdate(began).isoformat(), began.date().isoformat()})
            counters = []
            if connection.vendor == "sqlite":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT name, seq FROM sqlite_sequence ORDER BY name")
                    counters = cursor.fetchall()
            _BUILT[key] = None if added is None or cache.counted else Built(
                added, counters, copy.deepcopy(value), cache.keys, began, ended)
        finally:
            _local.building = False
        return value

    return build
