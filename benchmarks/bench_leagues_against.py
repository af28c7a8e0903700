"""The large league's pages on this checkout against an older commit, side by side.

    .venv/bin/python benchmarks/bench_leagues_against.py d3a89a8 [--runs 15] [--rounds 2]

Issue 17 asks that no page of the large club's benchmark gets slower than before the
league result got its one owner. Wall times on this shared 2-core machine move by a
factor of two with the other work on it, so this compares CPU time (`time.process_time`
of the serving process: Django's whole stack and SQLite, both in process) as well as
the wall clock, in rounds that alternate the two checkouts.

The older commit is checked out with `git worktree` into a temporary folder, and each
checkout serves from the database its own `build_large_club` made (built once:
/tmp/muscore-bench-leagues-<commit>.sqlite3; this checkout's is bench_leagues.py's).
Each request goes through django.test.Client: cold (the cache cleared first: the first
visitor after a new result) and warm, best and median of `--runs`, and the SQL queries
of one cold request.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("API league document", "standings page", "pair page")


def serve(root: str, db: str, runs: int) -> None:
    """In a child process: time the pages of `root`'s code on `db`, print JSON."""
    sys.path.insert(0, root)
    os.environ.update(DATABASE_URL=f"sqlite:///{db}", ALLOWED_HOSTS="testserver",
                      DJANGO_SETTINGS_MODULE="muscore.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from muscore.leagues.models import Competition

    large = Competition.objects.exclude(name="Liga pequeña").order_by("-pk").first()
    assert large is not None, f"{db} has no large club"
    base = f"/club/{large.club.slug}/liga/{large.pk}/"
    urls = dict(zip(PAGES, (f"/api/v1/leagues/{large.pk}", base, f"{base}pareja/0/"),
                    strict=True))
    client = Client()
    figures = {}
    for page, url in urls.items():
        client.get(url)
        row: dict[str, float] = {}
        for kind in ("cold", "warm"):
            cpu, wall = [], []
            for _ in range(runs):
                if kind == "cold":
                    cache.clear()
                started_cpu, started = time.process_time(), time.perf_counter()
                assert client.get(url).status_code == 200, url
                cpu.append(time.process_time() - started_cpu)
                wall.append(time.perf_counter() - started)
            row |= {f"{kind} cpu": min(cpu) * 1000,
                    f"{kind} cpu med": statistics.median(cpu) * 1000,
                    f"{kind} wall": min(wall) * 1000}
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        row["queries"] = len(captured.captured_queries)
        figures[page] = row
    print(json.dumps(figures))


def build(root: Path, db: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    for args in (["migrate", "--no-input", "-v0"], ["build_large_club"]):
        subprocess.run([sys.executable, "manage.py", *args], cwd=root, env=env, check=True)


def measure(root: Path, db: Path, runs: int) -> dict[str, dict[str, float]]:
    out = subprocess.run([sys.executable, __file__, "--serve", str(root), str(db), str(runs)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the older commit (e.g. d3a89a8)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    here = Path("/tmp/muscore-bench-leagues.sqlite3")
    there = Path(f"/tmp/muscore-bench-leagues-{commit}.sqlite3")
    with tempfile.TemporaryDirectory(prefix="muscore-base-") as folder:
        base = Path(folder) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), commit], cwd=ROOT,
                       check=True)
        try:
            for root, db in ((ROOT, here), (base, there)):
                if not db.exists():
                    print(f"building the large club for {root.name} in {db}...", flush=True)
                    build(root, db)
                else:  # built by an older checkout of the same code line: schema up to date
                    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
                                   cwd=root, env={**os.environ, "DATABASE_URL": f"sqlite:///{db}"},
                                   check=True)
            rounds = []
            for _ in range(args.rounds):  # alternating, so both see the same machine
                rounds.append((measure(base, there, args.runs), measure(ROOT, here, args.runs)))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                           check=False)
    print(f"39,800 matches, 200 pairs; SQLite; {args.rounds} rounds of {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; ms, best of the "
          "rounds; x = this checkout / the base (CPU time)")
    print(f"{'':22}{'':6}{'cold cpu':>10}{'cold wall':>11}{'warm cpu':>10}{'warm wall':>11}"
          f"{'queries':>9}{'x cold':>8}{'x warm':>8}")
    for page in PAGES:
        best = {who: {key: min(r[i][page][key] for r in rounds) for key in rounds[0][i][page]}
                for i, who in enumerate((commit, "main"))}
        for who in (commit, "main"):
            f = best[who]
            ratio = ("", "") if who == commit else (
                f"{f['cold cpu'] / best[commit]['cold cpu']:.2f}",
                f"{f['warm cpu'] / best[commit]['warm cpu']:.2f}")
            print(f"{page:22}{who:>6}{f['cold cpu']:>10.1f}{f['cold wall']:>11.1f}"
                  f"{f['warm cpu']:>10.1f}{f['warm wall']:>11.1f}{f['queries']:>9.0f}"
                  f"{ratio[0]:>8}{ratio[1]:>8}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
