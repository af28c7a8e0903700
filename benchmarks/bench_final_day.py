"""The final's day on several app servers (issue 18): two gunicorns, one PostgreSQL, one Redis.

    .venv/bin/python benchmarks/bench_final_day.py                       # 112 tables, 60 s
    .venv/bin/python benchmarks/bench_final_day.py --tables 20 --seconds 20   # while developing

The README's several-servers layout on this machine, loopback only, bounded: a throwaway
PostgreSQL cluster and Redis (benchmarks/throwaway.py, as .ci/run starts them; or
--database-url/--redis-url), two gunicorn servers with the production settings
(tests/multiserver/servers.py starts them: `-c python:muscore.gunicorn_conf`, DEBUG off,
CONN_MAX_AGE=60, CACHE_URL on the Redis, behind a "proxy": each table's phones speak from
an address of their own through X-Forwarded-For) and the worker (`manage.py rating_worker`:
ratings, exports, cards) beside them. The championship is `manage.py build_large_championship`
at the size given (--pairs, --venues; 448 seats: seven province finals of 112 groups of
four on one day). On it:

- `--tables` live tables (112: one per group, its first match opened as a muscore table),
  each with `--phones` phones (4) polling the board every 1.5 s as the board does (the
  edit board's `?live=1` with `If-None-Match`: 304 while nothing changed);
- each table saving a hand (`POST /api/v1/tables/<id>/hands`) every `--hand-seconds`
  (30 s, with jitter: about four times a real table's pace, for enough saves in a minute),
  so vacas end and their results reach the league (standings, documents queued);
- each phase's hall TV (`/campeonatos/<id>/fases/<id>/tv/`, which reloads every 30 s) and
  `--visitors` (30) people reloading the public championship page every 15 s.

The phones open their boards at random moments of the first `--opening` seconds (20: the
players sit down; each phone's first poll is the whole board, a 200), reported apart from
the `--seconds` of play after it, whose figures are the target's. Requests go to the two
servers in turn, as a proxy without sticky sessions sends them.
Reports requests per second, p50/p95/p99/max of each kind, and every error (a status not
expected, a refused or dropped connection, a timeout of 30 s). Target: no error, p95 save
under 250 ms. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from throwaway import postgres, redis  # noqa: E402

# Hands of the league tests (tests/leagues/helpers.py): valid at any table of four.
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN  # noqa: E402
from tests.multiserver.servers import Server, Uvicorn, base_env, manage, running  # noqa: E402

TIMEOUT = 30.0


def records() -> Iterator[dict[str, Any]]:
    """Hands as tables play them: plain ones, and órdagos accepted (each ends a juego, so
    vacas end and their results reach the league within the run)."""
    kinds: list[dict[str, Any]] = [PLAIN, PLAIN, ORDAGO_A, ORDAGO_B]
    rng = random.Random(18)
    while True:
        yield rng.choice(kinds)


class Stats:
    """Latencies (seconds) and errors by kind of request."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: dict[str, list[str]] = defaultdict(list)

    def add(self, kind: str, took: float, status: int, expected: tuple[int, ...],
            detail: str = "") -> None:
        self.times[kind].append(took)
        self.statuses[kind][status] += 1
        if status not in expected:
            self.errors[kind].append(f"{status} {detail}"[:200])


async def http(port: int, method: str, path: str, headers: dict[str, str],
               body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on a new connection (gunicorn's sync workers close each)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _sep, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer = {}
    for line in header_lines:
        name, _colon, value = line.partition(":")
        answer[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), answer, content


class Run:
    """The load: requests started before `counted_from` (the opening, while the phones
    open their boards) go to `opening`, the others to `stats`."""

    def __init__(self, ports: list[int], until: float, stats: Stats, opening: Stats,
                 counted_from: float, spread: float) -> None:
        self.ports = ports
        self.until = until
        self.stats = stats
        self.opening = opening
        self.counted_from = counted_from
        self.spread = spread
        self.turn = 0
        self.streams: list[int] = []
        self.events = 0

    def port(self) -> int:
        self.turn += 1
        return self.ports[self.turn % len(self.ports)]

    async def call(self, kind: str, method: str, path: str, headers: dict[str, str],
                   expected: tuple[int, ...], body: bytes = b"") -> dict[str, str]:
        started = time.perf_counter()
        stats = self.stats if time.monotonic() >= self.counted_from else self.opening
        try:
            status, answer, content = await asyncio.wait_for(
                http(self.port(), method, path, headers, body), TIMEOUT)
        except (TimeoutError, OSError, ValueError, IndexError) as error:
            stats.add(kind, time.perf_counter() - started, 0, expected,
                      f"{type(error).__name__}: {error}")
            return {}
        stats.add(kind, time.perf_counter() - started, status, expected,
                  content[:150].decode(errors="replace"))
        return answer

    async def every(self, seconds: float, jitter: float, step: Any) -> None:
        # Each starts at a random moment of the opening (the players sit down over it).
        await asyncio.sleep(random.uniform(0, max(seconds, self.spread)))
        while time.monotonic() < self.until:
            started = time.monotonic()
            await step()
            pause = seconds * random.uniform(1 - jitter, 1 + jitter) - (
                time.monotonic() - started)
            await asyncio.sleep(max(0.0, min(pause, self.until - time.monotonic())))

    async def phone(self, board: str, address: str) -> None:
        if self.streams:
            await self.listen(board, address)
            return
        etag = ""

        async def poll() -> None:
            nonlocal etag
            headers = {"HX-Request": "true", "X-Forwarded-For": address}
            if etag:
                headers["If-None-Match"] = etag
            answer = await self.call("board poll", "GET", board + "?live=1", headers,
                                     (200, 304))
            etag = answer.get("etag", etag)

        await self.every(1.5, 0.0, poll)

    async def listen(self, board: str, address: str) -> None:
        """--push: the phone holds its board's stream instead of polling (a stream server
        chosen by the board, as the docs' nginx hashes /events/), until the end."""
        from sse_client import stream

        await asyncio.sleep(random.uniform(0, self.spread))
        port = self.streams[zlib.crc32(board.encode()) % len(self.streams)]
        phone: dict[str, Any] = {}
        stop = asyncio.Event()
        path = f"/events/?u={quote(board + '?live=1')}&lang=es"
        started = time.perf_counter()
        stats = self.stats if time.monotonic() >= self.counted_from else self.opening
        task = asyncio.create_task(stream(port, path, address, phone, stop))
        while not phone.get("open") and not phone.get("error") and not task.done():
            await asyncio.sleep(0.05)
        stats.add("board stream", time.perf_counter() - started, 200 if phone.get("open") else 0,
                  (200,), str(phone.get("error", "")))
        await asyncio.sleep(max(0.0, self.until - time.monotonic()))
        stop.set()
        task.cancel()
        if phone.get("error") and phone.get("open"):
            self.stats.add("board stream", 0, 0, (200,), str(phone["error"]))
        self.events += phone.get("events", 0)

    async def table(self, table_id: str, key: str, address: str, seconds: float,
                    hands: Iterator[dict[str, Any]]) -> None:
        async def save() -> None:
            record = {**next(hands), "client_id": str(uuid.uuid4())}
            await self.call("hand save", "POST", f"/api/v1/tables/{table_id}/hands",
                            {"X-Table-Key": key, "X-Forwarded-For": address}, (201,),
                            json.dumps(record).encode())

        await self.every(seconds, 0.5, save)

    async def page(self, kind: str, path: str, seconds: float, address: str) -> None:
        async def read() -> None:
            await self.call(kind, "GET", path, {"X-Forwarded-For": address}, (200,))

        await self.every(seconds, 0.2, read)


def build(env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """The championship, and the live tables of its province finals (opened by their
    organiser, as the bar's laptop does), through Django in this process."""
    started = time.perf_counter()
    manage(env, "migrate", "--no-input", "-v0")
    result = subprocess.run(
        [sys.executable, "manage.py", "build_large_championship", "--pairs", str(args.pairs),
         "--venues", str(args.venues), "--seats", "448"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    championship_id = int(result.stdout.strip().split()[-1])
    os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SECRET_KEY")})
    os.environ["DJANGO_SETTINGS_MODULE"] = "muscore.settings"
    import django

    django.setup()
    from muscore.championships.models import Phase, PhaseGroup
    from muscore.leagues import competitions
    from muscore.leagues.models import Match

    phases = list(Phase.objects.filter(championship_id=championship_id, level=1)
                  .values_list("pk", flat=True))
    tables = []
    for group in (PhaseGroup.objects.filter(phase__championship_id=championship_id)
                  .select_related("competition__club").order_by("pk")[:args.tables]):
        match = Match.objects.filter(competition=group.competition).exclude(first=None).exclude(
            second=None).order_by("number").first()
        assert match is not None
        user = group.competition.club.memberships.first().user  # type: ignore[union-attr]
        table = competitions.open_table(match, by=user)
        tables.append((table.id, table.edit_key))
    from django.db import connections

    connections.close_all()
    print(f"built championship {championship_id}: {len(phases)} province finals, "
          f"{len(tables)} live tables, in {time.perf_counter() - started:.0f} s", flush=True)
    return {"championship": championship_id, "phases": phases, "tables": tables}


@contextmanager
def services(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    with ExitStack() as stack:
        database = args.database_url or stack.enter_context(postgres(max_connections=200))
        cache = args.redis_url or stack.enter_context(redis())
        yield database, cache


def report(stats: Stats, seconds: float, load: tuple[float, float]) -> None:
    total = sum(len(v) for v in stats.times.values())
    errors = sum(len(v) for v in stats.errors.values())
    print(f"\n{total:,} requests in {seconds:.0f} s: {total / seconds:,.0f} requests/s; "
          f"{errors} errors; load average {load[0]:.1f} before, {load[1]:.1f} after "
          f"(2 cores)")
    print(f"{'request':22} {'count':>7} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}  statuses")
    for kind in sorted(stats.times):
        values = sorted(stats.times[kind])
        cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(stats.statuses[kind].items()))
        print(f"{kind:28} {len(values):7,} {cuts[49] * 1000:6.0f}ms {cuts[94] * 1000:6.0f}ms "
              f"{cuts[98] * 1000:6.0f}ms {values[-1] * 1000:6.0f}ms  {statuses}")
    for kind, found in stats.errors.items():
        print(f"errors of {kind}: {len(found)}; first: {found[:3]}")


KINDS = (("/hands", "hand save"), ("?live=1", "board poll"), ("/tv/", "hall TV"),
         ("/campeonatos/", "championship page"))


def served(servers: list[Server], kind_of: Callable[[str], str] | None = None) -> None:
    """The servers' own time per kind of request (the access log's milliseconds): what is
    left of the client's figures is waiting for a free worker and the client itself."""
    times: dict[str, list[float]] = defaultdict(list)
    for server in servers:
        for line in server.stdout().splitlines():
            parts = line.split('"')
            if len(parts) < 7 or not parts[-1].strip().split("ms")[0].strip().isdigit():
                continue
            path = parts[1]
            kind = (kind_of(path) if kind_of is not None
                    else next((k for marker, k in KINDS if marker in path), "other"))
            times[kind].append(int(parts[-1].strip().split("ms")[0]) / 1000)
    print("\nserver time (gunicorn's access log)")
    for kind in sorted(times):
        values = sorted(times[kind])
        cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
        print(f"{kind:28} {len(values):7,} {cuts[49] * 1000:6.0f}ms {cuts[94] * 1000:6.0f}ms "
              f"{cuts[98] * 1000:6.0f}ms {values[-1] * 1000:6.0f}ms")


async def load(args: argparse.Namespace, ports: list[int],
               built: dict[str, Any], streams: list[int]) -> tuple[Stats, Stats]:
    stats, opening = Stats(), Stats()
    now = time.monotonic()
    run = Run(ports, now + args.opening + args.seconds, stats, opening,
              counted_from=now + args.opening, spread=args.opening)
    run.streams = streams
    hands = records()
    jobs = []
    for n, (table_id, key) in enumerate(built["tables"]):
        address = f"10.{n // 250}.{n % 250}.1"
        board = f"/t/{table_id}/k/{key}/"
        jobs += [run.phone(board, address) for _phone in range(args.phones)]
        jobs.append(run.table(table_id, key, address, args.hand_seconds, hands))
    championship = built["championship"]
    for n, phase in enumerate(built["phases"]):
        jobs.append(run.page("hall TV", f"/campeonatos/{championship}/fases/{phase}/tv/", 30,
                             f"10.200.0.{n + 1}"))
    for n in range(args.visitors):
        jobs.append(run.page("championship page", f"/campeonatos/{championship}/", 15,
                             f"10.201.{n // 250}.{n % 250}"))
    await asyncio.gather(*jobs)
    if streams:
        print(f"\nthe phones' streams brought {run.events:,} board changes", flush=True)
    return stats, opening


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="seconds measured")
    parser.add_argument("--opening", type=float, default=20,
                        help="seconds before them, over which the phones open their boards "
                             "(each one's first poll is a whole board); reported apart")
    parser.add_argument("--tables", type=int, default=112)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--hand-seconds", type=float, default=30,
                        help="seconds between two hands saved at a table (a real one: ~120)")
    parser.add_argument("--visitors", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--pairs", type=int, default=1200,
                        help="the championship's pairs (build_large_championship; 2539 real)")
    parser.add_argument("--venues", type=int, default=120)
    parser.add_argument("--database-url", default="", help="an empty PostgreSQL database")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--push", action="store_true",
                        help="the phones hold their board's stream (two uvicorn servers, "
                             "muscore.asgi) instead of polling it")
    args = parser.parse_args()
    with services(args) as (database, cache), tempfile.TemporaryDirectory() as logs:
        env = base_env(DATABASE_URL=database, CACHE_URL=cache, CONN_MAX_AGE="60",
                       MUSCORE_BEHIND_PROXY="true")
        built = build(env, args)
        servers = [Server(env, Path(logs), workers=args.workers) for _ in range(2)]
        streams = [Uvicorn(env, Path(logs)) for _ in range(2 if args.push else 0)]
        worker = subprocess.Popen([sys.executable, "manage.py", "rating_worker"], cwd=ROOT,
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            with running(*servers, *streams):
                before = os.getloadavg()[0]
                started = time.monotonic()
                stats, opening = asyncio.run(load(args, [s.port for s in servers], built,
                                                  [s.port for s in streams]))
                took = time.monotonic() - started
                print(f"\nthe opening ({args.opening:.0f} s: the phones open their boards)")
                report(opening, args.opening, (before, os.getloadavg()[0]))
                print(f"\nthe play ({args.seconds:.0f} s, measured; the target's figures)")
                report(stats, took - args.opening, (before, os.getloadavg()[0]))
                served(servers)
                errors = [line for s in servers for line in s.stderr().splitlines()
                          if " ERROR " in line or "Traceback" in line]
                if errors:
                    print(f"server log errors: {len(errors)}; first: {errors[:3]}")
        finally:
            worker.terminate()
            worker.wait(timeout=30)


if __name__ == "__main__":
    main()
