"""Benchmark: a large club's league pages and API document, time and SQL queries.

    .venv/bin/python benchmarks/bench_leagues.py [--db /tmp/muscore-bench-leagues.sqlite3]
                                                 [--rebuild] [--runs 7]

Builds once (kept in --db; --rebuild to make it again) the large club of
`manage.py build_large_club`: 200 pairs in a double liguilla, 39,800 matches, a
tenth played on muscore tables with their hands (about 100,000 hands). In the
same database it makes the baseline, a small liguilla of 4 pairs (12 matches).
Then, in this process, it serves through Django's whole stack (every middleware,
the real SQLite database) each URL of both leagues:
  - the API's league document GET /api/v1/leagues/<id> (muscore.api.leagues);
  - the league's standings page and a pair's page (the club's league pages), when
    the app has them;
  - the API again with its ETag (304).
For each: the server time, cold (every cache cleared before each request: what
the first visitor after a new result waits) and warm (what every later visitor
waits), best and median of --runs, and the SQL queries of one cold request.
Target: under 300 ms, with the same query count for 39,800 matches as for 12.
Prints a table; asserts nothing.
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
    for args in (["migrate", "--no-input", "-v0"], ["build_large_club"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def small_league() -> Any:
    from django.contrib.auth import get_user_model

    from muscore.clubs import services as clubs
    from muscore.leagues.competitions import create_competition
    from muscore.leagues.models import Competition
    from muscore.leagues.results import record_result

    found = Competition.objects.filter(name="Liga pequeña").first()
    if found is not None:
        return found
    user, _ = get_user_model().objects.get_or_create(username="bench-small")
    club = clubs.create_club("Bar pequeño", organiser=user)
    pairs = [clubs.save_pair(club, f"Pareja {i}", [f"P{i}a", f"P{i}b"]) for i in range(4)]
    competition = create_competition(club, by=user, name="Liga pequeña", pairs=pairs,
                                     legs=2, draw=[0, 1, 2, 3])
    for i, match in enumerate(competition.matches.all()):
        record_result(match, by=user, juegos=[3, i % 3], tantos=[120, 40 * (i % 3)])
    competition.refresh_from_db()
    return competition


def measure(client: Any, url: str, runs: int, cold: bool,
            headers: dict[str, str] | None = None) -> tuple[float, float, int, int]:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    queries = 0
    status = 0
    for run in range(runs + 1):
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, headers=headers or {})
            elapsed = time.perf_counter() - started
        status = response.status_code
        if run == 0:
            queries = len(captured)
            if not cold:
                continue  # the first warm request fills the cache
        times.append(elapsed * 1000)
    return min(times), statistics.median(times), queries, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="/tmp/muscore-bench-leagues.sqlite3")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    db = Path(args.db)
    if args.rebuild or not db.exists():
        print(f"building the large club in {db} (a few minutes)...", flush=True)
        started = time.perf_counter()
        build(db)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
    else:  # built by an older checkout: its schema brought up to this one's
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT,
                       env={**os.environ, "DATABASE_URL": f"sqlite:///{db}"}, check=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from muscore.leagues.models import Competition
    from muscore.tables.models import Hand

    large = Competition.objects.exclude(name="Liga pequeña").order_by("-pk").first()
    if large is None:
        sys.exit("no large club in the database: run with --rebuild")
    small = small_league()
    client = Client()
    hands = Hand.objects.filter(table__league_match__competition=large).count()
    print(f"large: {large.matches.count():,} matches, {hands:,} hands, "
          f"{large.entries.count()} pairs; baseline: {small.matches.count()} matches, "
          f"{small.entries.count()} pairs; SQLite; runs {args.runs}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    def urls(c: Any) -> list[tuple[str, str, dict[str, str] | None]]:
        out: list[tuple[str, str, dict[str, str] | None]] = [
            ("API league document", f"/api/v1/leagues/{c.pk}", None)]
        slug = c.club.slug
        for label, name, extra in (("standings page", "clubs:competition", []),
                                   ("pair page", "clubs:entry", [0])):
            try:
                out.append((label, reverse(name, args=[slug, c.pk, *extra]), None))
            except NoReverseMatch:
                print(f"({label}: not in this app yet, skipped)")
        etag = client.get(f"/api/v1/leagues/{c.pk}")["ETag"]
        out.append(("API document, 304", f"/api/v1/leagues/{c.pk}", {"If-None-Match": etag}))
        return out

    print(f"{'':24}{'league':>9}{'cold best':>11}{'cold med':>10}{'warm best':>11}"
          f"{'warm med':>10}{'queries':>9}{'status':>8}")
    for (label, small_url, small_headers), (_l, large_url, large_headers) in zip(
            urls(small), urls(large), strict=True):
        for name, url, headers in (("12", small_url, small_headers),
                                   ("39,800", large_url, large_headers)):
            cold_best, cold_med, queries, status = measure(client, url, args.runs, True, headers)
            warm_best, warm_med, _q, _s = measure(client, url, args.runs, False, headers)
            print(f"{label:24}{name:>9}{cold_best:>9.1f}ms{cold_med:>8.1f}ms{warm_best:>9.1f}ms"
                  f"{warm_med:>8.1f}ms{queries:>9}{status:>8}")
    print("target: under 300 ms with the same queries for 39,800 matches as for 12")


if __name__ == "__main__":
    main()
