"""A PostgreSQL restart answers 503, not 500 (issue 40.10: 35 requests answered 500).

On the cluster's PostgreSQL, a gunicorn server of its own (two workers keeping their
connections, CONN_MAX_AGE=60, as in production) whose connections carry an application
name of their own, so that the test ends them and no other server's:
- its connections ended while idle (pg_terminate_backend, what a restart does to each):
  the next requests reconnect (Django's health check) and answer 200;
- a request waiting on a lock when its connection is ended ("terminating connection due to
  administrator command"): 503 with Retry-After, the page's or the API's, and the server's
  log holds the error;
- a server whose PostgreSQL is down (nothing listens on its port): every page and API
  request that needs the database is 503 with Retry-After, never 500.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import urllib.parse
from pathlib import Path

import psycopg
import pytest

from tests.multiserver.conftest import Cluster
from tests.multiserver.servers import Server, free_port, http, running

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver")]


def with_database(env: dict[str, str], **changes: str) -> dict[str, str]:
    """`env` with its DATABASE_URL's port or query changed."""
    url = urllib.parse.urlsplit(env["DATABASE_URL"])
    if "port" in changes:
        user, _, _host = url.netloc.rpartition("@")
        url = url._replace(netloc=f"{user}@" * bool(user) + f"127.0.0.1:{changes.pop('port')}")
    if changes:
        url = url._replace(query=urllib.parse.urlencode(changes))
    return {**env, "DATABASE_URL": url.geturl()}


def admin(env: dict[str, str]) -> psycopg.Connection[tuple[object, ...]]:
    url = urllib.parse.urlsplit(env["DATABASE_URL"])._replace(query="").geturl()
    return psycopg.connect(url, autocommit=True)


def terminate(connection: psycopg.Connection[tuple[object, ...]], name: str) -> int:
    # Inside a transaction PostgreSQL answers pg_stat_activity from a snapshot taken at its
    # first read: cleared, the backends are those of now.
    connection.execute("SELECT pg_stat_clear_snapshot()")
    rows = connection.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
        [name]).fetchall()
    return len(rows)


def waiting_on_a_lock(pg: psycopg.Connection[tuple[object, ...]], name: str,
                      url: str) -> tuple[int, dict[str, str], bytes]:
    """The answer to GET `url` sent while the table of tables is locked, once the request
    waits on that lock and its connection (the server's, named `name`) is ended."""
    answers: list[tuple[int, dict[str, str], bytes]] = []
    with pg.transaction():
        pg.execute("LOCK TABLE tables_table IN ACCESS EXCLUSIVE MODE")
        thread = threading.Thread(target=lambda: answers.append(http("GET", url, timeout=30)))
        thread.start()
        deadline = time.monotonic() + 20
        # pg_stat_activity read again each time (a transaction reads it from a snapshot taken
        # at its first read: the test read the same rows for 20 s, then ended the connections).
        while pg.execute("SELECT pg_stat_clear_snapshot()") and pg.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                "AND wait_event_type = 'Lock'", [name]).fetchone() != (1,):
            assert time.monotonic() < deadline, f"GET {url} never waited on the lock"
            time.sleep(0.05)
        terminate(pg, name)
    thread.join(30)
    assert answers, f"GET {url} had no answer"
    print(f"GET {url} in flight:", answers[0][0])
    return answers[0]


def test_a_lost_connection_is_503_and_the_next_request_gets_in(
        cluster: Cluster, tmp_path: Path) -> None:
    name = f"restart-{secrets.token_hex(4)}"
    server = Server(with_database(cluster.env, application_name=name), tmp_path)
    with running(server), admin(cluster.env) as pg:
        status, _, body = http("POST", f"{server.url}/api/v1/tables", {},
                               {"X-Forwarded-For": "198.51.100.61"})
        assert status == 201, body
        table = json.loads(body)["id"]
        board, api = f"{server.url}/t/{table}/", f"{server.url}/api/v1/tables/{table}"
        for _ in range(6):  # both workers hold a connection
            assert http("GET", board)[0] == 200
        # Idle connections ended, as a restart ends them: the next requests get in.
        assert terminate(pg, name) >= 1
        statuses = [http("GET", url)[0] for url in (board, api) * 4]
        print(f"after the connections were ended: {statuses}")
        assert statuses == [200] * 8, statuses

        # A request waiting on the table's lock when its connection is ended: the page's,
        # then the API's, one at a time. Sent together, both could land on the same worker
        # (a sync worker takes one request at a time), the second one then waiting in the
        # socket until the first was answered and its connection ended: it answered 200
        # (CI, 7 Dec), and the test said nothing of why.
        page = waiting_on_a_lock(pg, name, board)
        assert page[0] == 503 and page[1]["Retry-After"] == "5", page[:2]
        assert "Prueba otra vez en unos segundos" in page[2].decode()
        api_answer = waiting_on_a_lock(pg, name, api)
        assert api_answer[0] == 503 and api_answer[1]["Retry-After"] == "5", api_answer[:2]
        problem = json.loads(api_answer[2])
        assert problem["code"] == "database_unavailable" and problem["status"] == 503
        assert api_answer[1]["Content-Type"] == "application/problem+json"
        assert http("GET", board)[0] == 200  # and the next one gets in
    assert "terminating connection due to administrator command" in server.stderr()


def test_a_database_down_is_503_never_500(cluster: Cluster, tmp_path: Path) -> None:
    server = Server(with_database(cluster.env, port=str(free_port())), tmp_path)
    with running(server):
        for path in ("/t/abc123/", "/clubs/", "/campeonatos/1/", "/api/v1/tables/abc123"):
            status, headers, body = http("GET", server.url + path)
            assert status == 503 and headers["Retry-After"] == "5", (path, status, body[:300])
        status, headers, body = http("POST", f"{server.url}/api/v1/tables", {},
                                     {"X-Forwarded-For": "198.51.100.62"})
        assert status == 503 and json.loads(body)["code"] == "database_unavailable", body
        # A page that needs no database is served as ever.
        assert http("GET", f"{server.url}/reglas/")[0] == 200
