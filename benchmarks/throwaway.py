"""A throwaway PostgreSQL cluster and Redis for the benchmarks, as .ci/run starts them.

    with postgres() as url, redis() as cache_url:
        ...   # postgres://postgres@127.0.0.1:<port>/muscore, redis://127.0.0.1:<port>/0

Loopback only, on free ports, in fresh folders under /tmp, deleted (the processes stopped
first) when the block ends, whatever happens in it. The cluster runs with fsync off (a
benchmark's data is thrown away): figures are for the app, not the disk. initdb refuses
to run as root, so as root the cluster belongs to the `postgres` user (or `nobody`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name))
    if not found:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    return found[-1].parent


def _as_owner(owner: str | None) -> dict[str, object]:
    if owner is None:
        return {}
    record = pwd.getpwnam(owner)
    return {"user": record.pw_uid, "group": record.pw_gid}


@contextmanager
def postgres(max_connections: int = 100) -> Iterator[str]:
    """A fresh cluster with an empty database `muscore`; yields its URL."""
    bin_dir = _pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="muscore-bench-pg-"))
    owner = None
    if os.getuid() == 0:
        owner = "postgres"
        try:
            pwd.getpwnam(owner)
        except KeyError:
            owner = "nobody"
        shutil.chown(folder, owner)
    run = _as_owner(owner)
    port = free_port()
    data = folder / "data"
    try:
        subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                        "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
                       cwd=folder, check=True, capture_output=True, **run)  # type: ignore[call-overload]
        subprocess.run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
                        "-w", "start", "-o",
                        f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off "
                        f"-c full_page_writes=off -c synchronous_commit=off "
                        f"-c max_connections={max_connections}"],
                       cwd=folder, check=True, capture_output=True, **run)  # type: ignore[call-overload]
        subprocess.run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                        "-U", "postgres", "muscore"], check=True, capture_output=True)
        yield f"postgres://postgres@127.0.0.1:{port}/muscore"
    finally:
        subprocess.run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       cwd=folder, capture_output=True, **run)  # type: ignore[call-overload]
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def redis() -> Iterator[str]:
    """A Redis in memory only; yields its URL."""
    if shutil.which("redis-server") is None:
        raise SystemExit("Redis is not installed (apt-get install redis-server)")
    folder = Path(tempfile.mkdtemp(prefix="muscore-bench-redis-"))
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
