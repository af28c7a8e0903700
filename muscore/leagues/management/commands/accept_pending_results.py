"""Accept the pairs' results that waited 24 hours undisputed (run it from cron).

    python manage.py accept_pending_results

The pages already do it when they are read; this makes sure a result counts even if
nobody looks. Each claim is accepted as of 24 hours after it was entered, whenever this
runs, so running it late or twice changes nothing. Prints how many claims it settled.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from muscore.leagues import confirmations


class Command(BaseCommand):
    help = "Accept the pairs' results that waited 24 hours undisputed."

    def handle(self, *args: Any, **options: Any) -> None:
        count = confirmations.accept_due()
        self.stdout.write(f"{count} result(s) settled")
