"""Delete the tables nobody has changed for a while (with their hands and audit).

    python manage.py prune_tables --idle-days 365 --dry-run   # what would go
    python manage.py prune_tables --idle-days 365             # delete them

A table is untouched since its last change (a hand added, corrected or undone, an
import): `Table.updated_at`. Without --idle-days nothing is deleted: tables are kept
forever unless the person running muscore chooses a time. Run it from cron; take a
`backup` first if the tables may be wanted again.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone

from muscore.tables.models import Table

BATCH = 200


def idle_tables(cutoff: datetime.datetime) -> Any:
    """The tables not changed since `cutoff`, oldest first."""
    return Table.objects.filter(updated_at__lt=cutoff).order_by("updated_at")


class Command(BaseCommand):
    help = "Delete tables untouched for --idle-days days (default: never); --dry-run lists them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--idle-days",
            type=int,
            default=None,
            help="delete tables not changed for this many days (default: never)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would be deleted, delete nothing"
        )

    def handle(self, *args: Any, idle_days: int | None, dry_run: bool, **options: Any) -> None:
        days = idle_days
        if days is None:
            self.stdout.write("No idle time set (--idle-days): tables are kept forever.")
            return
        if not isinstance(days, int) or days < 1:
            raise CommandError(f"--idle-days must be a whole number of days from 1, not {days!r}")
        cutoff = timezone.now() - datetime.timedelta(days=days)
        idle = idle_tables(cutoff)
        if dry_run:
            rows = list(idle.values_list("id", "updated_at"))
            for table_id, updated_at in rows:
                self.stdout.write(f"would delete {table_id} (last change {updated_at:%Y-%m-%d})")
            self.stdout.write(
                f"{len(rows)} tables untouched for {days} days; dry run: none deleted"
            )
            return
        deleted = kept = 0
        while True:
            ids = list(idle.exclude(pk__in=self.kept).values_list("id", flat=True)[:BATCH])
            if not ids:
                break
            for table_id in ids:
                try:
                    with transaction.atomic():
                        # Still idle at this moment: a table written to meanwhile stays.
                        if Table.objects.filter(pk=table_id, updated_at__lt=cutoff).delete()[0]:
                            deleted += 1
                except (ProtectedError, RestrictedError):
                    # Something else (a league match...) still points at it: keep it.
                    self.kept.add(table_id)
                    kept += 1
        message = f"Deleted {deleted} tables untouched for {days} days"
        if kept:
            message += f"; kept {kept} that other records still point at"
        self.stdout.write(message)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: set[str] = set()
