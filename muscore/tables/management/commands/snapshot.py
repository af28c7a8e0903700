"""The database saved whole before an upgrade, and put back whole to roll it back
(muscore.snapshots; scripts/upgrade and scripts/rollback run these).

    python manage.py snapshot save backups/ --label before-upgrade   # prints the file's path
    python manage.py snapshot restore backups/before-upgrade-....sqlite3

A restore replaces everything the database holds (tables, rows, the migrations applied):
stop the web servers, the stream servers and the workers first.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from muscore import snapshots


class Command(BaseCommand):
    help = ("Save the database whole (SQLite's file, PostgreSQL's pg_dump) into a folder, or "
            "put it back whole from such a file (an upgrade's rollback).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["save", "restore"],
                            help="save: a new file in FOLDER; restore: the database as FILE "
                                 "holds it")
        parser.add_argument("path", help="the folder to save into, or the file to restore")
        parser.add_argument("--label", default="snapshot",
                            help="the saved file's name starts with it (default: snapshot)")

    def handle(self, *args: Any, action: str, path: str, label: str, **options: Any) -> None:
        try:
            if action == "save":
                stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
                target = Path(path) / f"{label}-{stamp}{snapshots.suffix()}"
                saved = snapshots.save(target)
                self.stdout.write(str(saved.resolve()))
            else:
                snapshots.restore(Path(path))
                self.stdout.write(f"the database is back as {path} held it")
        except snapshots.SnapshotError as error:
            raise CommandError(str(error)) from None
