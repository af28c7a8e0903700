"""Bring the clubs' ratings up to date after corrections, and the competitions' exports and
night cards after every change, outside the web requests.

    python manage.py rating_worker            # runs until stopped (the production layout)
    python manage.py rating_worker --once     # what waits now, then exits (cron, tests)

A correction of a large club's early match leaves its re-rating to this worker
(muscore.leagues.rating_store: the backlog is a row of the database, so nothing is lost
when the worker stops; it carries on where the backlog says when it starts again).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections

from muscore.leagues import imports, prepared, rating_store, workers

logger = logging.getLogger("muscore.ratings")


class Command(BaseCommand):
    help = "Re-rate the clubs whose ratings wait after a correction (run beside the web server)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true",
                            help="catch up with what waits now, then exit")
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between looks at the backlog (default 1)")
        parser.add_argument("--only", choices=["ratings", "documents", "imports"],
                            default=None,
                            help="only the ratings, or only the exports, cards and large "
                                 "imports, or only the large imports")
        parser.add_argument("--worker-id", default=None,
                            help="this worker's name in /healthz and /metrics, unique among "
                                 "the workers (default: host-pid)")

    def handle(self, *args: Any, once: bool, interval: float, only: str | None,
               worker_id: str | None, **options: Any) -> None:
        # Its heartbeat for /healthz: alive while this runs, gone when it stops.
        heart = workers.Heart(worker_id or f"{socket.gethostname()}-{os.getpid()}"[:64],
                              only or "all", beating=not once)
        heart.start()
        try:
            self._work(once, interval, only)
        finally:
            heart.stop()

    def _work(self, once: bool, interval: float, only: str | None) -> None:
        while True:
            try:
                started = time.monotonic()
                if only != "documents":
                    runs = rating_store.catch_up()
                    if runs:
                        logger.info("ratings brought up to date: %d re-ratings in %.1f s",
                                    runs, time.monotonic() - started)
                if only != "ratings":
                    started = time.monotonic()
                    # Once: every waiting import to its end; else a while each round.
                    written = imports.catch_up(None if once else imports.RUN_SECONDS)
                    if written:
                        logger.info("large imports: %d matches written in %.1f s",
                                    written, time.monotonic() - started)
                if only in (None, "documents"):
                    started = time.monotonic()
                    made = prepared.catch_up()
                    if made:
                        logger.info("exports and cards made for %d competitions in %.1f s",
                                    made, time.monotonic() - started)
            except DatabaseError:
                # A database that went away or a lock that timed out: the backlog is still
                # there, so the next look tries again.
                logger.exception("the ratings could not be brought up to date; trying again")
                if once:
                    raise
            if once:
                return
            time.sleep(interval)
            # A connection the database dropped meanwhile is opened again, not reused.
            close_old_connections()
