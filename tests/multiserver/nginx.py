"""Debian's nginx for the multi-server tests: a configuration's server blocks run on free
loopback ports, with nginx's own files in a temporary folder, never as a service."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.multiserver.conftest import REQUIRED

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@contextmanager
def nginx(servers: str, ports: list[int]) -> Iterator[Path]:
    """nginx running `servers` (the http context's blocks: upstreams, maps, servers) until
    the block ends; waits until every port of `ports` answers. Yields its folder (its
    access.log and error.log are there)."""
    if not Path(NGINX).exists():
        reason = "the proxy tests need Debian's nginx (apt-get install nginx; .ci/run does)"
        if REQUIRED:
            pytest.fail(f"MUSCORE_REQUIRE_MULTISERVER=1 but {reason}")
        pytest.skip(reason)
    folder = Path(tempfile.mkdtemp(prefix="muscore-nginx-"))
    os.chmod(folder, 0o755)
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / name).mkdir(mode=0o777)
        os.chmod(folder / name, 0o777)  # nginx's workers run as nobody when started as root
    (folder / "nginx.conf").write_text(f"""
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{servers}
}}
""")
    command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"),
               "-e", str(folder / "error.log")]
    check = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr + (folder / "nginx.conf").read_text()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        for port in ports:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, (
                        (folder / "error.log").read_text(errors="replace"))
                    time.sleep(0.05)
        yield folder
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
