"""Read a `backup` file back into the database, all or nothing.

Every restored table gets a new epoch, so no worker's cache serves a state from
before the restore; a table that was in the database already (--replace) also gets
a revision above both its old one and the backup's, so every phone's ETag is stale
and its next poll gets the restored state. The stored vacas are replayed again
from the hand records (a backup does not carry them).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table, new_epoch


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
        data = self.check_file(path)
        with transaction.atomic():
            existing = Table.objects.count()
            if existing and not replace:
                raise CommandError(
                    f"the database already holds {existing} tables: restore into an empty "
                    "database, or add --replace to delete them first"
                )
            before = dict(Table.objects.values_list("id", "revision"))
            Table.objects.all().delete()  # hands, changes and answers go with them
            self.load(data)
            for table in Table.objects.all():
                table.epoch = new_epoch()
                if table.id in before:
                    table.revision = max(table.revision, before[table.id]) + 1
                table.save(update_fields=["epoch", "revision"])
                # The hand records are the truth: a table that no longer replays is refused whole.
                try:
                    services.rebuild_checkpoints(table)
                except ValueError as exc:
                    raise CommandError(f"table {table.id} in the backup is invalid: {exc}") from exc
        self.stdout.write(
            f"Restored {Table.objects.count()} tables, {Hand.objects.count()} hands and "
            f"{Change.objects.count()} changes from {path}"
        )

    def load(self, data: list[dict[str, Any]]) -> None:
        items = []
        for item in data:
            if item["model"] == "tables.vacacheckpoint":
                continue  # derived from the hands: replayed again after loading
            if item["model"] == "tables.idempotentwrite":
                body = item.get("fields", {}).get("body")
                if body is not None and not isinstance(body, str):
                    # A backup from before answers were kept as text.
                    item = {**item, "fields": {**item["fields"], "body": json.dumps(body)}}
            items.append(item)
        # loaddata reads files only, and knows the format by the file's extension.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "backup.json"
            copy.write_text(json.dumps(items), encoding="utf-8")
            call_command("loaddata", str(copy), verbosity=0)

    def check_file(self, path: Path) -> list[dict[str, Any]]:
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
        return data
