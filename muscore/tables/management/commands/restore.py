"""Read a `backup` file back into the database, all or nothing."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table


class Command(BaseCommand):
    help = "Restore the tables from a file written by `backup`."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a file written by `manage.py backup`")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete every table in the database first (otherwise it must hold none)",
        )

    def handle(self, *args: Any, file: str, replace: bool, **options: Any) -> None:
        path = Path(file)
        self.check_file(path)
        with transaction.atomic():
            existing = Table.objects.count()
            if existing and not replace:
                raise CommandError(
                    f"the database already holds {existing} tables: restore into an empty "
                    "database, or add --replace to delete them first"
                )
            Table.objects.all().delete()  # hands, changes and answers go with them
            self.load(path)
            # The hand records are the truth: a table that no longer replays is refused whole.
            for table in Table.objects.all():
                try:
                    services.replay_stored(table)
                except ValueError as exc:
                    raise CommandError(f"table {table.id} in the backup is invalid: {exc}") from exc
        # A cached state is keyed by (table, revision); a restored table may differ at the same one.
        cache.clear()
        self.stdout.write(
            f"Restored {Table.objects.count()} tables, {Hand.objects.count()} hands and "
            f"{Change.objects.count()} changes from {path}"
        )

    def load(self, path: Path) -> None:
        if path.suffix == ".json":
            call_command("loaddata", str(path), verbosity=0)
            return
        # loaddata knows the format by the file's extension only.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "backup.json"
            shutil.copyfile(path, copy)
            call_command("loaddata", str(copy), verbosity=0)

    def check_file(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        except ValueError as exc:
            raise CommandError(f"{path} is not a JSON backup: {exc}") from exc
        if not isinstance(data, list) or not all(
            isinstance(item, dict) and str(item.get("model", "")).startswith("tables.")
            for item in data
        ):
            raise CommandError(f"{path} is not a muscore backup (a list of tables.* objects)")
