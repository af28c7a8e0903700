"""Benchmark: what a write and a cold read cost on a short, a long and a full table.

    .venv/bin/python benchmarks/bench_writes.py                  # SQLite, in a temporary file
    .venv/bin/python benchmarks/bench_writes.py --postgres       # also a throwaway PostgreSQL
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_writes.py   # that database

Imports three tables of 10, 500 and MAX_HANDS (2,000) random valid hands (one less: the
add being timed fills them; random deals of
a real deck, bets in a third of the lances, vacas ending where the replay ends them),
then times, turn by turn across the three tables so that a busy machine slows them
alike, each request through Django's full stack (middleware, view, services, database):
  - add: POST a hand through the API; undo: DELETE the last hand (the table is back);
  - correct the last vaca: PUT a hand of the current vaca (and PUT it back);
  - correct hand 1: PUT hand 1 (and back): every vaca after it may move, so this one is
    allowed to grow with the table;
  - cold read: the API state (GET /api/v1/tables/<id>: the finished vacas summed up, as
    the writes above answer too) and the board page with the state cache emptied first,
    as the first read on a fresh worker; and, not targeted, the whole history
    (GET ...?finished=full: every hand, 1.5 MB on the full table).
Prints the best time of each (ms) and its ratio to the 10-hand table's (the baseline,
timed in the same run). Target: every write but "correct hand 1", and the cold reads of
the API state and of the board, at most 2x on the full table.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

OPERATIONS = (
    "add", "undo", "correct last vaca", "correct hand 1", "cold read API", "cold board",
    "cold API full",
)
TARGETED = ("add", "undo", "correct last vaca", "cold read API", "cold board")


def valid_records(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` records a 4-player table with the default rules replays in this order."""
    from bench_rules import random_record

    from muscore import rules

    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    vaca: list[dict[str, Any]] = []
    mano = 0
    while len(records) < count:
        record = random_record(rng)
        if len(record["hands"]) != 4:
            continue
        for key in ("rules", "mano", "score"):
            record.pop(key)
        try:
            result = rules.replay({"rules": {}, "mano": mano, "hands": [*vaca, record]})
        except rules.RuleError:
            continue  # a record this table's rules refuse (reyes, target)
        records.append(record)
        vaca.append(record)
        if result["winner"] is not None:
            vaca, mano = [], result["next_mano"]
    return records


def best(samples: list[float]) -> float:
    return min(samples) * 1000


class Bench:
    def __init__(self, sizes: list[int], repeats: int, seed: int) -> None:
        from django.test import Client

        from muscore.tables import services

        self.services = services
        self.client = Client()
        self.repeats = repeats
        self.tables = {}
        for size in sizes:
            data = {"players": ["Ana", "Bruno", "Carla", "Diego"]}
            # One hand short: the add being timed fills the table, the undo empties it again.
            data["hands"] = valid_records(size - 1, seed + size)
            self.tables[size] = services.import_table(data, via="api")
        # A hand that any table takes as its next one: the seed deal, everything passed.
        self.extra = {
            "hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
        }

    def request(self, method: str, url: str, table: Any, body: Any = None) -> float:
        import json

        headers = {"X-Table-Key": table.edit_key}
        data = json.dumps(body) if body is not None else ""
        call = getattr(self.client, method)
        start = time.perf_counter()
        response = call(url, data, content_type="application/json", headers=headers)
        elapsed = time.perf_counter() - start
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {url}: {response.status_code} {response.content[:300]!r}")
        return elapsed

    def last_vaca_hand(self, table: Any) -> int:
        state = self.services.table_state(table)
        current = state["current"]
        if current["hands"]:
            return int(current["first_hand"])
        last = state["finished"][-1]
        return int(last["first_hand"])

    def correct(self, table: Any, number: int) -> float:
        """PUT hand `number` as another valid hand, then back; the slower of the two."""
        api = f"/api/v1/tables/{table.id}/hands/{number}"
        original = self.services.hand_entry(table, number)["record"]
        times = []
        for candidate in (self.extra, *self.services.export_table(table)["hands"][:5]):
            if candidate == original:
                continue
            try:
                times.append(self.request("put", api, table, candidate))
                break
            except RuntimeError:
                continue  # that hand would make a later one invalid: try another
        times.append(self.request("put", api, table, original))
        return max(times)

    def cold(self, url: str) -> float:
        from django.core.cache import cache

        cache.clear()
        start = time.perf_counter()
        response = self.client.get(url)
        elapsed = time.perf_counter() - start
        assert response.status_code == 200, (url, response.status_code)
        return elapsed

    def run(self) -> dict[int, dict[str, float]]:
        samples: dict[int, dict[str, list[float]]] = {
            size: {op: [] for op in OPERATIONS} for size in self.tables
        }
        for _ in range(self.repeats):
            for size, table in self.tables.items():
                base = f"/api/v1/tables/{table.id}"
                s = samples[size]
                s["add"].append(self.request("post", f"{base}/hands", table, self.extra))
                s["undo"].append(self.request("delete", f"{base}/hands/last", table))
                s["correct last vaca"].append(self.correct(table, self.last_vaca_hand(table)))
                s["correct hand 1"].append(self.correct(table, 1))
                s["cold read API"].append(self.cold(base))
                s["cold board"].append(self.cold(f"/t/{table.id}/"))
                s["cold API full"].append(self.cold(f"{base}?finished=full"))
        return {size: {op: best(v) for op, v in ops.items()} for size, ops in samples.items()}


def report(label: str, results: dict[int, dict[str, float]]) -> bool:
    sizes = sorted(results)
    base, top = sizes[0], sizes[-1]
    print(f"\n{label}: best time per request (ms), and x the {base}-hand table")
    columns = "".join(f"{f'{n} hands':>12}" for n in sizes)
    print(f"{'':20}{columns}{'x at ' + str(top):>10}")
    met = True
    for op in OPERATIONS:
        row = f"{op:20}" + "".join(f"{results[n][op]:12.1f}" for n in sizes)
        ratio = results[top][op] / results[base][op]
        flag = ""
        if op in TARGETED:
            flag = "" if ratio <= 2 else "  over 2x"
            met = met and ratio <= 2
        print(f"{row}{ratio:10.2f}{flag}")
    print(f"target: writes but 'correct hand 1', and the cold reads, <= 2x: "
          f"{'met' if met else 'NOT met'}")
    return met


def run_on(database_url: str, label: str, args: argparse.Namespace) -> None:
    """Migrate a fresh database and run the benchmark on it, in a child process
    (Django is set up once per process)."""
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "muscore.settings"}
    command = [sys.executable, __file__, "--child", label, "--repeats", str(args.repeats),
               "--sizes", ",".join(map(str, args.sizes))]
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env,
                   check=True, cwd=ROOT)
    subprocess.run(command, env=env, check=True, cwd=ROOT)


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster on a loopback port, deleted at exit (as .ci/run starts one)."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not bins:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    pg = bins[-1]
    folder = Path(tempfile.mkdtemp(prefix="muscore-bench-pg."))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = folder / "data"
    run: Callable[..., Any] = lambda *cmd: subprocess.run(  # noqa: E731
        [*as_user, *map(str, cmd)], check=True, cwd=folder, stdout=subprocess.DEVNULL
    )
    try:
        run(pg / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8")
        run(pg / "pg_ctl", "-D", data, "-l", folder / "log", "-w", "start", "-o",
            f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off -c synchronous_commit=off")
        run(pg / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "muscore")
        yield f"postgres://postgres@127.0.0.1:{port}/muscore"
    finally:
        subprocess.run([*as_user, str(pg / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=None)
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import django

        django.setup()
        from muscore.tables import services

        bench = Bench(args.sizes, args.repeats, seed=1)
        report(args.child, bench.run())
        print(f"(MAX_HANDS = {services.MAX_HANDS}; {args.repeats} turns)")
        return
    if args.sizes is None:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
        django.setup()
        from muscore.tables.services import MAX_HANDS

        args.sizes = [10, 500, MAX_HANDS]
    print(f"Python {sys.version.split()[0]}; tables of {', '.join(map(str, args.sizes))} hands")
    if os.environ.get("DATABASE_URL"):
        run_on(os.environ["DATABASE_URL"], "DATABASE_URL", args)
        return
    with tempfile.TemporaryDirectory() as folder:
        run_on(f"sqlite:///{folder}/bench.sqlite3", "SQLite", args)
    if args.postgres:
        with throwaway_postgres() as url:
            run_on(url, "PostgreSQL", args)


if __name__ == "__main__":
    main()
