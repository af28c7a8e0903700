"""Slow clients behind the documented proxy (issue 28 point 7): straight to gunicorn, slow
readers of a large download hold every sync worker and the home page waits; through the
nginx configuration of docs/operations.md (read from that page, run on Debian's nginx on a
free loopback port with its own files in a temporary folder) the same readers cost the
workers nothing and the home page answers in under a second."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.multiserver.conftest import Cluster
from tests.multiserver.nginx import nginx
from tests.multiserver.servers import ROOT, Server, free_port, http, running

READERS = 4
READ_RATE = 16 * 1024  # bytes a second, each slow reader
EXPORT_BYTES = 8 * 1024 * 1024


def documented_config() -> tuple[list[str], str]:
    """docs/operations.md's nginx block: its server-level client and timeout lines, and the
    body of its `location /`."""
    text = (ROOT / "docs/operations.md").read_text()
    block = next(b for b in re.findall(r"```nginx\n(.*?)```", text, re.S)
                 if "proxy_buffering on;" in b)
    server_lines = [line.strip() for line in block.splitlines()
                    if re.match(r"\s+(client_|send_timeout|keepalive_timeout)", line)]
    location = re.search(r"location / \{\n(.*?)\n    \}", block, re.S)
    assert location is not None, "docs/operations.md's nginx block has no `location /`"
    return server_lines, location.group(1)


@contextmanager
def nginx_in_front(upstream: Server) -> Iterator[str]:
    """Debian's nginx on a free loopback port, the documented configuration with the
    upstream pointed at `upstream`. Yields its URL."""
    server_lines, location = documented_config()
    port = free_port()
    upstream_port = upstream.url.rsplit(":", 1)[1]
    newline = "\n"
    with nginx(f"""
    upstream muscore_pages {{ server 127.0.0.1:{upstream_port}; keepalive 16; }}
    server {{
        listen 127.0.0.1:{port};
        {newline.join(server_lines)}
        location / {{
{location}
        }}
    }}
""", [port]):
        yield f"http://127.0.0.1:{port}"


def large_export(cluster: Cluster) -> str:
    """A league whose export the worker made: 8 MB stored (its bytes planted, the streaming
    path the site's own), as a large league's is. Returns its path."""
    code = (
        "import secrets\n"
        "from muscore.leagues import prepared\n"
        "from tests.clubs.factory import make_club, make_league, make_user\n"
        "tag = secrets.token_hex(4)\n"
        "club = make_club(f'Proxy {tag}', organiser=make_user(f'proxy-{tag}'))\n"
        "league = make_league(club, pairs=4, groups=1)\n"
        "league.refresh_from_db()\n"
        f"parts = [b' ' * {2**20}] * {EXPORT_BYTES // 2**20}\n"
        "prepared.store(league.pk, prepared.EXPORT, league.revision, parts)\n"
        "print(league.pk)\n"
    )
    result = subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
                            cwd=ROOT, env=cluster.env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return f"/api/v1/leagues/{int(result.stdout.split()[-1])}/export"


class SlowReader(threading.Thread):
    """A client that asks for `path` and reads the answer at READ_RATE (a phone on a bad
    line), with a small receive window, until stopped."""

    def __init__(self, url: str, path: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        host, port = url.removeprefix("http://").split(":")
        self.address = (host, int(port))
        self.path, self.stop, self.read = path, stop, 0
        self.started = threading.Event()

    def run(self) -> None:
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(60)
            sock.connect(self.address)
            sock.sendall(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Connection: close\r\n\r\n".encode())
            deadline = time.monotonic() + 60
            while not self.stop.is_set() and time.monotonic() < deadline:
                chunk = sock.recv(1024)
                if not chunk:
                    return
                self.read += len(chunk)
                if self.read >= 2048:
                    self.started.set()  # the answer is flowing
                time.sleep(len(chunk) / READ_RATE)


@contextmanager
def slow_readers(url: str, path: str, answered: int = READERS) -> Iterator[list[SlowReader]]:
    """READERS slow readers of `path`, `answered` of them at least with their answer
    flowing (the others may be waiting for a worker)."""
    stop = threading.Event()
    readers = [SlowReader(url, path, stop) for _ in range(READERS)]
    try:
        for reader in readers:
            reader.start()
        deadline = time.monotonic() + 20
        while sum(r.started.is_set() for r in readers) < answered:
            assert time.monotonic() < deadline, "the slow readers got no answer"
            time.sleep(0.05)
        time.sleep(0.5)  # each worker has written what the socket buffers take, and waits
        yield readers
    finally:
        stop.set()
        for reader in readers:
            reader.join(10)


def home_page(url: str, timeout: float) -> float | None:
    """The home page's time, or None when it did not answer within `timeout`."""
    started = time.perf_counter()
    try:
        status, _headers, _body = http("GET", f"{url}/", timeout=timeout)
    except OSError:  # socket.timeout, a reset
        return None
    assert status == 200
    return time.perf_counter() - started


def test_slow_readers_hold_gunicorn_alone_and_cost_nothing_through_the_proxy(
    cluster: Cluster, tmp_path: Path,
) -> None:
    path = large_export(cluster)
    # Fewer workers than readers, as the site's 4 workers against 4 readers or more.
    server = Server(cluster.env, tmp_path, workers=2)
    with running(server):
        assert home_page(server.url, 10) is not None
        # Straight to gunicorn: every worker is writing to a reader that takes its time.
        with slow_readers(server.url, path, answered=server.workers):
            waited = home_page(server.url, 3)
            assert waited is None, f"the home page answered in {waited:.2f} s: no reader held"
        with nginx_in_front(server) as proxy:
            status, headers, body = http("GET", proxy + path, timeout=60)
            assert status == 200 and len(body) == EXPORT_BYTES  # the whole export, buffered
            assert headers["Content-Type"] == "application/json"
            with slow_readers(proxy, path) as readers:
                times = [home_page(proxy, 5) for _ in range(5)]
                assert all(t is not None and t < 1 for t in times), times
                # The readers are still reading: nginx feeds them from its buffers.
                assert all(r.is_alive() and r.read < EXPORT_BYTES for r in readers)
