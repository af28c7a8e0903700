"""/healthz on a real gunicorn as a load balancer probes it (issue 31): 200 with the database
and a live worker, 503 naming the worker once it has been stopped for longer than its limit,
503 naming the database when the database is stopped; /metrics summed across workers."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.multiserver.conftest import Cluster
from tests.multiserver.servers import ROOT, Server, free_port, http, running

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver")]

STALE = 3  # seconds: the worker's limit these servers run with


def healthz(server: Server) -> tuple[int, dict]:  # type: ignore[type-arg]
    status, _headers, body = http("GET", f"{server.url}/healthz", timeout=10)
    return status, json.loads(body)


def wait_for(server: Server, status: int, seconds: float) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + seconds
    while True:
        got, body = healthz(server)
        if got == status or time.monotonic() > deadline:
            assert got == status, body
            return body
        time.sleep(0.25)


def test_healthz_follows_the_worker(cluster: Cluster, tmp_path: Path) -> None:
    env = dict(cluster.env, MUSCORE_WORKER_STALE_SECONDS=str(STALE))
    server = Server(env, tmp_path)
    with running(server), (tmp_path / "worker.err").open("wb") as err:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "rating_worker", "--interval", "0.5",
             "--worker-id", "probe-worker"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
        try:
            body = wait_for(server, 200, 30)
            assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]
            assert body["checks"]["workers"]["alive"] >= 1
            # Killed, not stopped: it cannot say goodbye; its last beat ages out.
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
            killed = time.monotonic()
            body = wait_for(server, 503, STALE + 10)
            assert time.monotonic() - killed >= STALE - 2.5  # not before its limit
            assert body["failing"] == ["workers"]
            assert f"no worker beat in the last {STALE} s" in body["checks"]["workers"]["error"]
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait(timeout=10)
        # /metrics sums the two gunicorn workers' figures (prometheus-client's multiprocess).
        for _ in range(6):
            http("GET", f"{server.url}/healthz")
        status, _headers, metrics = http("GET", f"{server.url}/metrics")
        assert status == 200
        text = metrics.decode()
        assert 'muscore_requests_total{method="GET",status="503",view="healthz"}' in text
        assert "muscore_workers_alive 0.0" in text


def test_healthz_is_503_with_the_database_stopped(cluster: Cluster, tmp_path: Path) -> None:
    # A PostgreSQL that is not running: nothing listens on its port.
    stopped = f"postgres://postgres@127.0.0.1:{free_port()}/muscore"
    server = Server(dict(cluster.env, DATABASE_URL=stopped), tmp_path)
    with running(server):
        status, body = healthz(server)
    assert status == 503
    assert "database" in body["failing"]
    assert body["checks"]["database"]["ok"] is False
    assert "OperationalError" in body["checks"]["database"]["error"]
