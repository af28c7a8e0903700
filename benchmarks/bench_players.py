"""Benchmark: the players' pages on the large club, time and SQL queries, and what keeping
the ratings costs a write.

    .venv/bin/python benchmarks/bench_players.py [--db /tmp/muscore-bench-players.sqlite3]
                                                 [--source /tmp/muscore-bench-leagues.sqlite3]
                                                 [--fresh] [--runs 7]

The large club is the one bench_leagues.py builds (`manage.py build_large_club`: 200
pairs, a double liguilla of 39,800 matches). Rather than building it again, the first run
(or --fresh) copies bench_leagues' database once it is complete (its size no longer
changes), migrates the copy and rates its players (`manage.py rate_players`, timed). The
baseline is bench_leagues' small club (4 pairs, 12 matches) in the same database.

It serves, through Django's whole stack on SQLite, for the large club's most-played
player and for a player of the small club: the player's page and the club's ranking of
niveles; cold (every cache cleared first) and warm, best and median of --runs, and the
SQL queries of one cold request. Target: under 300 ms, with the same query count for the
large club as for the small one. Then, each in a transaction rolled back: a new result
at the end of the large club's history (re-rates one match: every result's cost) and the
correction of its first match (re-rates all of them: the worst case), and a correction
of its juegos only (the same winner: re-rates nothing).
Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_leagues import measure, small_league  # noqa: E402


def prepare(db: Path, source: Path) -> None:
    """Copy bench_leagues' database when it is complete, migrate it, rate its players."""
    if not source.exists():
        sys.exit(f"{source} does not exist: run benchmarks/bench_leagues.py first")
    size = -1
    while size != source.stat().st_size:  # still being written: wait until it settles
        size = source.stat().st_size
        time.sleep(5)
    shutil.copyfile(source, db)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT,
                   env=env, check=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "manage.py", "rate_players"], cwd=ROOT, env=env, check=True)
    print(f"rate_players: {time.perf_counter() - started:.1f} s", flush=True)


def timed_write(label: str, write: Any) -> None:
    """Time `write()` in a transaction, then roll it back (the database stays as it was)."""
    from django.db import transaction

    started = time.perf_counter()
    with transaction.atomic():
        rated = write()
        elapsed = time.perf_counter() - started
        transaction.set_rollback(True)
    print(f"{label:44}{elapsed * 1000:>10.1f}ms  ({rated:,} matches re-rated)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="/tmp/muscore-bench-players.sqlite3")
    parser.add_argument("--source", default="/tmp/muscore-bench-leagues.sqlite3")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    db = Path(args.db)
    if args.fresh or not db.exists():
        prepare(db, Path(args.source))
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.test import Client
    from django.urls import reverse

    from muscore.leagues import rating_store
    from muscore.leagues import results as leagues
    from muscore.leagues.models import Competition, Match, PlayerRating, RatingMatch, from_q

    large = Competition.objects.exclude(name="Liga pequeña").order_by("-pk").first()
    if large is None:
        sys.exit("no large club in the database: run bench_leagues.py --rebuild, then --fresh")
    small = small_league()
    client = Client()
    clubs = []
    for competition in (small, large):
        club = competition.club
        best = PlayerRating.objects.filter(club=club).order_by("-matches", "pk").first()
        if best is None:
            sys.exit(f"{club.slug} has no ratings: run with --fresh")
        matches = Match.objects.filter(competition__club=club).played().count()
        clubs.append((club, best, matches))
    print(f"large club: {clubs[1][2]:,} matches with a result, "
          f"{PlayerRating.objects.filter(club=clubs[1][0]).count()} players rated, the page's "
          f"player rated for {clubs[1][1].matches} matches; baseline: {clubs[0][2]} matches; "
          f"SQLite; runs {args.runs}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'':24}{'matches':>9}{'cold best':>11}{'cold med':>10}{'warm best':>11}"
          f"{'warm med':>10}{'queries':>9}{'status':>8}")
    for label, name, args_of in (
            ("player page", "clubs:player", lambda c, p: [c.slug, p.player_id]),
            ("ranking page", "clubs:ranking", lambda c, p: [c.slug])):
        for club, player, matches in clubs:
            url = reverse(name, args=args_of(club, player))
            cold_best, cold_med, queries, status = measure(client, url, args.runs, True)
            warm_best, warm_med, _q, _s = measure(client, url, args.runs, False)
            print(f"{label:24}{matches:>9,}{cold_best:>9.1f}ms{cold_med:>8.1f}ms"
                  f"{warm_best:>9.1f}ms{warm_med:>8.1f}ms{queries:>9}{status:>8}")
    print("target: under 300 ms with the same queries for the large club as for the small")

    club = clubs[1][0]
    organiser = club.memberships.first().user  # type: ignore[union-attr]
    last = RatingMatch.objects.filter(club=club).order_by("-arrived_at", "-match_id").first()
    first = RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id").first()
    assert last is not None and first is not None

    def flip(match: Any) -> list[int]:
        return [2, 3] if match.outcome.winner == 0 else [3, 2]

    def new_result() -> int:
        match = Match.objects.get(pk=last.match_id)
        leagues.record_result(match, by=organiser, juegos=flip(match))
        return 1

    def correct_first() -> int:
        match = Match.objects.get(pk=first.match_id)
        leagues.record_result(match, by=organiser, juegos=flip(match))
        return RatingMatch.objects.filter(club=club, match__result__isnull=False).exclude(
            from_q("no_show", "match__")).count()

    def same_winner_first() -> int:
        match = Match.objects.get(pk=first.match_id)
        juegos = [3, 0] if match.outcome.winner == 0 else [0, 3]
        if list(match.outcome.juegos) == juegos:
            juegos = [3, 1] if match.outcome.winner == 0 else [1, 3]
        leagues.record_result(match, by=organiser, juegos=juegos)
        return 0

    print()
    timed_write("record_result on the last match (a new one)", new_result)
    timed_write("the first match's juegos, same winner", same_winner_first)
    timed_write("record_result correcting the first match", correct_first)
    started = time.perf_counter()
    rated = rating_store.rate_club(club)
    print(f"{'rate_players for the large club':44}"
          f"{(time.perf_counter() - started) * 1000:>10.1f}ms  ({rated:,} matches rated)")


if __name__ == "__main__":
    main()
