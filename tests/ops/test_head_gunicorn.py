"""A HEAD through a real gunicorn (issue 39): every page kind of the project (every URL
pattern, filled as tests/test_head_everywhere.py fills them) asked HEAD on the wire, as an
uptime monitor asks. No body byte comes back, the status is the GET's, and gunicorn's log
holds no "WSGI app sent body bytes on a no-body response" (gunicorn drops a body Django
sends on a HEAD and warns each time; Django's test client drops it silently, so only a test
through gunicorn sees it)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from django.db import connection
from django.urls import get_resolver

from tests.multiserver.servers import Server, base_env, running
from tests.ops.worker_processes import worker_env
from tests.test_head_everywhere import ANY_METHOD, fill, patterns, world

pytestmark = pytest.mark.django_db(transaction=True)

WARNING = "no-body response"


def ask(port: int, method: str, path: str) -> tuple[int, bytes, bytes]:
    """One request on its own connection: (status, head, every byte after the head)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept-Encoding: gzip\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), head, rest


def test_a_head_of_every_page_kind_sends_no_body_through_gunicorn(tmp_path: Path) -> None:
    values = world()
    paths = sorted({fill(route, values) for route, _pattern in patterns(
        get_resolver().url_patterns) if route not in ANY_METHOD and not route.startswith("admin/")})
    paths += ["/static/css/muscore.css", "/no-such-page/", "/admin/", "/admin/login/"]
    # The pages at the other languages' addresses too (muscore.addresses): a board, the rules.
    board = f"/t/{values['table_id']}/k/{values['key']}/"
    paths += [f"/{code}{path}" for code in ("en", "eu", "fr") for path in (board, "/reglas/")]
    connection.close()  # gunicorn's turn on this database
    env = base_env(**{k: v for k, v in worker_env().items()
                      if k in ("SQLITE_FILE", "DATABASE_URL")})
    server = Server(env, tmp_path, workers=2)
    port = server.port
    heads = 0
    with running(server):
        for path in paths:
            got, _head, body = ask(port, "GET", path)
            if got == 405:
                continue  # a POST-only route
            status, head, rest = ask(port, "HEAD", path)
            heads += 1
            assert status == got, (path, status, got)
            assert rest == b"", (path, head, rest[:200])
    log = server.stderr()
    print(f"\n{heads} HEADs through gunicorn, {log.count(WARNING)} warnings")
    assert heads > 60
    assert WARNING not in log, log[-3000:]
