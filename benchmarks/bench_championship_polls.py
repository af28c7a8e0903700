"""200 visitors polling the large championship's public pages at once, on PostgreSQL (issue 28).

    .venv/bin/python benchmarks/bench_championship_polls.py                  # 200 visitors, 60 s
    .venv/bin/python benchmarks/bench_championship_polls.py --database-url postgres://... \\
        --redis-url redis://...                                              # a server of yours

The docs' production layout on this machine, loopback only, bounded: a throwaway PostgreSQL
cluster and Redis (benchmarks/throwaway.py, as .ci/run starts them; or --database-url and
--redis-url), one gunicorn of `--workers` (4) sync workers with the production settings
(tests/multiserver/servers.py: DEBUG off, CONN_MAX_AGE=60, CACHE_URL on the Redis, behind a
"proxy": each visitor speaks from an address of its own through X-Forwarded-For). The
championship is `manage.py build_large_championship` (2,539 pairs in 250 venues, its seven
province finals drawn).

`--visitors` (200) people open one of its public pages, in turn: the championship's page,
the largest province final's page (48 groups) and that final's hall screen, at random
moments of the first `--opening` seconds (20; each opening is the whole page, a 200, the
first ones on cold caches: reported apart, with the polls meanwhile), then poll it
every `--every` seconds (2 s, as the issue's visitors did; a page's live part really asks
every 15 s, the hall screen every 1.5 s) as the page's script does: its live part
(`?live=1`, HX-Request) with If-None-Match of the last answer, 304 while nothing changed.
Meanwhile a result is written in one of that final's groups every `--change-seconds` (10),
as the organiser writes it: every page's stamp moves, and each visitor's next poll brings the
new live part once (200), counted with the rest.

Reports requests per second, p50/p95/p99/max of each kind (the openings apart), the statuses
and every error (a status not expected, a refused or dropped connection, a timeout of 30 s),
the polls' p50 and p95 by 10 s of the run, and the server's own time per kind (gunicorn's
access log). Target: p95 of the polls after the opening under 300 ms. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_final_day import TIMEOUT, Stats, http, report, served, services  # noqa: E402

from tests.multiserver.servers import Server, base_env, manage, running  # noqa: E402

ETAG = re.compile(rb'data-etag="([^"]+)"')


def build(env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """The championship (unless --database-url already holds one), and its pages."""
    started = time.perf_counter()
    manage(env, "migrate", "--no-input", "-v0")
    os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "SECRET_KEY")})
    os.environ["DJANGO_SETTINGS_MODULE"] = "muscore.settings"
    import django

    django.setup()
    from django.db import connections

    from muscore.championships.models import Championship

    if not Championship.objects.exists():
        manage(env, "build_large_championship", "--pairs", str(args.pairs),
               "--venues", str(args.venues))
    championship = Championship.objects.order_by("-pk").first()
    assert championship is not None
    final = max(championship.phases.exclude(draw=None), key=lambda p: p.groups.count())
    base = f"/campeonatos/{championship.pk}"
    pages = {"championship page": f"{base}/", "phase page": f"{base}/fases/{final.pk}/",
             "hall screen": f"{base}/fases/{final.pk}/tv/"}
    groups = list(final.groups.select_related("competition__club").order_by("pk"))
    connections.close_all()
    print(f"championship {championship.pk}: its final {final.name!r} of {len(groups)} groups, "
          f"ready in {time.perf_counter() - started:.0f} s", flush=True)
    return {"pages": pages, "groups": [g.pk for g in groups]}


def results(groups: list[int]) -> Iterator[str]:
    """Write the next unplayed match of the final's groups, in turn (the organiser's
    write: `results.record_result`); yields what it wrote."""
    from muscore.championships.models import PhaseGroup
    from muscore.leagues import results as league_results
    from muscore.leagues.models import Match

    rng = random.Random(28)
    while True:
        wrote = False
        for pk in groups:
            group = PhaseGroup.objects.select_related("competition__club").get(pk=pk)
            match = (Match.objects.filter(competition=group.competition).unplayed()
                     .exclude(first=None).exclude(second=None).order_by("number").first())
            if match is None:
                continue
            user = group.competition.club.memberships.first().user  # type: ignore[union-attr]
            juegos = [3, rng.randint(0, 2)]
            rng.shuffle(juegos)
            league_results.record_result(match, by=user, juegos=juegos)
            wrote = True
            yield f"group {pk}, match {match.number}: {juegos}"
        if not wrote:
            return


class Visitors:
    def __init__(self, port: int, until: float, every: float, opening: float) -> None:
        self.port = port
        self.until = until
        self.every = every
        self.opening_seconds = opening
        self.counted_from = time.monotonic() + opening
        self.opening = Stats()
        self.stats = Stats()
        self.started = time.monotonic()
        self.windows: dict[int, list[float]] = {}  # the polls' times by 10 s of the run

    async def call(self, stats: Stats, kind: str, path: str, headers: dict[str, str],
                   expected: tuple[int, ...]) -> tuple[int, dict[str, str], bytes]:
        started = time.perf_counter()
        try:
            status, answer, content = await asyncio.wait_for(
                http(self.port, "GET", path, headers), TIMEOUT)
        except (TimeoutError, OSError, ValueError, IndexError) as error:
            stats.add(kind, time.perf_counter() - started, 0, expected,
                      f"{type(error).__name__}: {error}")
            return 0, {}, b""
        took = time.perf_counter() - started
        stats.add(kind, took, status, expected, content[:150].decode(errors="replace"))
        if stats is self.stats:
            window = int((time.monotonic() - self.started) // 10)
            self.windows.setdefault(window, []).append(took)
        return status, answer, content

    async def visitor(self, kind: str, path: str, address: str) -> None:
        await asyncio.sleep(random.uniform(0, self.opening_seconds))
        headers = {"X-Forwarded-For": address, "Accept-Language": "es"}
        status, _answer, content = await self.call(self.opening, f"{kind}, opened", path,
                                                   headers, (200,))
        found = ETAG.search(content)
        etag = html.unescape(found.group(1).decode()) if found else ""
        poll = path + "?live=1"
        while time.monotonic() < self.until:
            started = time.monotonic()
            asked = {**headers, "HX-Request": "true"}
            if etag:
                asked["If-None-Match"] = etag
            counted = time.monotonic() >= self.counted_from
            status, answer, _content = await self.call(
                self.stats if counted else self.opening, f"{kind}, polled", poll, asked,
                (200, 304))
            etag = answer.get("etag", etag)
            pause = self.every - (time.monotonic() - started)
            await asyncio.sleep(max(0.0, min(pause, self.until - time.monotonic())))


async def changes(seconds: float, until: float, groups: list[int]) -> int:
    written = 0
    writer = results(groups)
    while time.monotonic() + seconds < until:
        await asyncio.sleep(seconds)
        if await asyncio.to_thread(next, writer, None) is None:
            break
        written += 1
    return written


async def load(args: argparse.Namespace, port: int, built: dict[str, Any]) -> Visitors:
    until = time.monotonic() + args.opening + args.seconds
    run = Visitors(port, until, args.every, args.opening)
    kinds = list(built["pages"].items())
    jobs = [run.visitor(*kinds[n % len(kinds)], f"10.{n // 250}.{n % 250}.7")
            for n in range(args.visitors)]
    written, *_rest = await asyncio.gather(
        changes(args.change_seconds, until, built["groups"]), *jobs)
    print(f"\n{written} results written meanwhile (one every {args.change_seconds:.0f} s)")
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visitors", type=int, default=200)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between two polls")
    parser.add_argument("--opening", type=float, default=20,
                        help="seconds over which the visitors open their pages (each one's "
                             "first read is the whole page, the first ones on cold caches); "
                             "reported apart")
    parser.add_argument("--seconds", type=float, default=60, help="seconds measured")
    parser.add_argument("--change-seconds", type=float, default=10,
                        help="seconds between two results written in the final")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn's sync workers")
    parser.add_argument("--pairs", type=int, default=2539)
    parser.add_argument("--venues", type=int, default=250)
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL database (its championship, or an empty one)")
    parser.add_argument("--redis-url", default="")
    args = parser.parse_args()
    with services(args) as (database, cache), tempfile.TemporaryDirectory() as logs:
        env = base_env(DATABASE_URL=database, CACHE_URL=cache, CONN_MAX_AGE="60",
                       MUSCORE_BEHIND_PROXY="true")
        built = build(env, args)
        server = Server(env, Path(logs), workers=args.workers)
        with running(server):
            before = os.getloadavg()[0]
            started = time.monotonic()
            run = asyncio.run(load(args, server.port, built))
            took = time.monotonic() - started
            after = os.getloadavg()[0]
            print(f"\nthe opening (the first {args.opening:.0f} s: each visitor's whole page, "
                  "cold caches first, and the polls meanwhile)")
            report(run.opening, args.opening, (before, after))
            print(f"\nthe polls ({args.visitors} visitors, every {args.every:.0f} s; the "
                  "target's figures)")
            report(run.stats, took - args.opening, (before, after))
            print("\nthe polls' p95 by 10 s of the run (a result is written every "
                  f"{args.change_seconds:.0f} s)")
            for window, values in sorted(run.windows.items()):
                values.sort()
                print(f"  {window * 10:3d}-{window * 10 + 10:3d} s  {len(values):5,} polls  "
                      f"p50 {values[len(values) // 2] * 1000:5.0f} ms  "
                      f"p95 {values[int(len(values) * 0.95)] * 1000:5.0f} ms")
            served([server], page_kind)
            errors = [line for line in server.stderr().splitlines()
                      if " ERROR " in line or "Traceback" in line]
            if errors:
                print(f"server log errors: {len(errors)}; first: {errors[:3]}")


def page_kind(path: str) -> str:
    """The kind of a request of the access log, as the client's figures name it."""
    return ("hall screen" if "/tv/" in path else "phase page" if "/fases/" in path
            else "championship page") + (", polled" if "live=1" in path else ", opened")


if __name__ == "__main__":
    main()
