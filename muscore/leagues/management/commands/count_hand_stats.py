"""Count what the hands say again, from the tables' hands (a backfill).

    python manage.py count_hand_stats [--club SLUG]

Every club's (or one club's) matches played on muscore tables are counted afresh from
their tables' first vacas (muscore.leagues.stats_store): what the results would have
stored had the counts been kept from the start. Results arriving afterwards keep them in
step by themselves; run it after loading data in bulk (build_large_club calls it).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from muscore.leagues import stats_store
from muscore.leagues.management.commands._clubs import add_club_argument, clubs


class Command(BaseCommand):
    help = "Count the hands of every club's table matches again (or one club's)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_argument(parser)

    def handle(self, *args: Any, club: str | None = None, **options: Any) -> None:
        for one in clubs(club):
            started = time.perf_counter()
            with transaction.atomic():
                counted = stats_store.count_club(one)
            self.stdout.write(f"{one.slug}: {counted} matches' hands counted in "
                              f"{time.perf_counter() - started:.1f} s")
