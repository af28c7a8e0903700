"""An upgrade and its rollback as docs/operations.md tells an operator (issue 39): the
database 045fc67 made (tests/upgrade/fixtures/045fc67, made by that commit's own code) goes
through `scripts/upgrade` (the backup, then today's migrations) and back through
`scripts/rollback` with the backup the upgrade took, on SQLite and on PostgreSQL. After the
rollback the database is the one 045fc67 left, table for table, row for row, migration for
migration (and its sequences, on PostgreSQL); what the upgraded database held is kept in the
rollback's own backup."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import urllib.parse
from pathlib import Path

import dj_database_url
import psycopg
import pytest

from tests.upgrade.test_upgrade import ROOT, copy_rows, env, migrate_to, run

FIXTURE = Path(__file__).parent / "fixtures" / "045fc67"


def script(environment: dict[str, str], *args: str) -> str:
    result = subprocess.run(["bash", *args], cwd=ROOT, env=environment, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    return result.stdout


def upgrade_and_roll_back(environment: dict[str, str], backups: Path) -> tuple[Path, Path]:
    """scripts/upgrade, then scripts/rollback with its backup; returns the upgrade's backup
    and the rollback's own (the upgraded database)."""
    said = script(environment, "scripts/upgrade", str(backups))
    backup = Path(re.search(r"^Saved: (.+)$", said, re.M).group(1))  # type: ignore[union-attr]
    assert backup.is_file() and backup.name.startswith("before-")
    assert f"scripts/rollback {backup}" in said  # the way back, said
    # Upgraded: no migration of today's code is left to apply; then the site writes.
    run(environment, "manage.py", "migrate", "--check")
    run(environment, "manage.py", "shell", "--no-imports", "-c",
        "from muscore.clubs.models import Club; "
        "Club.objects.create(name='Club de después', slug='despues')")
    said = script(environment, "scripts/rollback", str(backup))
    upgraded = Path(re.search(r"before the rollback: (.+)$", said, re.M).group(1))  # type: ignore[union-attr]
    assert upgraded.is_file()
    return backup, upgraded


def sqlite_state(path: Path) -> list[str]:
    """The whole database as SQL (schema and rows), line by line."""
    with sqlite3.connect(path) as database:
        return list(database.iterdump())


def test_a_sqlite_upgrade_rolls_back_to_the_database_it_came_from(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    shutil.copy(FIXTURE / "db.sqlite3", database)
    before = sqlite_state(database)
    backup, upgraded = upgrade_and_roll_back(env(SQLITE_FILE=str(database)), tmp_path / "bk")
    assert backup.suffix == ".sqlite3"
    after = sqlite_state(database)
    assert after == before
    # What was written after the upgrade is gone, and kept in the rollback's own backup.
    assert not any("Club de después" in line for line in after)
    with sqlite3.connect(upgraded) as kept:
        assert kept.execute("SELECT count(*) FROM clubs_club WHERE slug = 'despues'"
                            ).fetchone() == (1,)


def postgres_state(url: str) -> dict[str, str]:
    """Every table's rows (a digest of them, sorted) and every sequence's value."""
    state: dict[str, str] = {}
    with psycopg.connect(url) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        for table in tables:
            rows = sorted(json.dumps(row, default=str) for row in connection.execute(
                f'SELECT * FROM "{table}"'))
            state[table] = hashlib.sha256("\n".join(rows).encode()).hexdigest()
        for (sequence,) in connection.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"):
            state[f"sequence {sequence}"] = str(connection.execute(
                f'SELECT last_value FROM "{sequence}"').fetchone())
    return state


# Marked postgres, the PostgreSQL test alone: the SQLite one works on a file of its own
# whatever DATABASE_URL says, and .ci/run's PostgreSQL run would only repeat it.
@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith(("postgres://",
                                                                        "postgresql://")),
                    reason="needs DATABASE_URL=postgres://... (.ci/run's PostgreSQL run)")
def test_a_postgresql_upgrade_rolls_back_to_the_database_it_came_from(tmp_path: Path) -> None:
    url = os.environ["DATABASE_URL"]
    config = dj_database_url.parse(url)
    name = f"muscore_rollback_{os.getpid()}"
    admin = psycopg.connect(dbname="postgres", user=config.get("USER") or None,
                            password=config.get("PASSWORD") or None,
                            host=config.get("HOST") or None, port=config.get("PORT") or None,
                            autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        database = urllib.parse.urlsplit(url)._replace(path=f"/{name}").geturl()
        environment = env(DATABASE_URL=database)
        # 045fc67's schema, then its rows (as tests/upgrade/test_upgrade.py builds it).
        meta = json.loads((FIXTURE / "meta.json").read_text())
        migrate_to(environment, meta["migrations"])
        copy_rows(FIXTURE / "db.sqlite3", database)
        before = postgres_state(database)
        backup, _upgraded = upgrade_and_roll_back(environment, tmp_path / "bk")
        assert backup.suffix == ".pgdump"
        after = postgres_state(database)
        assert after == before, {k: (before.get(k), after.get(k))
                                 for k in set(before) | set(after)
                                 if before.get(k) != after.get(k)}
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
