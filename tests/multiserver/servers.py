"""Real app servers for tests: gunicorn processes on loopback ports, as in production.

Each server runs `gunicorn -c python:muscore.gunicorn_conf muscore.wsgi` with the
environment it is given (nothing from the test run leaks in but PATH, HOME and LANG),
its access log and error log captured to files the test can read. Stopped (SIGTERM,
then SIGKILL) when the `with` block ends.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"
UVICORN = Path(sys.executable).parent / "uvicorn"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def base_env(**extra: str) -> dict[str, str]:
    """The production environment (DEBUG off, a real SECRET_KEY) on plain loopback http."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env.update(
        DJANGO_SETTINGS_MODULE="muscore.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def sqlite_copy(source: Path, target: Path) -> str:
    """`source`, a SQLite file (with whatever SQLite left beside it), copied to `target`:
    the copy's DATABASE_URL."""
    for suffix in ("", "-wal", "-shm"):
        found = source.with_name(source.name + suffix)
        if found.exists():
            shutil.copyfile(found, target.with_name(target.name + suffix))
    return f"sqlite:///{target}"


def manage(env: Mapping[str, str], *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=dict(env), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


class Server:
    """One gunicorn on 127.0.0.1:<port>; `url`, and its logs once stopped (or any time)."""

    def __init__(self, env: Mapping[str, str], logs: Path, workers: int = 2) -> None:
        self.env = dict(env)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        logs.mkdir(parents=True, exist_ok=True)
        self.out_path = logs / f"gunicorn-{self.port}.out"
        self.err_path = logs / f"gunicorn-{self.port}.err"
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.out_path.open("wb") as out, self.err_path.open("wb") as err:
            self.process = subprocess.Popen(
                self.command(), cwd=ROOT, env=self.env, stdout=out, stderr=err,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.command()[0]} exited at start:\n{self.stderr()}")
            try:
                with urllib.request.urlopen(f"{self.url}/manifest.webmanifest", timeout=5):
                    return
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer within 60 s:\n{self.stderr()}")

    def command(self) -> list[str]:
        return [
            str(GUNICORN), "-c", "python:muscore.gunicorn_conf", "muscore.wsgi",
            "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers),
            "--graceful-timeout", "2",
        ]

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)

    def stdout(self) -> str:
        return self.out_path.read_text(errors="replace")

    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")


class Uvicorn(Server):
    """One uvicorn serving `muscore.asgi` (the streams, and the pages in its threads), as
    a stream server runs in production (docs/operations.md)."""

    def command(self) -> list[str]:
        return [
            str(UVICORN), "muscore.asgi:application", "--host", "127.0.0.1",
            "--port", str(self.port), "--lifespan", "on", "--no-access-log",
            "--timeout-graceful-shutdown", "5",
        ]


class RedisProcess:
    """A Redis of the test's own (in memory, on a loopback port), for a test that stops it
    (SIGSTOP) without touching the Redis the other tests share."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError("redis-server did not answer within 10 s")

    def pause(self) -> None:
        """Hung, not dead: its connections stay open and nothing answers."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.resume()
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@contextmanager
def running(*servers: Server) -> Iterator[tuple[Server, ...]]:
    with ExitStack() as stack:
        for server in servers:
            stack.callback(server.stop)
            server.start()
        yield servers


def http(
    method: str,
    url: str,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> tuple[int, dict[str, str], bytes]:
    """One request: (status, headers, body), whatever the status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()
