"""Recompute the players' stored ratings from the clubs' histories (a backfill).

    python manage.py rate_players [--club SLUG]

Every club (or one) is rated afresh from its first match, in the club's rating order
(muscore.leagues.rating_store): what the results would have given had the ratings been
kept from the start. Results arriving afterwards keep them in step by themselves; run it
after loading data in bulk, or to check nothing drifted (it prints what it rated).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from muscore.leagues import rating_store
from muscore.leagues.management.commands._clubs import add_club_argument, clubs


class Command(BaseCommand):
    help = "Recompute the players' ratings from every club's results (or one club's)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_argument(parser)

    def handle(self, *args: Any, club: str | None = None, **options: Any) -> None:
        for one in clubs(club):
            started = time.perf_counter()
            rated = rating_store.rate_club(one)
            self.stdout.write(f"{one.slug}: {rated} matches rated in "
                              f"{time.perf_counter() - started:.1f} s")
