"""Write the whole tables database (tables, hands, audit, idempotent answers) to a JSON file.

    python manage.py backup muscore-backup.json
    python manage.py restore muscore-backup.json

The file is Django's dumpdata format, so `loaddata` reads it too.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from muscore.tables.models import Change, Hand, Table


class Command(BaseCommand):
    help = "Back up every table, hand and audit entry to a JSON file (restore reads it back)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        target = Path(file).resolve()
        # Write beside the target and rename: a crash never leaves half a backup under its name.
        fd, temp = tempfile.mkstemp(prefix=".backup-", suffix=".json", dir=target.parent)
        os.close(fd)
        try:
            # The stored vacas are derived from the hands: restore replays them again.
            call_command(
                "dumpdata",
                "tables",
                exclude=["tables.VacaCheckpoint"],
                format="json",
                output=temp,
                verbosity=0,
            )
            os.replace(temp, target)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
        self.stdout.write(
            f"Backed up {Table.objects.count()} tables, {Hand.objects.count()} hands and "
            f"{Change.objects.count()} changes to {target}"
        )
