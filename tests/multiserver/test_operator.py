"""/healthz and /metrics for the operator only (issue 39): docs/operations.md's two nginx
blocks, the public server and the operator's listener, read from that page and run as they
are on Debian's nginx in front of a real gunicorn (only the ports, the upstream's address,
the host name and TLS changed for a loopback test). The public listener answers both 404
however they are spelled; the operator's serves them, to an allowed address only, with the
figures an operator reads (process, database, cache, tasks)."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path

import pytest

from tests.multiserver.conftest import Cluster
from tests.multiserver.nginx import nginx
from tests.multiserver.servers import ROOT, Server, free_port, http, running

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver")]

OPERATOR_LISTEN = "listen 127.0.0.1:8081;"


def documented_blocks() -> tuple[str, str]:
    """docs/operations.md's public nginx block (conf.d/muscore.conf) and its operator's
    listener (conf.d/muscore-operator.conf)."""
    blocks = re.findall(r"```nginx\n(.*?)```", (ROOT / "docs/operations.md").read_text(), re.S)
    public = next(b for b in blocks if "conf.d/muscore.conf" in b)
    operator = next(b for b in blocks if "conf.d/muscore-operator.conf" in b)
    return public, operator


def loopback(config: str, public: int, operator: int, upstream: int, logs: Path) -> str:
    """The documented blocks on loopback: plain http on free ports, the test's gunicorn,
    nginx's log files in `logs`."""
    assert "/var/log/nginx/" in config
    config = config.replace("/var/log/nginx/", f"{logs}/")
    assert "listen 443 ssl;" in config and OPERATOR_LISTEN in config
    assert "server 127.0.0.1:8000;" in config
    config = config.replace("listen 443 ssl;", f"listen 127.0.0.1:{public};")
    config = config.replace(OPERATOR_LISTEN, f"listen 127.0.0.1:{operator};")
    config = config.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")
    config = config.replace("mus.example.org", "127.0.0.1")
    return "\n".join(line for line in config.splitlines() if "ssl_certificate" not in line)


def raw(port: int, target: str, method: str = "GET", source: str = "127.0.0.1") -> tuple[int, str]:
    """One request as written (no client library normalising the path), from `source`."""
    with socket.create_connection(("127.0.0.1", port), timeout=30,
                                  source_address=(source, 0)) as sock:
        sock.sendall(f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode(errors="replace")


def test_health_and_metrics_answer_the_operator_only(cluster: Cluster, tmp_path: Path) -> None:
    server = Server(cluster.env, tmp_path)
    public_block, operator_block = documented_blocks()
    public, operator = free_port(), free_port()
    upstream = int(server.url.rsplit(":", 1)[1])
    config = loopback(public_block + "\n" + operator_block, public, operator, upstream,
                      tmp_path)
    with running(server), nginx(config, [public, operator]):
        # The public listener: the site, and neither of the operator's pages however asked.
        status, _headers, _body = http("GET", f"http://127.0.0.1:{public}/", timeout=30)
        assert status == 200
        for target in ("/healthz", "/metrics", "//metrics", "/%6Detrics", "/healthz?x=1",
                       "/metrics?format=text", "/./metrics"):
            for method in ("GET", "HEAD"):
                got, body = raw(public, target, method)
                assert got == 404, (target, method, got)
                assert "muscore_" not in body and "checks" not in body
        # The operator's listener: both pages, and nothing else.
        status, body = raw(operator, "/healthz")
        assert status in (200, 503)  # 503: no worker runs beside this server
        assert json.loads(body)["checks"]["database"]["ok"] is True
        assert raw(operator, "/")[0] == 404
        assert raw(operator, "/admin/")[0] == 404
        for _ in range(3):  # queries for the figures below
            raw(operator, "/healthz")
        status, text = raw(operator, "/metrics")
        assert status == 200
        for figure in ('muscore_requests_total{method="GET",status=', "muscore_database_up 1.0",
                       "muscore_database_connections ", "muscore_db_query_duration_seconds_bucket",
                       "muscore_db_queries_per_request_count", "muscore_cache_up 1.0",
                       "muscore_cache_hits_total ", "muscore_tasks_waiting",
                       "muscore_workers_alive "):
            assert figure in text, figure
        # Each gunicorn worker's process figures, by pid (written every few seconds).
        assert re.search(r'process_resident_memory_bytes\{pid="\d+"\} [1-9]', text), text[-3000:]
        # Both workers' (the second may still be loading the app when the first answers).
        pids = set(re.findall(r'process_cpu_seconds_total\{pid="(\d+)"\}', text))
        deadline = time.monotonic() + 20
        while len(pids) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            pids = set(re.findall(r'process_cpu_seconds_total\{pid="(\d+)"\}',
                                  raw(operator, "/metrics")[1]))
        assert len(pids) == 2, pids
        # Another address than those allowed: 403 from nginx, never the page.
        status, body = raw(operator, "/metrics", source="127.0.0.2")
        assert status == 403 and "muscore_" not in body
