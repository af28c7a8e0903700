"""Benchmark: a large championship's pages and API, time and SQL queries (issue 18).

    .venv/bin/python benchmarks/bench_championship.py [--db /tmp/muscore-bench-championship.sqlite3]
                                                      [--rebuild] [--runs 3]

Builds once (kept in --db; --rebuild to make it again) the championship of
`manage.py build_large_championship` (2,539 pairs, 250 venues, 7 regions, every heat played,
the 7 province phases drawn; the build prints how long closing the entries and each draw
took). Then serves through Django's whole stack, cold (every cache cleared first): the
championship page, a venue's page, a province phase's hall screen, a pair's path and the API
document; best and median of --runs and the SQL queries of one cold request. Target: under
300 ms with a query count that does not grow with venues or pairs. Prints a table; asserts
nothing.
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


def build(db: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    if db.exists():
        db.unlink()
    for args in (["migrate", "--no-input", "-v0"], ["build_large_championship"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def measure(client: Any, url: str, runs: int) -> tuple[float, float, int, int]:
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
    return min(times), statistics.median(times), queries, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="/tmp/muscore-bench-championship.sqlite3")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    db = Path(args.db)
    if args.rebuild or not db.exists():
        print(f"building the large championship in {db} (several minutes)...", flush=True)
        build(db)
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.test import Client

    from muscore.championships.models import Championship

    championship = Championship.objects.order_by("-pk").first()
    if championship is None:
        sys.exit("no championship in the database: run with --rebuild")
    sede = championship.sedes.order_by("-quota").first()
    phase = championship.phases.exclude(draw=None).order_by("id").first()
    enrolment = championship.enrolments.exclude(phase_pair=None).first()
    assert sede is not None and phase is not None and enrolment is not None
    pk = championship.pk
    print(f"{championship.enrolments.count():,} pairs, {championship.sedes.count()} venues, "
          f"{championship.phases.count()} phases; SQLite; runs {args.runs}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    client = Client()
    print(f"{'':28}{'cold best':>11}{'cold med':>10}{'queries':>9}{'status':>8}")
    for label, url in (
            ("championship page", f"/campeonatos/{pk}/"),
            ("venue page", f"/campeonatos/{pk}/sedes/{sede.pk}/"),
            ("phase hall screen", f"/campeonatos/{pk}/fases/{phase.pk}/tv/"),
            ("pair's path", f"/campeonatos/{pk}/parejas/{enrolment.pk}/"),
            ("API document", f"/api/v1/championships/{pk}")):
        best, median, queries, status = measure(client, url, args.runs)
        print(f"{label:28}{best:>9.1f}ms{median:>8.1f}ms{queries:>9}{status:>8}")
    print("target: under 300 ms, queries not growing with venues or pairs")


if __name__ == "__main__":
    main()
