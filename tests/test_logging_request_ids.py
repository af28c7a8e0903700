"""Every log line names its request (issue #21 point 10): a 404's and an API 403's lines
carry the request's id (they had "-"), and a worker killed for taking too long says which
request (its path, masked, and its id) it was answering. On a real gunicorn."""

from __future__ import annotations

import http.client as httpclient
import json
import re
import urllib.parse
from pathlib import Path

import pytest

from tests.multiserver.servers import Server, base_env, http, running, sqlite_copy


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Server:
    folder = tmp_path_factory.mktemp("request-ids")
    env = base_env(
        DATABASE_URL=sqlite_copy(migrated_sqlite, folder / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="tests.multiserver.failing_settings",
        # One worker and a short timeout: the slow view outlasts it.
        GUNICORN_CMD_ARGS="--timeout 3",
    )
    return Server(env, folder, workers=1)


def test_4xx_lines_and_a_killed_worker_name_their_request(server: Server) -> None:
    with running(server) as (live,):
        status, _, body = http("POST", f"{live.url}/api/v1/tables", {})
        assert status == 201
        table = json.loads(body)
        key = table["edit_key"]
        missing = http("GET", f"{live.url}/no-existe", headers={"X-Request-ID": "rid-404"})
        assert missing[0] == 404 and missing[1]["X-Request-ID"] == "rid-404"
        forbidden = http(
            "POST",
            f"{live.url}/api/v1/tables/{table['id']}/hands",
            {"hands": {}},
            headers={"X-Table-Key": "wrong", "X-Request-ID": "rid-403"},
        )
        assert forbidden[0] == 403
        # The slow request: its worker is killed (whatever the client then gets).
        url = urllib.parse.urlsplit(live.url)
        connection = httpclient.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            connection.request(
                "GET",
                f"/t/{table['id']}/k/{key}/lento",
                headers={"X-Request-ID": "rid-killed"},
            )
            try:
                got = connection.getresponse()
                assert got.status != 200
            except (TimeoutError, httpclient.HTTPException, ConnectionError):
                pass
        finally:
            connection.close()
        # The server goes on answering with a new worker.
        assert http("GET", f"{live.url}/")[0] == 200
    stderr = server.stderr()
    assert re.search(r"WARNING \[rid-404\] django\.request: Not Found: /no-existe", stderr)
    assert re.search(r"WARNING \[rid-403\] django\.request: Forbidden: /api/v1/tables/", stderr)
    assert "[-] django.request" not in stderr
    killed = re.search(r"killed while answering (.*)", stderr)
    assert killed, stderr[-3000:]
    assert killed.group(1) == f"GET /t/{table['id']}/k/***/lento [rid-killed]"
    assert key not in stderr
