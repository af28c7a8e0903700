"""Benchmark: how long the background worker holds SQLite's write lock, and how long
another writer (a table's save) waits behind it (issue 40 point 7).

    .venv/bin/python benchmarks/bench_worker_locks.py [--db /tmp/muscore-bench-leagues.sqlite3]
        [--baseline main] [--load 8] [--import-pairs 60] [--format groups --groups 4]
        [--only ratings] [--nice -10]

Needs the large club of `manage.py build_large_club` (built into --db when it is missing,
about a minute). On a copy of it, once, with this checkout's code: a second club's
liguilla of --import-pairs pairs (every result, a tenth played on tables with their
hands; with `--format groups`, its pairs drawn again in --groups groups with their
knockout, every match played, a tenth and every other knockout game on tables) is
exported and imported into the large club as a rated competition (the request's
part: the worker writes it), and the organiser corrects the large club's earliest rated
match (its winner flipped: its 39,000 later matches wait for the rating worker). Then, for
the --baseline commit's code (`git archive` into a temporary folder) and for this
checkout's, each on its own copy of that database, in turn: `manage.py rating_worker
--once --only imports` (the import written, its ratings queued), then `--only ratings`
(the whole catch-up). Meanwhile a watcher process takes the write lock (BEGIN IMMEDIATE, as
every write of the site does) every 5 ms and records how long it waited; first it does so
for 15 s with no worker (the "no worker" line: what the machine's load alone costs it).

Prints, for each side and each run: the worker's time, how many transactions it committed,
the longest one (from its BEGIN IMMEDIATE's return to its COMMIT's: the lock it held)
and how many held past 200 ms; the watcher's longest wait, its 99th percentile and how
many waits passed 200 ms; the load average before and after. Then the transactions the
worker itself logged past 200 ms, by name, and each side's transactions by the name the
worker gives them (`pacing.short_transaction`): how many, the longest, how many past
200 ms, as the worker timed them. "checkpoints": where the worker copies
SQLite's WAL into the database itself (muscore.leagues.pacing.own_checkpoints: in its
pauses, no write lock held), how many it ran and the longest; "in COMMIT" where SQLite's
automatic checkpoint runs in the COMMIT that fills the WAL past 1,000 pages, after the
lock is released but inside the transaction's timing. Last, for the transactions past
200 ms of each name: their hold, the CPU the worker's thread used inside and the time in
their SQL statements (median and largest), and their statements: a hold far above its
CPU is the worker kept off the cores while it held the lock. `--nice N` runs this
checkout's worker at niceness N (below 0 as root: a systemd unit's `Nice=`). `--load N`
runs N processes spinning on the CPU meanwhile (the issue's load 8-10 on a quiet
machine), stopped at the end. Target: no worker transaction past 200 ms, no wait past 200 ms.

Beside the watcher, a request every 50 ms (REQUEST_CPU, 10 ms of a core's Python, then a
write): its time whole, median, 95th percentile and longest ("request p50/p95/max"), what
the worker costs a request, its lock and its CPU both. This checkout's worker runs its
transactions at MUSCORE_WORKER_LOCK_NICE (default -10, as root here; "off" in the
environment for this code without it); "transactions at the lock's niceness" counts them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 0.2

PREPARE = r"""
import json, os, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
import django
django.setup()
from django.core.management import call_command
from muscore.leagues import documents, imports, results
from muscore.leagues.models import Competition, Match, RatingMatch, RatingBacklog

def groups_cup(liguilla, groups):
    # The liguilla's pairs drawn again in `groups` groups with their knockout, every match
    # played: a tenth (and every other knockout game) on a table with its hands, each won
    # by ordagos, the others entered on paper.
    from muscore.leagues import competitions
    from muscore.tables import services as tables
    cards = {"0": "R R R 5", "1": "1 1 4 4", "2": "6 6 7 7", "3": "5 5 6 4"}
    by = liguilla.club.memberships.first().user
    pairs = [e.pair for e in liguilla.entries.select_related("pair").order_by("index")]
    cup = competitions.create_competition(
        liguilla.club, by=by, name="Copa", pairs=pairs, format="groups", groups=groups,
        draw=list(range(len(pairs))))
    juegos, n = cup.rules.get("juegos", 3), 0
    while True:
        match = (Match.objects.filter(competition=cup, first__isnull=False,
                                      second__isnull=False).unplayed()
                 .select_related("competition__club").order_by("number").first())
        if match is None:
            return cup
        n += 1
        side = "A" if n % 3 else "B"
        if n % 10 == 0 or (match.tie_id is not None and n % 2):
            table = competitions.open_table(match, by=by)
            mine, theirs = ("0", "1") if side == "A" else ("1", "0")
            record = {"hands": {**cards, mine: cards["0"], theirs: cards["1"]},
                      "lances": {"grande": {"bets": [{"side": side, "n": "ordago"}],
                                            "end": "quiero"}}}
            for _ in range(juegos):
                tables.add_hand(table, record, via="edit_link")
        else:
            results.record_result(match, by=by,
                                  juegos=[juegos, 0] if side == "A" else [0, juegos])

large = max(Competition.objects.all(), key=lambda c: c.matches.count())
club = large.club
organiser = club.memberships.first().user
call_command("build_large_club", pairs=int(sys.argv[1]), legs=1, stdout=open(os.devnull, "w"))
small = Competition.objects.exclude(club=club).order_by("-pk").first()
if sys.argv[2] == "groups":
    small = groups_cup(small, int(sys.argv[3]))
document = documents.league_document(small, hands=True)
for n, pair in enumerate(document["pairs"], 1):
    pair["name"] = f"Importada {n}"
imported = imports.import_competition(club, document, by=organiser, name="Importada",
                                      rated=True)
places = RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id")
early = next(m for m in (Match.objects.select_related("competition").get(pk=p.match_id)
                         for p in places[:100]) if m.outcome.source == "manual")
juegos = early.outcome.juegos
results.record_result(early, by=organiser, juegos=[juegos[1], juegos[0]],
                      reason="bench_worker_locks")
print(json.dumps({"import": imports.of(imported.pk) is not None,
                  "matches": len(document["matches"]),
                  "backlog": RatingBacklog.objects.filter(club=club).exists()}))
"""

# The worker with every outermost transaction of its main thread timed from the return of
# its BEGIN (SQLite: IMMEDIATE, the write lock taken) to the return of its COMMIT.
WORKER = r"""
import json, os, sys, threading, time
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
import django
django.setup()
from django.core.management import call_command
from django.db import connection, transaction

main, held, began = threading.main_thread(), [], []
enter, leave = transaction.Atomic.__enter__, transaction.Atomic.__exit__
# Inside each transaction: the CPU the worker's thread used and the time in its SQL
# statements (the rest of the hold: the thread off the cores, waiting for one).
inside, last = {"sql": 0.0, "statements": 0}, {}

def timed_sql(execute, sql, params, many, context):
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        inside["sql"] += time.perf_counter() - started
        inside["statements"] += 1

def timed_enter(self):
    outermost = not connection.in_atomic_block
    enter(self)
    if outermost and threading.current_thread() is main:
        began.append((time.perf_counter(), time.thread_time()))
        inside["sql"], inside["statements"] = 0.0, 0

def timed_exit(self, *exc):
    result = leave(self, *exc)
    if not connection.in_atomic_block and began and threading.current_thread() is main:
        wall, cpu = began.pop()
        held.append(time.perf_counter() - wall)
        last.update(cpu=time.thread_time() - cpu, sql=inside["sql"],
                    statements=inside["statements"])
    return result

connection.execute_wrappers.append(timed_sql)

transaction.Atomic.__enter__ = timed_enter
transaction.Atomic.__exit__ = timed_exit
# Each transaction the worker names (pacing.short_transaction), as it timed it itself:
# how many, the longest, how many past 200 ms.
from muscore.leagues import pacing
named, pause = {}, pacing.pause

slow = {}  # name: [(held, cpu, sql, statements)] of those past 200 ms

def named_pause(seconds, what=""):
    row = named.setdefault(what or "unnamed", [0, 0.0, 0])
    row[0], row[1], row[2] = row[0] + 1, max(row[1], seconds), row[2] + (seconds > 0.2)
    if seconds > 0.2 and last:
        slow.setdefault(what or "unnamed", []).append(
            (seconds, last["cpu"], last["sql"], last["statements"]))
    pause(seconds, what)

pacing.pause = named_pause
started = time.perf_counter()
call_command("rating_worker", once=True, only=sys.argv[1])
own = getattr(pacing, "checkpoints", None)  # None: in COMMIT, counted in "held"
# The transactions run at the lock's niceness (MUSCORE_WORKER_LOCK_NICE); None: a code
# without it, or turned off.
raised = getattr(getattr(pacing, "priority", None), "raised", None)
print(json.dumps({"seconds": time.perf_counter() - started, "held": held, "named": named,
                  "slow": slow, "raised": raised,
                  "checkpoints": None if own is None else [own.count, own.pages,
                                                           own.longest]}))
"""


def watch(path: str, stop: Any, ready: Any, out: Any) -> None:
    """Another writer: BEGIN IMMEDIATE every 5 ms (a busy timeout as the site's), each
    wait recorded."""
    db = sqlite3.connect(path, timeout=20, isolation_level=None)
    waits: list[float] = []
    ready.set()
    while not stop.is_set():
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("COMMIT")
        waits.append(time.perf_counter() - started)
        time.sleep(0.005)
    db.close()
    out.put(waits)


# A request, as the benchmark stands one: REQUEST_CPU of Python's work (a page's own, as
# the server's p50 of 9-21 ms a poll) and then a write (BEGIN IMMEDIATE), every 50 ms,
# timed whole: what a worker's lock costs it, and what the worker's CPU does.
REQUEST_CPU = 0.010
REQUEST_EVERY = 0.05


def work(rounds: int) -> int:
    total = 0
    for number in range(rounds):
        total += number * number % 7
    return total


def request_rounds() -> int:
    """How many rounds of `work` take REQUEST_CPU of a core (CPU time: the machine's load
    does not change it)."""
    rounds, took = 10_000, 0.0
    while took < 0.05:
        rounds *= 2
        started = time.thread_time()
        work(rounds)
        took = time.thread_time() - started
    return max(1, int(rounds * REQUEST_CPU / took))


def requests(path: str, rounds: int, stop: Any, ready: Any, out: Any) -> None:
    """The requests while the worker runs: each one's time, its work and its write."""
    db = sqlite3.connect(path, timeout=20, isolation_level=None)
    times: list[float] = []
    ready.set()
    while not stop.is_set():
        started = time.perf_counter()
        work(rounds)
        db.execute("BEGIN IMMEDIATE")
        db.execute("COMMIT")
        times.append(time.perf_counter() - started)
        time.sleep(max(0.0, REQUEST_EVERY - (time.perf_counter() - started)))
    db.close()
    out.put(times)


def spin() -> None:
    while True:
        pass


def run_worker(root: Path | None, db: Path, only: str, nice: int = 0, rounds: int = 0
               ) -> tuple[dict[str, Any], list[float], list[float], str]:
    """The worker on `db` with `root`'s code, the watcher and the requests beside it: its
    figures, the watcher's waits, the requests' times and the worker's log. `root` None:
    no worker, the watcher alone for 15 s (what the machine's load alone costs a writer)."""
    context = multiprocessing.get_context("spawn")
    stop, ready, out = context.Event(), context.Event(), context.Queue()
    asked, times = context.Event(), context.Queue()
    watcher = context.Process(target=watch, args=(str(db), stop, ready, out), daemon=True)
    requester = context.Process(target=requests, args=(str(db), rounds, stop, asked, times),
                                daemon=True)
    watcher.start()
    requester.start()
    ready.wait(30)
    asked.wait(30)

    def ended() -> list[float]:
        stop.set()
        served: list[float] = times.get(timeout=60)
        requester.join(30)
        return served

    if root is None:
        time.sleep(15)
        served = ended()
        alone: list[float] = out.get(timeout=60)
        watcher.join(30)
        return {"seconds": 15.0, "held": []}, alone, served, ""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "MUSCORE_RATELIMIT": "false",
           "DJANGO_SETTINGS_MODULE": "muscore.settings"}
    done = subprocess.run([sys.executable, "-c", WORKER, only], cwd=root, env=env,
                          capture_output=True, text=True, check=False,
                          preexec_fn=(lambda: os.nice(nice)) if nice else None)
    served = ended()
    waits: list[float] = out.get(timeout=60)
    watcher.join(30)
    if done.returncode:
        raise SystemExit(f"the worker failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1]), waits, served, done.stderr


def percentile(values: list[float], share: float) -> float:
    """Of sorted `values` (0 when none)."""
    return values[min(len(values) - 1, int(len(values) * share))] if values else 0.0


def logged(log: str) -> Counter[str]:
    """The worker's own lines about transactions past the lock's limit, by name."""
    return Counter(match.group(1) for match in re.finditer(
        r"a worker's transaction \((.*?)\) took", log))


def inside(seen: list[list[float]]) -> str:
    """What the transactions past 200 ms did with their time: the median and the largest
    of their hold, their thread's CPU and their SQL statements' time, and their median
    count of statements. A hold far above its CPU: the worker waited for a core."""
    def median(column: int) -> float:
        values = sorted(row[column] for row in seen)
        return values[len(values) // 2]

    def ms(column: int) -> str:
        return f"{median(column) * 1000:.0f} ({max(r[column] for r in seen) * 1000:.0f})"

    return (f"{len(seen)}, held {ms(0)} ms, CPU {ms(1)} ms, SQL {ms(2)} ms, "
            f"{median(3):.0f} statements (median, largest)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/muscore-bench-leagues.sqlite3"))
    parser.add_argument("--baseline", default="main", help="the commit whose code is the "
                        "baseline ('' for none)")
    parser.add_argument("--load", type=int, default=0,
                        help="processes spinning on the CPU meanwhile")
    parser.add_argument("--import-pairs", type=int, default=60)
    parser.add_argument("--format", choices=["liguilla", "groups"], default="liguilla",
                        help="the imported competition: the liguilla, or its pairs in "
                        "--groups groups with their knockout")
    parser.add_argument("--groups", type=int, choices=[2, 4], default=4)
    parser.add_argument("--only", default="", help="only the runs named so, by commas "
                        "('no worker', imports, ratings)")
    parser.add_argument("--nice", type=int, default=0, help="this checkout's worker at this "
                        "niceness (below 0 needs root; a systemd unit's Nice=); with "
                        "--baseline HEAD, the same code at both")
    args = parser.parse_args()
    # Stopped (SIGTERM): the spinners and the copies go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "muscore.settings"}
    if not args.db.exists():
        env["DATABASE_URL"] = f"sqlite:///{args.db}"
        for command in (["migrate", "--no-input", "-v0"], ["build_large_club"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True)
    folder = Path(tempfile.mkdtemp(prefix="muscore-worker-locks-"))
    spinners: list[Any] = []
    try:
        master = folder / "master.sqlite3"
        shutil.copy(args.db, master)
        env["DATABASE_URL"] = f"sqlite:///{master}"
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
                       cwd=ROOT, env=env, check=True)
        prepared = subprocess.run([sys.executable, "-c", PREPARE, str(args.import_pairs),
                                   args.format, str(args.groups)],
                                  cwd=ROOT, env=env, capture_output=True, text=True,
                                  check=False)
        if prepared.returncode:
            raise SystemExit(f"preparing failed:\n{prepared.stderr[-3000:]}")
        print("prepared:", prepared.stdout.strip().splitlines()[-1], flush=True)
        # This checkout's code as it is now (copied: an edit meanwhile does not change it).
        here = folder / "checkout"
        here.mkdir()
        shutil.copytree(ROOT / "muscore", here / "muscore",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "manage.py", here / "manage.py")
        sides = [(f"this checkout{f', nice {args.nice}' if args.nice else ''}", here)]
        if args.baseline:
            base = folder / "baseline"
            base.mkdir()
            archive = subprocess.run(["git", "archive", args.baseline, "manage.py", "muscore"],
                                     cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            sides.insert(0, (f"baseline {args.baseline}", base))
        for copy_of, (_label, _root) in enumerate(sides):
            shutil.copy(master, folder / f"side{copy_of}.sqlite3")
        context = multiprocessing.get_context("spawn")
        for _ in range(args.load):
            spinner = context.Process(target=spin, daemon=True)
            spinner.start()
            spinners.append(spinner)
        rounds = request_rounds()  # before the spinners: CPU time, but a quieter core
        if spinners:
            time.sleep(20)  # the load average climbs
        print(f"{'':16} {'run':9} {'worker':>8} {'txns':>6} {'longest':>8} {'>200':>5}"
              f"  {'writer waited':>13} {'p99':>6} {'>200':>5}  {'checkpoints':>17}"
              f"  {'request p50/p95/max':>21}   load", flush=True)
        logs: dict[str, Counter[str]] = {}
        # Each side's transactions by name: how many, the longest, how many past 200 ms.
        kinds: dict[str, dict[str, list[Any]]] = {}
        # Those past 200 ms by name: (held, CPU, SQL, statements) each.
        slows: dict[str, dict[str, list[list[float]]]] = {}
        for run in ("no worker", "imports", "ratings"):
            if args.only and run not in args.only.split(","):
                continue
            for index, (label, root) in enumerate(sides):
                if run == "no worker" and index:
                    continue
                load = os.getloadavg()[0]
                figures, waits, served, log = run_worker(
                    None if run == "no worker" else root, folder / f"side{index}.sqlite3", run,
                    args.nice if root == here else 0, rounds)
                served.sort()
                request = (f"{percentile(served, 0.5) * 1000:.0f}/"
                           f"{percentile(served, 0.95) * 1000:.0f}/"
                           f"{max(served, default=0) * 1000:.0f}ms")
                held = sorted(figures["held"])
                waits.sort()
                over = sum(h > LIMIT for h in held)
                p99 = waits[int(len(waits) * 0.99)] if waits else 0.0
                shown = "" if run == "no worker" else label[:16]
                own = figures.get("checkpoints")
                # The worker's own checkpoints (count, longest), outside its transactions;
                # "in COMMIT": SQLite's automatic ones, inside "longest".
                checkpoints = ("" if run == "no worker" else "in COMMIT" if own is None
                               else f"{own[0]}, {own[2] * 1000:.0f}ms")
                print(f"{shown:16} {run:9} {figures['seconds']:7.1f}s {len(held):6}"
                      f" {max(held, default=0) * 1000:6.0f}ms {over:5}"
                      f"  {max(waits, default=0) * 1000:11.0f}ms {p99 * 1000:4.0f}ms"
                      f" {sum(w > LIMIT for w in waits):5}  {checkpoints:>17}"
                      f"  {request:>21}   {load:.1f}-{os.getloadavg()[0]:.1f}", flush=True)
                if figures.get("raised") is not None:
                    print(f"{'':16} {run:9} transactions at the lock's niceness: "
                          f"{figures['raised']}", flush=True)
                logs[f"{label}, {run}"] = logged(log)
                kinds[f"{label}, {run}"] = figures.get("named", {})
                slows[f"{label}, {run}"] = figures.get("slow", {})
        for key, names in logs.items():
            if names:
                print(f"logged past 200 ms, {key}: " + ", ".join(
                    f"{name} x{count}" for name, count in names.most_common()))
        for key, rows in kinds.items():
            for name, (count, longest, over) in sorted(rows.items()):
                print(f"{key:34} {name:34} {count:6} {longest * 1000:6.0f}ms {over:5}")
        for key, rows in slows.items():
            for name, seen in sorted(rows.items()):
                print(f"past 200 ms, {key}, {name}: {inside(seen)}")
    finally:
        for spinner in spinners:
            spinner.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
