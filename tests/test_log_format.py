"""One line format the operator chooses (issue 39, LOG_FORMAT, muscore.logs), checked on the
real processes: gunicorn (its own lines, its access lines, the app's lines with a traceback),
a background worker and the stream server (uvicorn). Every line is in UTC with its offset,
even with the machine's clock in Madrid; a request's lines carry its id and a worker's its
worker id; with LOG_FORMAT=json every line is one JSON object."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.multiserver.servers import (
    ROOT,
    Server,
    Uvicorn,
    base_env,
    http,
    running,
    sqlite_copy,
)

# A line of the app, a worker, uvicorn or gunicorn's own: the time in UTC with its offset.
TEXT_LINE = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00 (DEBUG|INFO|WARNING|ERROR|CRITICAL) "
    r"\[[^\]\s]+\] [\w.]+: ")
# gunicorn's access line: Apache's combined format, its time in UTC, the request id last.
ACCESS_LINE = re.compile(
    r'\S+ - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "[^"]*" \d{3} \S+ "[^"]*" "[^"]*" '
    r"\d+ms rid=[\w.:-]+$")
UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00")


@pytest.fixture
def environment(migrated_sqlite: Path) -> Callable[[Path, str], dict[str, str]]:
    def environment(folder: Path, log_format: str) -> dict[str, str]:
        # The machine's clock in Madrid: gunicorn's access lines said +0100 and the app's
        # lines local time without an offset. A copy of the file migrated once (conftest).
        return base_env(DATABASE_URL=sqlite_copy(migrated_sqlite, folder / "db.sqlite3"),
                        TZ="Europe/Madrid", LOG_FORMAT=log_format,
                        DJANGO_SETTINGS_MODULE="tests.multiserver.failing_settings")

    return environment


def serve_and_fail(server: Server) -> str:
    """A 404, a 500 with its traceback, a page: the lines every kind of request writes."""
    with running(server):
        status, _, body = http("POST", f"{server.url}/api/v1/tables", {})
        table = json.loads(body)
        edit = f"/t/{table['id']}/k/{table['edit_key']}/"
        assert http("GET", f"{server.url}{edit}fallo", headers={"X-Request-ID": "rid-500"}
                    )[0] == 500
        assert http("GET", f"{server.url}/no-existe", headers={"X-Request-ID": "rid-404"}
                    )[0] == 404
        assert http("GET", f"{server.url}/", headers={"X-Request-ID": "rid-200"})[0] == 200
    return str(table["edit_key"])


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_text_lines_are_in_utc_and_name_their_request(tmp_path: Path,
        environment: Callable[[Path, str], dict[str, str]]) -> None:
    server = Server(environment(tmp_path, "text"), tmp_path)
    key = serve_and_fail(server)
    stderr, stdout = server.stderr(), server.stdout()
    assert key not in stderr + stdout
    for line in lines(stdout):
        assert ACCESS_LINE.match(line), line
    assert re.search(r'"GET /no-existe HTTP/1.1" 404 .* rid=rid-404$', stdout, re.M)
    # Every line that starts one: gunicorn's own ("Booting worker"), the app's; a
    # traceback's lines follow the line that names its request.
    starts = [line for line in lines(stderr) if not line.startswith((" ", "Traceback"))
              and not re.match(r"\w+(\.\w+)*(Error|Exception)\b", line)]
    assert starts and all(TEXT_LINE.match(line) for line in starts), starts
    assert re.search(r"INFO \[-\] gunicorn\.error: Booting worker with pid", stderr)
    assert re.search(r"ERROR \[rid-500\] django\.request: Internal Server Error", stderr)
    assert re.search(r"WARNING \[rid-404\] django\.request: Not Found: /no-existe", stderr)


def test_json_lines_are_one_object_each(tmp_path: Path,
        environment: Callable[[Path, str], dict[str, str]]) -> None:
    server = Server(environment(tmp_path, "json"), tmp_path)
    key = serve_and_fail(server)
    stderr, stdout = server.stderr(), server.stdout()
    assert key not in stderr + stdout
    errors = [json.loads(line) for line in lines(stderr)]
    access = [json.loads(line) for line in lines(stdout)]
    for line in errors + access:
        assert UTC.fullmatch(line["time"]), line
        assert {"level", "logger", "message"} <= set(line)
    failed = next(line for line in errors if line.get("request_id") == "rid-500")
    assert failed["logger"] == "django.request" and failed["level"] == "ERROR"
    assert "RuntimeError: a failure on purpose" in failed["exception"]
    assert "/k/***/fallo" in failed["message"]
    assert any(line["logger"] == "gunicorn.error" and "Booting worker" in line["message"]
               for line in errors)
    by_id = {line["request_id"]: line for line in access}
    assert by_id["rid-404"]["status"] == 404 and by_id["rid-404"]["path"] == "/no-existe"
    assert by_id["rid-200"]["method"] == "GET" and by_id["rid-200"]["duration_ms"] >= 0
    assert by_id["rid-500"]["path"].endswith("/k/***/fallo")
    assert all(line["logger"] == "gunicorn.access" for line in access)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_workers_lines_name_the_worker(tmp_path: Path, log_format: str,
        environment: Callable[[Path, str], dict[str, str]]) -> None:
    env = environment(tmp_path, log_format)
    result = subprocess.run(
        [sys.executable, "manage.py", "rating_worker", "--once", "--worker-id", "w-logs"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    found = lines(result.stderr)
    assert found, "the worker said nothing"
    for line in found:
        if log_format == "json":
            record = json.loads(line)
            assert record["worker"] == "w-logs" and UTC.fullmatch(record["time"]), record
        else:
            assert TEXT_LINE.match(line) and "[worker:w-logs]" in line, line


def test_the_stream_servers_lines_are_the_sites(tmp_path: Path,
        environment: Callable[[Path, str], dict[str, str]]) -> None:
    env = environment(tmp_path, "text")
    server = Uvicorn(env, tmp_path)
    with running(server):
        assert http("GET", f"{server.url}/", headers={"X-Request-ID": "rid-uv"})[0] == 200
    found = lines(server.stderr())
    assert any("uvicorn.error: Started server process" in line for line in found), found
    for line in found:
        assert TEXT_LINE.match(line), line
