"""`./scripts/run` with STATIC_MANIFEST=true (issue 39): it answered 500 on every page (the
manifest's files were never collected); it collects them, and the home page and its hashed
stylesheet are served."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

from tests.multiserver.servers import ROOT, base_env, free_port, http, sqlite_copy


def test_run_with_the_manifest_serves_the_hashed_files(tmp_path: Path,
                                                       migrated_sqlite: Path) -> None:
    port = free_port()
    # A database already migrated (the run's copy, tests/conftest.py), as a site's is when
    # it is started again: `scripts/run`'s migrate finds nothing to do, instead of running
    # every migration (8.6 s of CPU) for a test of its static files.
    database = tmp_path / "db.sqlite3"
    sqlite_copy(migrated_sqlite, database)
    env = base_env(STATIC_MANIFEST="true", DEBUG="false", STATIC_ROOT=str(tmp_path / "static"),
                   SQLITE_FILE=str(database), MUSCORE_ADDRESS=f"127.0.0.1:{port}")
    with (tmp_path / "run.log").open("wb") as log:
        process = subprocess.Popen(["bash", "scripts/run"], cwd=ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert process.poll() is None, (tmp_path / "run.log").read_text()
            try:
                status, _headers, page = http("GET", f"http://127.0.0.1:{port}/", timeout=10)
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "run.log").read_text()
                time.sleep(0.5)
        assert status == 200, page[:300]
        css = re.search(r"/static/css/muscore\.[0-9a-f]{12}\.css", page.decode())
        assert css, "the page names no hashed stylesheet"
        assert http("GET", f"http://127.0.0.1:{port}{css.group(0)}")[0] == 200
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
