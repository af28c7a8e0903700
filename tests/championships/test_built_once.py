"""The championship factory's builds, kept once and written back for later tests
(tests/built_once.py, issue 36: CI time): a build written back is the build made anew, and
a build from another database runs for real."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from muscore.championships import services
from muscore.championships.models import Championship
from tests import built_once
from tests.championships.factory import drawn_semifinal
from tests.clubs.factory import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def added(build: Any) -> tuple[dict[str, built_once.Rows], Any]:
    """The rows `build()` adds to this test's database, and what it returns; rolled back
    after (a savepoint)."""
    before = built_once.table_rows()
    with transaction.atomic():
        value = build()
        after = built_once.table_rows()
        transaction.set_rollback(True)
    rows = {}
    for table, (columns, json, found) in after.items():
        old = [repr(row) for row in before[table][2]]
        new = [row for row in found if repr(row) not in old]
        if new:
            rows[table] = (columns, json, new)
    return rows, value


def timeless(value: Any) -> Any:
    """A row or a field without its times (a build made later writes later times)."""
    if isinstance(value, tuple):
        return tuple(timeless(v) for v in value)
    return "a time" if isinstance(value, datetime | date) else value


def keyless(row: tuple[Any, ...]) -> str:
    """A row without its times, passwords (salted at random) and numbers (keys, and the
    keys inside a JSON text)."""
    return re.sub(r"\d+", "#", repr(tuple(
        "a password" if isinstance(v, str) and v.startswith("md5$") else v
        for v in timeless(row))))


def fields(value: Model) -> dict[str, Any]:
    return {name: timeless(v) for name, v in vars(value).items() if name != "_state"}


def differing(first: dict[str, built_once.Rows], second: dict[str, built_once.Rows]
              ) -> set[tuple[str, int]]:
    """The columns (table, index) two builds made anew wrote differently, but for their
    times: what is drawn at random (a password's salt)."""
    return {(table, i) for table, (_c, _j, rows) in first.items()
            for a, b in zip(sorted(rows, key=repr), sorted(second[table][2], key=repr),
                            strict=True)
            for i, (x, y) in enumerate(zip(a, b, strict=True)) if timeless(x) != timeless(y)}


def test_a_build_written_back_is_the_build_made_anew() -> None:
    added(drawn_semifinal)  # kept (or written back: kept by an earlier test)
    with built_once.anew():
        made, (championship, boss, barmen, phase) = added(drawn_semifinal)
        other, _value = added(drawn_semifinal)
    written = built_once.counts["written back"]
    started = timezone.now()
    again, (championship2, boss2, barmen2, phase2) = added(drawn_semifinal)
    assert built_once.counts["written back"] == written + 1
    assert sorted(again) == sorted(made)
    assert {t: len(rows) for t, (_c, _j, rows) in again.items()} == {
        t: len(rows) for t, (_c, _j, rows) in made.items()}
    # The times the build wrote moved to the write-back's, in their order.
    times = [v for _c, _j, rows in again.values() for row in rows for v in row
             if isinstance(v, datetime)]
    aware = [t if timezone.is_aware(t) else t.replace(tzinfo=UTC) for t in times]
    assert times and max(aware) <= timezone.now() and min(aware) > started - timedelta(minutes=1)
    assert championship2.created_at >= started - timedelta(minutes=1)
    if connection.vendor != "sqlite":
        # PostgreSQL's keys are its sequences' (not rolled back): the same rows but for
        # their keys and times.
        for table, (_columns, _json, rows) in made.items():
            assert sorted(map(keyless, again[table][2])) == sorted(map(keyless, rows)), table
    else:
        # The same keys as a fresh build (a rollback gives SQLite's counters back), so the
        # same rows but for their times, and the same objects returned.
        random = differing(made, other)
        assert {table for table, _i in random} <= {"auth_user"}  # the passwords' salts

        def seen(table: str, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
            return sorted((tuple("random" if (table, i) in random else timeless(v)
                                 for i, v in enumerate(row)) for row in rows), key=repr)

        for table, (_columns, _json, rows) in made.items():
            assert seen(table, again[table][2]) == seen(table, rows), table
        for first, second in ((championship, championship2), (phase, phase2)):
            assert fields(first) == fields(second)
        for first, second in ((boss, boss2), *zip(barmen, barmen2, strict=True)):
            assert {**fields(first), "password": ""} == {**fields(second), "password": ""}


def test_a_build_from_another_database_runs_for_real() -> None:
    added(drawn_semifinal)
    make_user("someone")
    run, written = built_once.counts["run"], built_once.counts["written back"]
    championship, boss, _barmen, phase = drawn_semifinal()
    assert built_once.counts["run"] > run and built_once.counts["written back"] == written
    assert phase.groups.count() == 2 and Championship.objects.get() == championship
    # Keys are not reused past the build's: the next rows insert (PostgreSQL's sequences).
    services.add_phase(championship, by=boss, name="Final", level=2)


def test_a_written_back_build_takes_the_next_rows() -> None:
    added(drawn_semifinal)
    championship, boss, _barmen, phase = drawn_semifinal()
    services.add_phase(championship, by=boss, name="Final", level=2)
    assert championship.phases.count() == 2 and phase.groups.count() == 2
