"""The database as it is, saved whole and put back whole: the backup an upgrade takes before
it migrates, and the rollback from it (scripts/upgrade, scripts/rollback; docs/operations.md,
"Upgrading" and "Rolling back").

Not muscore's own backup (`manage.py backup`, rows as JSON, read back by the code that wrote
them): a rollback puts back the schema an older release knows, tables and migrations
included, so the copy is the database's own: SQLite's online backup of the file (Python's
sqlite3, consistent while the site runs), PostgreSQL's `pg_dump --format=custom` and
`pg_restore`. Neither reads a model, so today's code saves a database its migrations have
not reached yet, and puts back one an older release left.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import connection


class SnapshotError(Exception):
    """A snapshot that could not be taken or put back, said in the operator's words."""


def suffix() -> str:
    return ".sqlite3" if connection.vendor == "sqlite" else ".pgdump"


def save(target: Path) -> Path:
    """Copy the database whole into `target` (which must not exist); returns it."""
    if target.exists():
        raise SnapshotError(f"{target} exists already: a snapshot never replaces a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    try:
        if connection.vendor == "sqlite":
            with _sqlite(_sqlite_file()) as source, _sqlite(partial) as copy:
                source.backup(copy)
        elif connection.vendor == "postgresql":
            _postgres("pg_dump", "--format=custom", "--no-owner", "--no-privileges",
                      f"--file={partial}")
        else:
            raise SnapshotError(f"no snapshot for a {connection.vendor} database")
        partial.rename(target)  # whole or not at all
    finally:
        partial.unlink(missing_ok=True)
    return target


def restore(source: Path) -> None:
    """Put the database back as `source` holds it: every table, row and migration record
    the database has now is replaced. The site must be stopped (the web servers, the
    stream servers and the workers): nothing may write meanwhile."""
    if not source.is_file():
        raise SnapshotError(f"no snapshot at {source}")
    connection.close()
    if connection.vendor == "sqlite":
        if source.suffix != ".sqlite3":
            raise SnapshotError(f"{source} is not a SQLite snapshot (.sqlite3)")
        with _sqlite(source) as copy, _sqlite(_sqlite_file()) as database:
            copy.backup(database)  # the whole file, through SQLite: its WAL stays right
        return
    if source.suffix != ".pgdump":
        raise SnapshotError(f"{source} is not a PostgreSQL snapshot (.pgdump)")
    # Tables a later migration made are not in the snapshot: the schema goes whole first.
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA public CASCADE")
        cursor.execute("CREATE SCHEMA public")
    connection.close()
    _postgres("pg_restore", "--no-owner", "--no-privileges", "--single-transaction",
              "--exit-on-error", f"--dbname={connection.settings_dict['NAME']}", str(source))


def _sqlite_file() -> str:
    return str(connection.settings_dict["NAME"])


class _sqlite:
    """A plain sqlite3 connection, closed at the end of the block."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)

    def __enter__(self) -> sqlite3.Connection:
        self.connection = sqlite3.connect(self.path, timeout=20)
        return self.connection

    def __exit__(self, *exc: Any) -> None:
        self.connection.close()


def tool(name: str) -> str:
    """pg_dump or pg_restore: on PATH, else the newest of Debian's
    /usr/lib/postgresql/<version>/bin (it must be at least the server's version)."""
    found = shutil.which(name) or next(iter(sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(path.split("/")[4]) if path.split("/")[4].isdigit() else 0,
        reverse=True)), None)
    if found is None:
        raise SnapshotError(f"{name} is missing: install PostgreSQL's client programs "
                            "(Debian: postgresql-client) of the server's version or newer")
    return found


def _postgres(program: str, *args: str) -> None:
    settings = connection.settings_dict
    command = [tool(program)]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            command.append(f"{option}={settings[key]}")
    if program == "pg_dump":
        command.append(f"--dbname={settings['NAME']}")
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    result = subprocess.run([*command, *args], env=env, capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        raise SnapshotError(f"{program} failed: {result.stderr.strip()[-2000:]}")
