"""What one change of a live board costs a stream server (issue 32), old way and new, side
by side in one process, rounds interleaved so that both see the same machine.

    .venv/bin/python benchmarks/bench_draw.py                  # throwaway PostgreSQL + Redis
    .venv/bin/python benchmarks/bench_draw.py --database-url postgres://... --redis-url redis://...

Production settings (DEBUG off), the cache on Redis as on the final's day. One table of
`--hands` hands (20), its edit board's live part drawn `--draws` times (300) each way:

- through Django's WSGI handler and its middleware (`render.draw_by_handler`: how every
  screen was drawn), against the board's own drawing (`render.draw_with_tokens`: the view's
  code and template without the middleware, the table read once, its revision the check's
  token);
- cold (the board's state not in the cache yet, as the first drawing after a save finds
  it: before, read from the stored vacas; now, from the write's answer the cache holds for
  that revision, or the stored vacas at a vaca's end) and warm (cached);
- per change: the old hub drew each change twice (by its publish, then again at the next
  check of the revisions, which compared with its own reading and not with the drawing),
  the new one once, the tokens read with it.

CPU is the process's (time.process_time: the waits for PostgreSQL and Redis are not in it);
each figure is the median of `--rounds` (7) rounds, with the load average. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_final_day import records  # noqa: E402
from throwaway import postgres, redis  # noqa: E402


def cpu_ms(work: Any, times: int, before: Any = None) -> float:
    """CPU of ``work`` (ms, the mean of ``times``), ``before`` each run left out."""
    spent = 0.0
    for _ in range(times):
        if before is not None:
            before()
        started = time.process_time()
        work()
        spent += time.process_time() - started
    return spent / times * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20, help="hands of the table")
    parser.add_argument("--draws", type=int, default=300, help="drawings per round and way")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    args = parser.parse_args()
    with ExitStack() as stack:
        database = args.database_url or stack.enter_context(postgres())
        cache = args.redis_url or stack.enter_context(redis())
        os.environ.update(DJANGO_SETTINGS_MODULE="muscore.settings", DEBUG="false",
                          SECRET_KEY="bench-draw-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1",
                          DATABASE_URL=database, CACHE_URL=cache, CONN_MAX_AGE="60",
                          MUSCORE_RATELIMIT="false", LIVE_REDIS_URL="")
        run(args)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--no-input", verbosity=0)
    from django.core.cache import cache

    from muscore.live import render, topics
    from muscore.tables import services
    from muscore.tables.services.cache import cache_key

    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    hands = records()
    for _ in range(args.hands):
        # As the API and the pages save: the answer is the default read, cached.
        services.add_hand(table, next(hands), client_id=str(uuid.uuid4()), via="api",
                          finished="summary")
    url = f"/t/{table.pk}/k/{table.edit_key}/?live=1"
    screen = topics.for_url(url)
    assert screen is not None
    host = "127.0.0.1"
    old = render.draw_by_handler(url, "es", host, "http")
    new = render.draw_with_tokens(screen, url, "es", host, "http")[1]
    assert (old.status, old.etag, len(old.html)) == (new.status, new.etag, len(new.html)), (
        old.status, new.status)
    table.refresh_from_db()
    key, answer = cache_key(table, "board"), cache_key(table, "summary")
    saved = cache.get(answer)
    assert isinstance(saved, str)
    ways = {"handler": lambda: render.draw_by_handler(url, "es", host, "http"),
            "board": lambda: render.draw_with_tokens(screen, url, "es", host, "http")}
    # Cold before: the board's state was read from the stored vacas (the code before never
    # looked at the write's cached answer); cold now: the write's answer is in the cache.
    colds = {"handler": lambda: cache.delete_many([key, answer]),
             "board": lambda: (cache.delete(key), cache.set(answer, saved, 600))}
    figures: dict[str, list[float]] = {f"{w} {c}": [] for w in ways for c in ("cold", "warm")}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for way, work in ways.items():
            figures[f"{way} cold"].append(cpu_ms(work, args.draws, colds[way]))
            figures[f"{way} warm"].append(cpu_ms(work, args.draws))
        loads.append(os.getloadavg()[0])
    median = {name: statistics.median(values) for name, values in figures.items()}
    print(f"one table of {args.hands} hands, its edit board's live part ({len(new.html):,} "
          f"bytes), {args.rounds} rounds of {args.draws} drawings each way; load average "
          f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores")
    for state in ("cold", "warm"):
        handler, board = median[f"handler {state}"], median[f"board {state}"]
        print(f"  one drawing, {state}, CPU: by the WSGI handler {handler:.2f} ms (rounds "
              f"{min(figures[f'handler {state}']):.2f}-{max(figures[f'handler {state}']):.2f}), "
              f"the board's own {board:.2f} ms (rounds {min(figures[f'board {state}']):.2f}-"
              f"{max(figures[f'board {state}']):.2f}): {handler / board:.2f} times less")
    before = median["handler cold"] + median["handler warm"]
    now = median["board cold"]
    print(f"  one change, CPU: before {before:.2f} ms (drawn twice by the handler: by its "
          f"publish, cold, then at the check, warm), now {now:.2f} ms (drawn once, cold, its "
          f"tokens with it): {before / now:.1f} times less")
    print(json.dumps({**median, "loads": loads}))


if __name__ == "__main__":
    main()
