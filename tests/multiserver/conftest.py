"""Two live app servers on one PostgreSQL and one Redis, as a federation's night runs muscore.

The servers are real gunicorn processes (tests/multiserver/servers.py) with the production
settings, each with two workers, on a database of their own created for the run on the
PostgreSQL of DATABASE_URL and the Redis of MUSCORE_TEST_REDIS_URL (both started by
.ci/run). Without both these tests are skipped, saying why; with
MUSCORE_REQUIRE_MULTISERVER=1 (.ci/run's PostgreSQL run) a skip is a failure instead.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

import dj_database_url
import psycopg
import pytest

from tests.multiserver.servers import Server, Uvicorn, base_env, manage, running

REQUIRED = os.environ.get("MUSCORE_REQUIRE_MULTISERVER", "") == "1"
# The creation limit the servers run with: the rate-limit test reaches it from one
# address; every other test comes from addresses of its own.
CREATE_RATE = 20


@dataclass
class Cluster:
    a: Server
    b: Server
    redis_url: str
    # The servers' environment, for a test that starts a server or a worker of its own.
    env: dict[str, str]


def _requirements() -> tuple[str, str]:
    redis_url = os.environ.get("MUSCORE_TEST_REDIS_URL", "")
    database_url = os.environ.get("DATABASE_URL", "")
    missing = []
    if not redis_url.startswith(("redis://", "unix://")):
        missing.append("MUSCORE_TEST_REDIS_URL=redis://127.0.0.1:<port>/0")
    if not database_url.startswith(("postgres://", "postgresql://")):
        missing.append("DATABASE_URL=postgres://...")
    if missing:
        reason = (
            "the multi-server tests need a Redis and a PostgreSQL: set "
            + " and ".join(missing)
            + " (.ci/run starts both)"
        )
        if REQUIRED:
            pytest.fail(f"MUSCORE_REQUIRE_MULTISERVER=1 but {reason}")
        pytest.skip(reason)
    return redis_url, database_url


# Package scope: the servers stop and their database is dropped after the package's last
# test (they run together on one worker, the xdist_group "multiserver"), while the other
# worker is still busy, instead of in that worker's session teardown at the end of the run.
@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    redis_url, database_url = _requirements()
    config = dj_database_url.parse(database_url)
    name = f"muscore_multiserver_{os.getpid()}"
    admin = psycopg.connect(
        dbname="postgres",
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    server_database = urllib.parse.urlsplit(database_url)._replace(path=f"/{name}").geturl()
    env = base_env(
        DATABASE_URL=server_database,
        CONN_MAX_AGE="60",
        CACHE_URL=redis_url,
        # One Redis may serve several test runs: each keeps to its own keys.
        CACHE_KEY_PREFIX=f"muscore-test-{secrets.token_hex(4)}",
        # The tests speak for many clients through X-Forwarded-For, as a proxy would.
        MUSCORE_BEHIND_PROXY="true",
        MUSCORE_RATE_CREATE=f"{CREATE_RATE}/h",
        MUSCORE_RATE_WRITE="1000/m",
    )
    try:
        manage(env, "migrate", "--no-input")
        logs = tmp_path_factory.mktemp("multiserver")
        a, b = Server(env, logs), Server(env, logs)
        with running(a, b):
            yield Cluster(a, b, redis_url, env)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="package")
def streams(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two stream servers (uvicorn, muscore.asgi: the streams and the pages) on the same
    PostgreSQL and Redis as the cluster's gunicorn servers."""
    logs = tmp_path_factory.mktemp("streams")
    a, b = Uvicorn(cluster.a.env, logs), Uvicorn(cluster.a.env, logs)
    with running(a, b):
        yield Cluster(a, b, cluster.redis_url, cluster.env)


# The browser tests here run Playwright through pytest-playwright's own fixtures (one
# Playwright per test process), with the Chromium and flags of tests/browser.
from tests.browser.conftest import browser_type_launch_args  # noqa: E402, F401
