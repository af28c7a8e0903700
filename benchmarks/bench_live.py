"""Live screens by push against polling (issue 32), on this machine, loopback only.

    .venv/bin/python benchmarks/bench_live.py                     # 2,500 tables, 10,000 phones
    .venv/bin/python benchmarks/bench_live.py --tables 100 --seconds 20   # while developing

The final's day layout: a throwaway PostgreSQL and Redis (benchmarks/throwaway.py), two
gunicorn servers for the pages and the writes and two uvicorn servers for the streams
(muscore.asgi), production settings, behind a "proxy" (X-Forwarded-For). `--tables`
tables (2,500), each with `--phones` phones (4) holding its edit board's stream, two on
each stream server (a proxy without sticky sessions), in `--clients` client processes.
Then, measured in turn:

1. the connection of every phone (how long, errors), and the stream servers' memory per
   connection (their resident memory before and after, divided by their connections);
2. `--idle` seconds (20) with nobody writing: the stream servers' CPU, as a share of one core;
3. `--seconds` (60) of `--rate` hand saves a second (40) through the gunicorn servers: for
   each event at a phone, the time from the save's commit (published after it) to its
   arrival; every phone's last revision against its table's (0 missed is the target);
   the servers' CPU per connected screen per minute;
4. the same per table by today's polling, side by side: `--poll-tables` tables (100) of
   4 phones polling the board every 1.5 s with If-None-Match (304 while unchanged), with
   saves at the same rate per table: CPU per screen per minute and the time from a save
   to the poll that brings it.

Targets: p95 under 500 ms, 0 errors, 0 missed revisions, stream servers under 10 % of a
core while nobody writes, push at least 20 times cheaper per screen than polling.
Prints figures with the load average; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import uuid
import zlib
from contextlib import ExitStack
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_final_day import http, records  # noqa: E402
from sse_client import revision_of, stream  # noqa: E402
from throwaway import postgres, redis  # noqa: E402

from tests.multiserver.servers import Server, Uvicorn, base_env, manage, running  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------ the processes' figures


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def tree_of(pid: int) -> list[int]:
    tree, found, todo = _children(), [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += tree.get(current, [])
    return found


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    return (f"p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms, "
            f"p99 {cuts[98] * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms ({len(values):,})")


# -------------------------------------------------------------------------- the phones


async def _phones(jobs: list[tuple[int, str, str]], ramp: float, ready: Any,
                  go: Any, done: Any, out: str) -> None:
    import uvloop  # noqa: F401  (the policy is set by the caller)

    stop = asyncio.Event()
    phones = [{"latencies": [], "drawn": [], "revision": 0} for _ in jobs]
    tasks = []
    for n, (port, path, address) in enumerate(jobs):
        tasks.append(asyncio.create_task(_guard(stream(port, path, address, phones[n], stop),
                                                phones[n])))
        if n % 50 == 49:
            await asyncio.sleep(50 / ramp)
    while sum(1 for p in phones if p.get("open") or p.get("error")) < len(phones):
        await asyncio.sleep(0.1)
    ready.set()
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    for phone in phones:
        phone["measure"] = True
    await asyncio.get_running_loop().run_in_executor(None, done.wait)
    stop.set()
    Path(out).write_text(json.dumps([{k: p.get(k) for k in ("latencies", "drawn", "revision",
                                                             "error")}
                                     for p in phones]))
    for task in tasks:
        task.cancel()


async def _guard(work: Any, phone: dict[str, Any]) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception as error:
        phone["error"] = f"{type(error).__name__}: {error}"


def phones_process(jobs: list[tuple[int, str, str]], ramp: float, ready: Any, go: Any,
                   done: Any, out: str) -> None:
    import uvloop

    resource.setrlimit(resource.RLIMIT_NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE)[1:] * 2)
    uvloop.run(_phones(jobs, ramp, ready, go, done, out))


# ------------------------------------------------------------------------- the writes


async def save_hands(gunicorns: list[int], tables: list[tuple[str, str]], rate: float,
                     seconds: float, committed: dict[tuple[str, int], float] | None = None
                     ) -> tuple[list[float], list[str]]:
    """``rate`` hand saves a second through the gunicorn servers in turn, for ``seconds``."""
    hands, times, errors = records(), [], []
    order = tables[:]
    random.shuffle(order)
    jobs = []

    async def one(n: int, table_id: str, key: str) -> None:
        body = json.dumps({**next(hands), "client_id": str(uuid.uuid4())}).encode()
        started = time.perf_counter()
        try:
            status, _, content = await asyncio.wait_for(http(
                gunicorns[n % len(gunicorns)], "POST", f"/api/v1/tables/{table_id}/hands",
                {"X-Table-Key": key, "X-Forwarded-For": f"10.9.{n % 250}.1"}, body), 30)
        except (TimeoutError, OSError) as error:
            errors.append(f"{type(error).__name__}: {error}")
            return
        times.append(time.perf_counter() - started)
        if status != 201:
            errors.append(f"HTTP {status}: {content[:120]!r}")
        elif committed is not None:
            committed[(table_id, json.loads(content)["revision"])] = time.time()

    started = time.monotonic()
    n = 0
    while (elapsed := time.monotonic() - started) < seconds:
        table_id, key = order[n % len(order)]
        jobs.append(asyncio.create_task(one(n, table_id, key)))
        n += 1
        await asyncio.sleep(max(0.0, n / rate - (time.monotonic() - started)))
    await asyncio.gather(*jobs)
    del elapsed
    return times, errors


def quiet(pids: list[int], most: float = 30) -> None:
    """Until the stream servers have nothing left to send (half a second of near silence),
    at most ``most`` seconds."""
    deadline = time.monotonic() + most
    time.sleep(1)
    while time.monotonic() < deadline:
        before = cpu_seconds(pids)
        time.sleep(0.5)
        if cpu_seconds(pids) - before < 0.03:
            return


def drawings(ports: list[int]) -> int | None:
    """The stream servers' drawings so far (muscore_live_draws_total in their /metrics), or
    None from a stream server that does not count them."""
    total = 0.0
    for port in ports:
        _, _, content = asyncio.run(http(port, "GET", "/metrics", {}))
        found = [line.split()[1] for line in content.decode().splitlines()
                 if line.startswith("muscore_live_draws_total ")]
        if not found:
            return None
        total += float(found[0])
    return int(total)


def table_revisions(env: dict[str, str], ids: list[str]) -> dict[str, int]:
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as connection:
        rows = connection.execute("SELECT id, revision FROM tables_table WHERE id = ANY(%s)",
                                  [ids]).fetchall()
    return {row[0]: row[1] for row in rows}


def build(env: dict[str, str], count: int) -> list[tuple[str, str]]:
    manage(env, "migrate", "--no-input", "-v0")
    os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SECRET_KEY")})
    os.environ["DJANGO_SETTINGS_MODULE"] = "muscore.settings"
    import django

    django.setup()
    from django.db import connections

    from muscore.tables import services

    tables = []
    for n in range(count):
        table = services.create_table(players=[f"Ana {n}", f"Bruno {n}", f"Carla {n}",
                                               f"Diego {n}"])
        tables.append((table.id, table.edit_key))
    connections.close_all()
    return tables


# ---------------------------------------------------------------------------- the runs


def push(args: argparse.Namespace, env: dict[str, str], tables: list[tuple[str, str]],
         logs: Path) -> dict[str, Any]:
    from urllib.parse import quote

    gunicorns = [Server(env, logs, workers=args.workers) for _ in range(2)]
    streams = [Uvicorn(env, logs) for _ in range(2)]
    with running(*gunicorns, *streams):
        stream_pids = [p for s in streams for p in tree_of(s.process.pid)]  # type: ignore[union-attr]
        app_pids = stream_pids + [p for g in gunicorns for p in tree_of(g.process.pid)]  # type: ignore[union-attr]
        rss_before = rss_mb(stream_pids)
        # A screen's phones on one stream server, as the docs' nginx hashes /events/ by its
        # screen (hash $arg_u consistent): each change is drawn once for the four phones.
        watched = [table_id for table_id, _ in tables for _ in range(args.phones)]
        jobs = [(streams[zlib.crc32(table_id.encode()) % 2].port,
                 f"/events/?u={quote(f'/t/{table_id}/k/{key}/?live=1')}&lang=es",
                 f"10.{t // 250}.{t % 250}.{i + 1}")
                for t, (table_id, key) in enumerate(tables) for i in range(args.phones)]
        context = multiprocessing.get_context("spawn")
        go, done = context.Event(), context.Event()
        readies, processes, outs = [], [], []
        started = time.monotonic()
        for c in range(args.clients):
            ready = context.Event()
            out = str(logs / f"phones-{c}.json")
            process = context.Process(target=phones_process, args=(
                jobs[c::args.clients], args.ramp / args.clients, ready, go, done, out))
            process.start()
            readies.append(ready)
            processes.append(process)
            outs.append(out)
        for ready in readies:
            ready.wait()
        connected = time.monotonic() - started
        time.sleep(2)
        rss_after = rss_mb(stream_pids)
        idle_from = cpu_seconds(stream_pids)
        idle_app_from = cpu_seconds(app_pids)
        time.sleep(args.idle)
        idle_cpu = cpu_seconds(stream_pids) - idle_from
        idle_app = cpu_seconds(app_pids) - idle_app_from
        go.set()
        time.sleep(0.5)
        load_before = os.getloadavg()[0]
        write_from = cpu_seconds(app_pids)
        stream_from = cpu_seconds(stream_pids)
        drawn_from = drawings([s.port for s in streams])
        saves, errors = asyncio.run(save_hands([g.port for g in gunicorns], tables, args.rate,
                                               args.seconds))
        quiet(stream_pids)  # the last events on their way
        time.sleep(2.5)  # and one check of the revisions (LIVE_SAFETY_SECONDS) after them
        write_cpu = cpu_seconds(app_pids) - write_from
        stream_cpu = cpu_seconds(stream_pids) - stream_from
        drawn_to = drawings([s.port for s in streams])
        load_after = os.getloadavg()[0]
        done.set()
        for process in processes:
            process.join(timeout=60)
        # Each client process held every args.clients-th phone: read back in that order.
        phones = [p for out in outs for p in json.loads(Path(out).read_text())]
        owners = [t for c in range(args.clients) for t in watched[c::args.clients]]
        warnings = [line for server in [*gunicorns, *streams]
                    for line in server.stderr().splitlines()
                    if "live bus" in line or "pub/sub lost" in line or "Traceback" in line]
    final = table_revisions(env, [t for t, _ in tables])
    missed = sum(1 for p, table_id in zip(phones, owners, strict=True)
                 if p["revision"] != final[table_id])
    return {
        "screens": len(jobs), "connected": connected,
        "connect_errors": [p["error"] for p in phones if p["error"]],
        "per_connection_kb": (rss_after - rss_before) * 1024 / len(jobs),
        "rss": (rss_before, rss_after),
        "idle_share": idle_cpu / args.idle, "idle_app_share": idle_app / args.idle,
        "latencies": [x for p in phones for x in p["latencies"]],
        "drawn": [x for p in phones for x in p["drawn"]],
        "saves": saves, "save_errors": errors, "missed": missed,
        "cpu_per_screen_minute": stream_cpu / len(jobs) / (args.seconds / 60),
        "cpu_per_save": (write_cpu - stream_cpu) / max(1, len(saves)),
        "stream_cpu": stream_cpu, "write_cpu": write_cpu,
        "drawings": None if drawn_from is None or drawn_to is None else drawn_to - drawn_from,
        "load": (load_before, load_after), "warnings": warnings,
    }


async def _poll_phones(gunicorns: list[int], tables: list[tuple[str, str]], phones: int,
                       seconds: float, committed: dict[tuple[str, int], float]
                       ) -> tuple[list[float], list[str], int]:
    seen: list[tuple[str, int, float]] = []
    errors: list[str] = []
    polls = 0
    until = time.monotonic() + seconds

    async def phone(n: int, table_id: str, key: str) -> None:
        nonlocal polls
        etag, revision = "", 0
        await asyncio.sleep(random.uniform(0, 1.5))
        while time.monotonic() < until:
            began = time.monotonic()
            headers = {"HX-Request": "true", "X-Forwarded-For": f"10.8.{n % 250}.{n // 250 + 1}"}
            if etag:
                headers["If-None-Match"] = etag
            try:
                status, answer, _ = await asyncio.wait_for(http(
                    gunicorns[n % len(gunicorns)], "GET", f"/t/{table_id}/k/{key}/?live=1",
                    headers), 30)
            except (TimeoutError, OSError) as error:
                errors.append(f"{type(error).__name__}: {error}")
                status, answer = 0, {}
            polls += 1
            if status == 200:
                etag = answer.get("etag", etag)
                now = revision_of(etag)
                if now > revision:
                    revision = now
                    seen.append((table_id, now, time.time()))
            elif status != 304:
                errors.append(f"HTTP {status}")
            await asyncio.sleep(max(0.0, 1.5 - (time.monotonic() - began)))

    await asyncio.gather(*(phone(n, table_id, key) for n, (table_id, key) in
                           enumerate(t for t in tables for _ in range(phones))))
    latencies = [at - committed[(t, r)] for t, r, at in seen if (t, r) in committed]
    return latencies, errors, polls


def poll(args: argparse.Namespace, env: dict[str, str], tables: list[tuple[str, str]],
         logs: Path, cpu_per_save: float) -> dict[str, Any]:
    gunicorns = [Server(env, logs, workers=args.workers) for _ in range(2)]
    rate = args.rate * len(tables) / args.tables  # the same saves per table as with push
    with running(*gunicorns):
        app_pids = [p for g in gunicorns for p in tree_of(g.process.pid)]  # type: ignore[union-attr]
        committed: dict[tuple[str, int], float] = {}

        async def both() -> tuple[Any, Any]:
            phones = asyncio.create_task(_poll_phones(
                [g.port for g in gunicorns], tables, args.phones, args.seconds + 5, committed))
            await asyncio.sleep(3)
            saves = await save_hands([g.port for g in gunicorns], tables, rate,
                                     args.seconds, committed)
            return await phones, saves

        load_before = os.getloadavg()[0]
        cpu_from = cpu_seconds(app_pids)
        (latencies, errors, polls), (saves, save_errors) = asyncio.run(both())
        cpu = cpu_seconds(app_pids) - cpu_from
        load_after = os.getloadavg()[0]
    screens = len(tables) * args.phones
    return {"screens": screens, "latencies": latencies, "errors": errors + save_errors,
            "polls": polls, "saves": saves,
            # Net of the saves' own cost (the same with push: measured there, per save).
            "cpu_per_screen_minute": (cpu - cpu_per_save * len(saves)) / screens
                                     / ((args.seconds + 5) / 60),
            "load": (load_before, load_after)}


def report(pushed: dict[str, Any], polled: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"\npush: {pushed['screens']:,} screens connected in {pushed['connected']:.1f} s, "
          f"{len(pushed['connect_errors'])} errors {pushed['connect_errors'][:3]}")
    print(f"  stream servers' memory {pushed['rss'][0]:.0f} -> {pushed['rss'][1]:.0f} MB: "
          f"{pushed['per_connection_kb']:.1f} KB per connection")
    print(f"  nobody writing, {args.idle:.0f} s: stream servers {pushed['idle_share']:.1%} of "
          f"one core (all app servers {pushed['idle_app_share']:.1%})")
    print(f"  {len(pushed['saves']):,} saves in {args.seconds:.0f} s "
          f"({len(pushed['saves']) / args.seconds:.1f}/s), {len(pushed['save_errors'])} errors "
          f"{pushed['save_errors'][:3]}; save {quantiles(pushed['saves'])}")
    print(f"  commit to event at the phones: {quantiles(pushed['latencies'])}")
    print(f"    of which commit to the end of its drawing: {quantiles(pushed['drawn'])}")
    print(f"  missed revisions (a phone's last against its table's): {pushed['missed']}")
    print(f"  the servers' warnings (a publish not taken, pub/sub lost, a traceback): "
          f"{len(pushed['warnings'])} {pushed['warnings'][:3]}")
    if pushed["drawings"] is not None:
        print(f"  the stream servers drew {pushed['drawings']:,} screens, "
              f"{pushed['drawings'] / max(1, len(pushed['saves'])):.2f} a save; "
              f"{pushed['stream_cpu'] * 1000 / max(1, len(pushed['saves'])):.1f} ms of their "
              f"CPU a save")
    print(f"  app servers' CPU {pushed['write_cpu']:.1f} s, of which the stream servers "
          f"{pushed['stream_cpu']:.1f} s: {pushed['cpu_per_screen_minute'] * 1000:.3f} ms per "
          f"screen per minute (the saves' own {pushed['cpu_per_save'] * 1000:.0f} ms each); "
          f"load {pushed['load'][0]:.1f} -> {pushed['load'][1]:.1f}")
    print(f"\npoll (today): {polled['screens']:,} screens, {polled['polls']:,} polls, "
          f"{len(polled['saves']):,} saves, {len(polled['errors'])} errors {polled['errors'][:3]}")
    print(f"  save to the poll that brings it: {quantiles(polled['latencies'])}")
    print(f"  app servers' CPU net of the saves: {polled['cpu_per_screen_minute'] * 1000:.3f} ms "
          f"per screen per minute; load {polled['load'][0]:.1f} -> {polled['load'][1]:.1f}")
    ratio = polled["cpu_per_screen_minute"] / max(pushed["cpu_per_screen_minute"], 1e-9)
    print(f"\npush is {ratio:.1f} times cheaper per connected screen than polling "
          f"(target: 20); machine: {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2500, help="tables with a stream each")
    parser.add_argument("--phones", type=int, default=4, help="phones per table")
    parser.add_argument("--rate", type=float, default=40, help="hand saves a second in all")
    parser.add_argument("--seconds", type=float, default=60, help="seconds of saves measured")
    parser.add_argument("--idle", type=float, default=20, help="seconds with nobody writing")
    parser.add_argument("--ramp", type=float, default=400, help="new streams a second")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--poll-tables", type=int, default=100,
                        help="tables of the polling run (4 phones each, every 1.5 s)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        database = stack.enter_context(postgres(max_connections=300))
        cache = stack.enter_context(redis())
        env = base_env(DATABASE_URL=database, CACHE_URL=cache, CONN_MAX_AGE="60",
                       MUSCORE_BEHIND_PROXY="true", MUSCORE_RATELIMIT="false",
                       LIVE_MAX_PER_ADDRESS="100000", LIVE_MAX_CONNECTIONS="100000")
        started = time.perf_counter()
        tables = build(env, args.tables)
        print(f"{len(tables):,} tables built in {time.perf_counter() - started:.0f} s; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        pushed = push(args, env, tables, Path(folder))
        polled = poll(args, env, tables[:args.poll_tables], Path(folder),
                      pushed["cpu_per_save"])
        report(pushed, polled, args)


if __name__ == "__main__":
    main()
