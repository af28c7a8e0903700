"""Benchmark: the club's leaders page (what the hands say) on a large club, time and SQL queries.

    .venv/bin/python benchmarks/bench_leaders.py [--source /tmp/muscore-bench-leagues.sqlite3]
                                                 [--db /tmp/muscore-bench-leaders.sqlite3]
                                                 [--fresh] [--runs 7]

Copies once (kept in --db; --fresh to copy again) the large club's database that
benchmarks/bench_leagues.py builds (`manage.py build_large_club`: 200 pairs, 39,800
matches, a tenth of them played on muscore tables, about 100,000 hands), migrates the
copy and counts its hands (`manage.py count_hand_stats`, timed: the backfill). In the
same database it makes the baseline, a small club of 4 pairs whose 6 matches are played
hand by hand on muscore tables (the counts stored as results arrive). Then, in this
process, it serves through Django's whole stack `/club/<slug>/lideres/` of both clubs:
cold (every cache cleared before each request) and warm, best and median of --runs,
and the SQL queries of one request. Target: under 300 ms, with the same query count
for the large club as for the small one. Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: A vaca to 3 juegos the first pair wins 3-1: órdagos won and lost, an envite accepted,
#: one refused (a deje), a juego won at the count.
PLAIN = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
         "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"},
                    "chica": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}}
ORDAGO_A = {"hands": {"0": "R R R 5", "1": "1 1 4 4", "2": "6 6 7 7", "3": "5 5 6 4"},
            "lances": {"grande": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}}
ORDAGO_B = {"hands": {"0": "1 1 4 4", "1": "R R R 5", "2": "6 6 7 7", "3": "5 5 6 4"},
            "lances": {"grande": {"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"}}}
VACA = [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]


def prepare(source: Path, db: Path, fresh: bool) -> None:
    if fresh or not db.exists():
        if not source.exists():
            sys.exit(f"no {source}: run benchmarks/bench_leagues.py first (it builds it)")
        print(f"copying {source} to {db}...", flush=True)
        shutil.copyfile(source, db)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
                       cwd=ROOT, env=env, check=True)


def small_club() -> Any:
    from django.contrib.auth import get_user_model

    from muscore.clubs import services as clubs
    from muscore.clubs.models import Club
    from muscore.leagues.competitions import create_competition, open_table
    from muscore.tables import services as tables

    found = Club.objects.filter(name="Bar de las manos").first()
    if found is not None:
        return found
    user, _ = get_user_model().objects.get_or_create(username="bench-hands")
    club = clubs.create_club("Bar de las manos", organiser=user)
    pairs = [clubs.save_pair(club, f"Pareja {i}", [f"M{i}a", f"M{i}b"]) for i in range(4)]
    competition = create_competition(club, by=user, name="Liga de las manos",
                                     pairs=pairs, legs=1, draw=[0, 1, 2, 3])
    for match in competition.matches.all():
        table = open_table(match, by=user)
        for record in VACA:
            tables.add_hand(table, record, via="edit_link")
    return club


def measure(client: Any, url: str, runs: int, cold: bool) -> tuple[float, float, int, int]:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    queries = status = 0
    for run in range(runs + 1):
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            elapsed = time.perf_counter() - started
        status = response.status_code
        if run == 0:
            queries = len(captured)
            if not cold:
                continue  # the first warm request warms the connection and templates
        times.append(elapsed * 1000)
    return min(times), statistics.median(times), queries, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default="/tmp/muscore-bench-leagues.sqlite3")
    parser.add_argument("--db", default="/tmp/muscore-bench-leaders.sqlite3")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    db = Path(args.db)
    prepare(Path(args.source), db, args.fresh)
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse

    from muscore.leagues import stats_store
    from muscore.leagues.models import Competition, PairHandStats, PlayerHandStats

    large_league = Competition.objects.filter(name="Liga grande").order_by("-pk").first()
    if large_league is None:
        sys.exit("no large club in the database: run benchmarks/bench_leagues.py --rebuild")
    large = large_league.club
    if not PairHandStats.objects.filter(club=large).exists():
        started = time.perf_counter()
        call_command("count_hand_stats", club=large.slug)
        print(f"backfill: count_hand_stats in {time.perf_counter() - started:.1f} s")
    else:
        started = time.perf_counter()
        with transaction.atomic():
            counted = stats_store.count_club(large)
            transaction.set_rollback(True)  # timed only: the stored counts stay as they were
        print(f"backfill (timed, rolled back): {counted:,} matches in "
              f"{time.perf_counter() - started:.1f} s")
    small = small_club()
    client = Client()
    print(f"large: {PairHandStats.objects.filter(club=large).count() // 2:,} matches counted, "
          f"{PlayerHandStats.objects.filter(club=large).count():,} player rows, "
          f"{large.players.count()} players; baseline: "
          f"{PairHandStats.objects.filter(club=small).count() // 2} matches; SQLite; "
          f"runs {args.runs}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':22}{'club':>8}{'cold best':>11}{'cold med':>10}{'warm best':>11}"
          f"{'warm med':>10}{'queries':>9}{'status':>8}")
    for name, club in (("small", small), ("large", large)):
        url = reverse("clubs:leaders", args=[club.slug])
        cold_best, cold_med, queries, status = measure(client, url, args.runs, True)
        warm_best, warm_med, _q, _s = measure(client, url, args.runs, False)
        print(f"{'leaders page':22}{name:>8}{cold_best:>9.1f}ms{cold_med:>8.1f}ms"
              f"{warm_best:>9.1f}ms{warm_med:>8.1f}ms{queries:>9}{status:>8}")
    print("target: under 300 ms with the same queries for the large club as for the small")


if __name__ == "__main__":
    main()
