"""Benchmark: a large championship's pages, API and writes, time and SQL queries (issue 18).

    .venv/bin/python benchmarks/bench_championship.py [--db /tmp/muscore-bench-championship.sqlite3]
                                                      [--rebuild] [--runs 3]
    .venv/bin/python benchmarks/bench_championship.py --postgres   # a throwaway PostgreSQL

Builds once (kept in --db; --rebuild to make it again; with --postgres every run builds in a
throwaway cluster on a loopback port, deleted after, as .ci/run starts one) the
championship of `manage.py build_large_championship` (2,539 pairs, 250 venues, 7 regions,
every heat played, the 7 province phases drawn). Then times, each in a transaction rolled
back: closing the entries (the quotas of 250 venues) and drawing one phase of all 448
qualified pairs (112 groups of 4). Then serves through Django's whole stack, cold (every
cache cleared first): the championship page (its first page of venues, and one region's),
a venue's page, the largest province phase's page and hall screen, a pair's and a player's
path, and the API document; best and median of --runs and the SQL queries of one cold
request, then the same page read again before any change (kept by the championship's
stamp: muscore.championships.kept) with its queries. Targets: pages under 300 ms with a
query count that does not grow with venues or pairs; closing and the 448-pair draw under
2 s. Prints tables; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def build(database_url: str, db: Path | None = None) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    if db is not None and db.exists():
        db.unlink()
    for args in (["migrate", "--no-input", "-v0"], ["build_large_championship"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def migrate(database_url: str) -> None:
    """The schema brought up to this checkout's (a database built by an older one)."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT,
                   env={**os.environ, "DATABASE_URL": database_url}, check=True)


def measure(client: Any, url: str, runs: int) -> tuple[float, float, int, int, float, int]:
    """Cold (every cache cleared first): best and median of ``runs``, the queries of one;
    the status; then kept (the page as read again before any change, from the body the
    cold read kept): its time and queries."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, queries, status = [], 0, 0
    for run in range(runs):
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        status = response.status_code
        if run == 0:
            queries = len(captured)
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        client.get(url)
        kept = (time.perf_counter() - started) * 1000
    return min(times), statistics.median(times), queries, status, kept, len(captured)


class Rollback(Exception):
    pass


def timed_writes(championship: Any, runs: int) -> None:
    """Closing the entries and drawing one phase of every qualified pair, each timed in a
    transaction that is then rolled back (the database is left as built)."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from muscore.championships import services
    from muscore.championships.models import Championship

    user = championship.club.memberships.select_related("user").first().user
    print(f"{'':36}{'best':>9}{'median':>9}{'queries':>9}")
    for label in ("closing the entries (250 venues)", "draw of 448 pairs (112 groups)"):
        times, queries, groups = [], 0, 0
        for _run in range(runs):
            try:
                with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                    fresh = Championship.objects.get(pk=championship.pk)
                    if label.startswith("closing"):
                        Championship.objects.filter(pk=fresh.pk).update(entries_closed_at=None)
                        fresh.refresh_from_db()
                        started = time.perf_counter()
                        services.close_entries(fresh, by=user)
                    else:
                        phase = services.add_phase(fresh, by=user, name="Todas", advance=2)
                        started = time.perf_counter()
                        services.draw_phase(phase, by=user, seed="bench")
                        groups = phase.groups.count()
                    times.append(time.perf_counter() - started)
                    queries = len(captured)
                    raise Rollback
            except Rollback:
                pass
        extra = f"  ({groups} groups)" if groups else ""
        print(f"{label:36}{min(times):>8.3f}s{statistics.median(times):>8.3f}s"
              f"{queries:>9}{extra}")
    print("target: under 2 s each")


def serve(runs: int, label: str) -> None:
    from django.test import Client

    from muscore.championships.models import Championship

    championship = Championship.objects.order_by("-pk").first()
    if championship is None:
        sys.exit("no championship in the database: run with --rebuild")
    sede = championship.sedes.order_by("-quota").first()
    phase = max(championship.phases.exclude(draw=None), key=lambda p: p.groups.count())
    enrolment = championship.enrolments.exclude(phase_pair=None).first()
    region = championship.regions.order_by("id").first()
    assert sede is not None and enrolment is not None and region is not None
    pk = championship.pk
    print(f"{championship.enrolments.count():,} pairs, {championship.sedes.count()} venues, "
          f"{championship.phases.count()} phases; {label}; runs {runs}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    timed_writes(championship, runs)
    client = Client()
    print(f"{'':36}{'cold best':>11}{'cold med':>10}{'queries':>9}{'status':>8}"
          f"{'kept':>10}{'queries':>9}")
    for name, url in (
            ("championship page", f"/campeonatos/{pk}/"),
            ("championship page, a region", f"/campeonatos/{pk}/?region={region.pk}"),
            ("championship page, page 5", f"/campeonatos/{pk}/?pagina=5"),
            ("venue page", f"/campeonatos/{pk}/sedes/{sede.pk}/"),
            (f"phase page ({phase.groups.count()} groups)",
             f"/campeonatos/{pk}/fases/{phase.pk}/"),
            ("phase hall screen", f"/campeonatos/{pk}/fases/{phase.pk}/tv/"),
            ("pair's path", f"/campeonatos/{pk}/parejas/{enrolment.pk}/"),
            ("player's path", f"/campeonatos/{pk}/jugador/?nombre={enrolment.player_a}"),
            ("API document", f"/api/v1/championships/{pk}")):
        best, median, queries, status, kept, kept_queries = measure(client, url, runs)
        print(f"{name:36}{best:>9.1f}ms{median:>8.1f}ms{queries:>9}{status:>8}"
              f"{kept:>8.1f}ms{kept_queries:>9}")
    print("target: under 300 ms, queries not growing with venues or pairs; kept: read again "
          "before any change (the championship's pages, hall and API are kept by its stamp)")


def setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="/tmp/muscore-bench-championship.sqlite3")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", action="store_true",
                        help="build and measure in a throwaway PostgreSQL instead")
    args = parser.parse_args()
    if args.postgres:
        from bench_writes import throwaway_postgres

        with throwaway_postgres() as url:
            print("building the large championship in a throwaway PostgreSQL...", flush=True)
            build(url)
            migrate(url)
            setup(url)
            serve(args.runs, "PostgreSQL")
        return
    db = Path(args.db)
    if args.rebuild or not db.exists():
        print(f"building the large championship in {db} (several minutes)...", flush=True)
        build(f"sqlite:///{db}", db)
    else:
        migrate(f"sqlite:///{db}")
    setup(f"sqlite:///{db}")
    serve(args.runs, "SQLite")


if __name__ == "__main__":
    main()
