"""Load benchmark: polling unchanged boards, 304 path against a full render.

    .venv/bin/python benchmarks/bench_poll.py [--tables 200] [--hands 12] [--seconds 8]

Sets up a throwaway SQLite database with 200 tables (each with a dozen hands),
starts gunicorn with 2 workers on 127.0.0.1 (a free port), and polls the 200
boards round-robin for a bounded time with wrk (Debian's `wrk`, 2 connections;
a C client, so the client is not what is measured; without wrk, 4 Python
threads, which on 2 cores measure the client as much as the server), in turns:
  - full: GET without If-None-Match (the page is rendered, the state replayed
    unless cached);
  - 304: GET with the board's ETag in If-None-Match (answered 304).
for the board page (/t/<id>/) and the JSON state (/api/v1/tables/<id>).
Prints requests per second side by side and the ratio, and the server's own CPU
time per request (user + system time of the gunicorn workers, from /proc, divided
by the requests served): on a 2-core machine wrk and the kernel's TCP work share
the cores with the server, so req/s understates how much cheaper a 304 is; CPU per
request is the cost itself. Target: the unchanged poll at least 5 times cheaper
than the full render. Loopback only; stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def seed(env: dict[str, str], tables: int, hands: int) -> list[str]:
    """Create the tables through the services (the same path the app takes)."""
    script = f"""
import django, json, random
django.setup()
from muscore.tables import services
from muscore.tables.models import Change
deck = [i for i in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for _ in range(4)]
rng = random.Random(7)
ids = []
for t in range({tables}):
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    added = 0
    while added < {hands}:
        cards = rng.sample(deck, 16)
        shown = {{str(s): " ".join(map(str, cards[4 * s:4 * s + 4])) for s in range(4)}}
        record = {{"hands": shown}}
        try:
            services.add_hand(table, record, via=Change.Via.API)
        except Exception:
            break  # the vaca is over: a dozen hands are enough
        added += 1
    ids.append(table.id)
print(json.dumps(ids))
"""
    done = subprocess.run([PYTHON, "-c", script], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    ids: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return ids


def get(port: int, path: str, etag: str | None = None) -> tuple[int, str | None]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"If-None-Match": etag} if etag else {}
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, response.getheader("ETag")


def hammer(port: int, paths: list[str], etags: dict[str, str] | None, seconds: float,
           threads: int = 4) -> tuple[int, float, dict[int, int]]:
    """Poll the paths round-robin from `threads` threads: (requests, seconds, statuses)."""
    count = 0
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker(offset: int) -> None:
        nonlocal count
        i = offset
        mine = 0
        seen: dict[int, int] = {}
        while time.perf_counter() < stop:
            path = paths[i % len(paths)]
            status, _ = get(port, path, etags.get(path) if etags else None)
            seen[status] = seen.get(status, 0) + 1
            mine += 1
            i += 1
        with lock:
            count += mine
            for k, v in seen.items():
                statuses[k] = statuses.get(k, 0) + v

    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(n * 37,)) for n in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return count, time.perf_counter() - started, statuses


WRK_SCRIPT = """
paths = {%s}
etags = {%s}
i = 0
request = function()
  i = i + 1
  local k = (i %% #paths) + 1
  local headers = {}
  if #etags > 0 then headers["If-None-Match"] = etags[k] end
  return wrk.format("GET", paths[k], headers)
end
statuses = {}
response = function(status, headers, body)
  if status ~= %d then error("unexpected status " .. status) end
end
"""


def worker_cpu(master: int) -> float:
    """CPU seconds (user + system) used so far by the gunicorn workers of `master`."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:  # the parent pid
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def hammer_wrk(port: int, paths: list[str], etags: dict[str, str] | None, seconds: float,
               tmp: Path) -> tuple[float, int]:
    """(requests per second, requests) from wrk, each request checked for its status."""
    lua = tmp / "poll.lua"
    quoted = ", ".join(json.dumps(p) for p in paths)
    tags = ", ".join(json.dumps(etags[p]) for p in paths) if etags else ""
    lua.write_text(WRK_SCRIPT % (quoted, tags, 304 if etags else 200))
    done = subprocess.run(
        ["wrk", "-t1", "-c2", f"-d{seconds:.0f}s", "-s", str(lua), f"http://127.0.0.1:{port}/"],
        capture_output=True, text=True, check=True,
    )
    errors = [line for line in done.stdout.splitlines() if "Non-2xx" in line or "error" in line]
    if errors and not etags:
        raise SystemExit(f"wrk saw errors: {errors}")
    total = 0
    for line in done.stdout.splitlines():
        if "requests in" in line:
            total = int(line.split()[0])
    for line in done.stdout.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1]), total
    raise SystemExit(f"wrk printed no rate:\n{done.stdout}\n{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--conn-max-age", default=os.environ.get("CONN_MAX_AGE", "60"),
        help="CONN_MAX_AGE for the workers: 60 as in the README's production environment; "
             "0 opens a database connection per request",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="muscore-bench-"))
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="muscore.settings",
               SQLITE_FILE=str(tmp / "bench.sqlite3"), DEBUG="false",
               ALLOWED_HOSTS="127.0.0.1", STATIC_MANIFEST="false",
               CONN_MAX_AGE=str(args.conn_max_age))
    env.pop("DATABASE_URL", None)
    server = None
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], env=env, cwd=ROOT, check=True)
        ids = seed(env, args.tables, args.hands)
        port = free_port()
        server = subprocess.Popen(
            [str(Path(PYTHON).with_name("gunicorn")), "muscore.wsgi", "-w", "2",
             "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
            env=env, cwd=ROOT,
        )
        for _ in range(100):
            try:
                get(port, "/")
                break
            except OSError:
                time.sleep(0.1)
        rng = random.Random(1)
        rng.shuffle(ids)
        use_wrk = shutil.which("wrk") is not None
        client = "wrk -t1 -c2" if use_wrk else "4 Python threads (install wrk for a fair client)"
        print(f"{len(ids)} tables of up to {args.hands} hands, gunicorn -w 2, client {client}, "
              f"{args.seconds:.0f} s a run, loopback, SQLite, CONN_MAX_AGE={args.conn_max_age}")
        print(f"{'':28}{'full req/s':>12}{'304 req/s':>12}{'ratio':>8}"
              f"{'full CPU/req':>14}{'304 CPU/req':>13}{'ratio':>8}")
        for name, template in (("board page /t/<id>/", "/t/{}/"),
                               ("state /api/v1/tables/<id>", "/api/v1/tables/{}")):
            paths = [template.format(i) for i in ids]
            etags = {}
            for path in paths:  # one full GET each: learn the ETags and warm the caches
                status, etag = get(port, path)
                assert status == 200, (path, status)
                if etag:
                    etags[path] = etag
            cpu = worker_cpu(server.pid)
            if use_wrk:
                full_rate, full_n = hammer_wrk(port, paths, None, args.seconds, tmp)
            else:
                full_n, full_t, full_s = hammer(port, paths, None, args.seconds)
                assert set(full_s) == {200}, full_s
                full_rate = full_n / full_t
            full_cpu = (worker_cpu(server.pid) - cpu) / max(full_n, 1)
            if len(etags) < len(paths):
                print(f"{name:28}{full_rate:12,.0f}{'no ETag':>12}")
                continue
            cpu = worker_cpu(server.pid)
            if use_wrk:
                cond_rate, cond_n = hammer_wrk(port, paths, etags, args.seconds, tmp)
            else:
                cond_n, cond_t, cond_s = hammer(port, paths, etags, args.seconds)
                assert set(cond_s) == {304}, cond_s
                cond_rate = cond_n / cond_t
            cond_cpu = (worker_cpu(server.pid) - cpu) / max(cond_n, 1)
            print(f"{name:28}{full_rate:12,.0f}{cond_rate:12,.0f}{cond_rate / full_rate:8.1f}"
                  f"{full_cpu * 1e3:11.2f} ms{cond_cpu * 1e3:10.2f} ms"
                  f"{full_cpu / max(cond_cpu, 1e-9):8.1f}")
        print("target: the unchanged poll (304) at least 5x cheaper than the full render")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
