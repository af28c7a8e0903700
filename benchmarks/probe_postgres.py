"""probe_requests.py on PostgreSQL: a throwaway cluster, the large club built in it, the probe.

    .venv/bin/python benchmarks/probe_postgres.py            # builds the club (minutes), probes
    .venv/bin/python benchmarks/probe_postgres.py --only export

Starts a PostgreSQL cluster as .ci/run does (benchmarks/throwaway.py: loopback, a free
port, fsync off, deleted at the end), migrates it, runs `manage.py build_large_club` in it
(the same 200-pair club bench_leagues.py builds on SQLite) and then
`probe_requests.py --database-url` on it. Prints what the probe prints.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from throwaway import postgres  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="only the requests whose label has this")
    args = parser.parse_args()
    with postgres() as url:
        env = {**os.environ, "DATABASE_URL": url}
        started = time.perf_counter()
        for command in (["migrate", "--no-input", "-v0"], ["build_large_club"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
        subprocess.run([sys.executable, str(HERE / "probe_requests.py"), "--database-url", url,
                        "--only", args.only], cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
