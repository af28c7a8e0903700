"""A restore's memory (issue 40): the large club backed up, then restored into an empty database.

    .venv/bin/python benchmarks/bench_restore.py                 # builds the large club once
    .venv/bin/python benchmarks/bench_restore.py --pairs 60      # a smaller club, while developing

`manage.py build_large_club` (200 pairs in a double liguilla: 39,800 matches, 108,643 hands)
in a SQLite file kept at --db, `manage.py backup` of it, then into a fresh migrated database,
each in a process of its own whose peak resident memory is read from the kernel (wait4's
ru_maxrss):

- `manage.py restore FILE`: the backup read one object at a time (muscore.tables.backups.read);
- the baseline, in the same run: `manage.py loaddata FILE`, what restore did before (Django's
  JSON deserializer parses the whole file first; restore parsed it, wrote it out again and
  had loaddata parse it a second time: 2.0 GB for a 221 MB file in the issue's probe).

Prints the file's size, each one's peak memory and time, and the target (300 MB). Asserts
nothing. Figures go with the machine's load (`uptime`), printed too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 300


def manage(db: Path, *args: str) -> tuple[float, float, str]:
    """Run `manage.py ARGS` on the SQLite file `db`: (peak MB, seconds, output)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_SETTINGS_MODULE":
           "muscore.settings", "MUSCORE_RATELIMIT": "false"}
    started = time.monotonic()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    if process.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{text[-3000:]}")
    # ru_maxrss is in kilobytes on Linux.
    return usage.ru_maxrss / 1024, time.monotonic() - started, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--db", type=Path, default=None,
                        help="the club's SQLite file, built when missing "
                             "(default /tmp/muscore-bench-restore-<pairs>.sqlite3)")
    args = parser.parse_args()
    club = args.db or Path(tempfile.gettempdir()) / f"muscore-bench-restore-{args.pairs}.sqlite3"
    if not club.exists():
        building = club.with_suffix(".building")
        building.unlink(missing_ok=True)
        manage(building, "migrate", "--no-input", "-v0")
        _, seconds, _ = manage(building, "build_large_club", "--pairs", str(args.pairs))
        building.rename(club)
        print(f"built {club} in {seconds:.0f} s")
    with tempfile.TemporaryDirectory(prefix="muscore-bench-restore-") as folder:
        backup = Path(folder) / "club.json"
        peak, seconds, _ = manage(club, "backup", str(backup))
        size = backup.stat().st_size / 1e6
        print(f"backup: {size:.0f} MB written in {seconds:.0f} s, peak {peak:.0f} MB")
        rows = []
        for name, command in (("restore (streamed)", ["restore", str(backup)]),
                              ("loaddata (baseline: the whole file parsed)",
                               ["loaddata", str(backup), "-v0"])):
            empty = Path(folder) / f"{command[0]}.sqlite3"
            manage(empty, "migrate", "--no-input", "-v0")
            peak, seconds, _ = manage(empty, *command)
            rows.append((name, peak, seconds))
        load = os.getloadavg()
        print(f"\n{args.pairs}-pair club, a {size:.0f} MB backup (load "
              f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}):")
        for name, peak, seconds in rows:
            print(f"  {name:45} peak {peak:6.0f} MB   {seconds:6.0f} s")
        print(f"  target: restore under {TARGET_MB} MB; "
              f"{rows[1][1] / rows[0][1]:.1f}x less than the baseline")


if __name__ == "__main__":
    main()
