"""Probe: how long each expensive request holds a worker, and the longest lock it holds.

    .venv/bin/python benchmarks/probe_requests.py --db /tmp/muscore-bench-leagues.sqlite3
    .venv/bin/python benchmarks/probe_requests.py --db ... --root /path/to/an/older/checkout

Needs the large club of `manage.py build_large_club` (benchmarks/bench_leagues.py builds
it): works on a copy of --db, so every run starts from the same data. --root runs another
checkout's code (an older commit: today's figures beside the new ones) on the same data.
Through Django's whole stack (the test client, the organiser logged in) it asks, for the
200-pair league: its export (cold: every cache cleared; then warm), a round's card and
the latest night's card (cold, warm), the organiser's correction of the club's earliest
rated match (its winner flipped: every later match re-rated), and an undo at the
earliest table-played match's table. Meanwhile a watcher thread takes the database's
write lock (SQLite: BEGIN IMMEDIATE) every 5 ms and records the longest it had to wait:
the longest lock any request held. Where the code has a rating worker, it then times the
catch-up, with the same watcher. Prints a table; asserts nothing. Target: every request
under 2 s, no lock over 200 ms.

Where the code makes the export and the night card outside the request (the document
worker, muscore.leagues.prepared), the reads before it has run and after it, and the
worker itself (no request), are timed too.

On PostgreSQL (--database-url postgres://..., a database where `build_large_club` ran:
benchmarks/probe_postgres.py makes a throwaway cluster for it) the watcher takes the
club's and the competition's rows FOR UPDATE instead (what a result's write takes), and
the run changes that database (no copy is made).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


class Watcher(threading.Thread):
    """Takes the write lock every 5 ms; `longest` is the longest wait for it (seconds).
    SQLite: the database's one write lock (BEGIN IMMEDIATE). PostgreSQL: the rows a
    result's write locks, the club's and the competition's (`rows`: (table, id) pairs)."""

    def __init__(self, rows: list[tuple[str, int]] | None = None) -> None:
        super().__init__(daemon=True)
        self.longest = 0.0
        self.rows = rows or []
        self.stop = threading.Event()

    def reset(self) -> None:
        self.longest = 0.0

    def run(self) -> None:
        from django.db import connection, transaction

        sqlite = connection.vendor == "sqlite"
        if sqlite:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA busy_timeout = 60000")
        while not self.stop.is_set():
            started = time.perf_counter()
            with transaction.atomic():  # SQLite: BEGIN IMMEDIATE, waits for any writer
                if not sqlite:
                    with connection.cursor() as cursor:
                        for table, pk in self.rows:
                            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE",
                                           [pk])
            self.longest = max(self.longest, time.perf_counter() - started)
            time.sleep(0.005)
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/muscore-bench-leagues.sqlite3"))
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose code runs")
    parser.add_argument("--only", default="", help="only the requests whose label has this")
    parser.add_argument("--database-url", default="",
                        help="probe this database (PostgreSQL) itself instead of a copy of --db")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="muscore-probe-")
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        copy = Path(folder) / "probe.sqlite3"
        shutil.copy(args.db, copy)
        os.environ["DATABASE_URL"] = f"sqlite:///{copy}"
    os.environ["MUSCORE_RATELIMIT"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    sys.path.insert(0, str(args.root.resolve()))
    os.chdir(args.root)
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from muscore.leagues import rating_store
    from muscore.leagues.models import Competition, Match, RatingMatch

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", "--no-input", verbosity=0)
    league = max(Competition.objects.all(), key=lambda c: c.matches.count())
    club = league.club
    organiser = club.memberships.first().user  # type: ignore[union-attr]
    client = Client()
    client.force_login(organiser)
    base = f"/club/{club.slug}/liga/{league.pk}"
    first = RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id").first()
    assert first is not None
    early = Match.objects.get(pk=first.match_id)
    played = Match.objects.filter(
        pk__in=RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id")
        .values("match_id")[:2000], source="table").select_related("table").first()
    from django.db import connection

    print(f"{connection.vendor}, load average {os.getloadavg()[0]:.1f}", flush=True)
    watcher = Watcher([(club._meta.db_table, club.pk), (league._meta.db_table, league.pk)])
    watcher.start()
    rows: list[tuple[str, float, float, int]] = []
    try:
        from muscore.leagues import prepared
    except ImportError:  # older code: everything is made in the request
        prepared = None  # type: ignore[assignment]

    def worker(label: str, run: Any) -> None:
        if args.only not in label:
            return
        watcher.reset()
        started = time.perf_counter()
        run()
        took = time.perf_counter() - started
        print(f"{label:44} {took * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms",
              flush=True)

    def probe(label: str, method: str, url: str, data: dict[str, Any] | None = None,
              cold: bool = True) -> None:
        if args.only not in label:
            return
        if cold:
            cache.clear()
        time.sleep(0.05)
        watcher.reset()
        started = time.perf_counter()
        response = client.post(url, data or {}) if method == "POST" else client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        took = time.perf_counter() - started
        time.sleep(0.05)
        rows.append((label, took, watcher.longest, response.status_code))
        print(f"{label:44} {took * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms  "
              f"{response.status_code}", flush=True)

    export = f"/api/v1/leagues/{league.pk}/export"
    night = f"{base}/noche/ultima/tarjeta.png"
    if prepared is not None:
        probe("export, never made yet", "GET", export)
        probe("night card png (ultima), never made yet", "GET", night)
        worker("document worker: export and cards", prepared.catch_up)
        probe("export, made by the worker (streamed)", "GET", export)
    else:
        probe("export, cold", "GET", export)
        probe("export, warm", "GET", export, cold=False)
        # The benchmark's tables are bulk-made without their stored vacas: the first read
        # of each replays and stores them (as a table loaded by hand). Cold again, as
        # after a new result in a club whose tables were played on muscore:
        probe("export, cold again (vacas stored)", "GET", export)
    probe("round card png, cold", "GET", f"{base}/jornada/1/tarjeta.png")
    probe("round card png, warm", "GET", f"{base}/jornada/1/tarjeta.png", cold=False)
    probe("night card png (ultima), cold", "GET", night)
    probe("night card png (ultima), warm", "GET", night, cold=False)
    flipped = {"juegos_first": early.juegos_second, "juegos_second": early.juegos_first,
               "tantos_first": early.tantos_second or "", "tantos_second":
               early.tantos_first or "", "reason": "probe_requests"}
    probe(f"correction of the earliest match ({early.pk})", "POST",
          f"{base}/partida/{early.number}/resultado", flipped)
    if played is not None and played.table is not None:
        probe(f"undo at an early match's table ({played.pk})", "POST",
              f"/t/{played.table.id}/k/{played.table.edit_key}/deshacer")
    if prepared is not None:
        probe("export after the correction (the previous)", "GET", export)
        probe("night card after the correction (previous)", "GET", night)
    catch_up = getattr(rating_store, "catch_up", None)
    if catch_up is not None:
        worker("rating worker catching up (no request)", catch_up)
    if prepared is not None:
        worker("document worker after the correction", prepared.catch_up)
        probe("export after the document worker", "GET", export)
        probe("night card after the document worker", "GET", night)
    watcher.stop.set()
    watcher.join()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
