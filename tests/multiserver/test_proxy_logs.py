"""No key in the proxy's logs (issue 40): docs/operations.md's public nginx block (its maps
and log format) with the live screens' `location = /events/` from the same page, run on
Debian's nginx in front of gunicorn and a stream server, only the ports, addresses, host
and log files changed for a loopback test.

An edit link opened in a real browser (its styles and scripts asked with a Referer), a tap
(htmx's POST), its stream (`/events/?u=%2Ft%2F<id>%2Fk%2F<key>...`), its history; the other
keyed links (a new-password link, a pair's and an entry's confirmation links) and a Referer
naming each; a stream whose server is down (nginx's error log): nginx's access and error
logs then hold no key, and the keyed lines are there, masked.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import PHONE
from tests.multiserver.conftest import Cluster
from tests.multiserver.nginx import nginx
from tests.multiserver.servers import ROOT, Server, Uvicorn, free_port, http, running
from tests.multiserver.test_operator import documented_blocks, loopback
from tests.multiserver.test_two_servers import new_table

pytestmark = [pytest.mark.multiserver, pytest.mark.xdist_group("multiserver"),
              pytest.mark.browser]

OTHER_KEYS = {  # a keyed link of each other kind, with a key of its own to look for
    "/cuentas/clave/MQ/{key}/": "c0nfirmPassw0rdTok3n",
    "/club/bar/liga/1/partida/3/resultado/{key}/": "PairResultKey4242",
    "/campeonatos/1/confirmar/2/{key}/": "EntryConfirmKey777",
}


def streams_block(upstream: int) -> tuple[str, str]:
    """docs/operations.md's stream upstream (pointed at ``upstream``) and its
    `location = /events/`."""
    block = next(b for b in re.findall(r"```nginx\n(.*?)```",
                                       (ROOT / "docs/operations.md").read_text(), re.S)
                 if "location = /events/" in b)
    upstream_line = next(line for line in block.splitlines()
                         if line.startswith("upstream muscore_streams"))
    upstream_line = re.sub(r"server [^;]+;.*\}", f"server 127.0.0.1:{upstream}; }}",
                           upstream_line)
    location = block[block.index("location = /events/"):]
    return upstream_line, location


def configured(logs: Path, public: int, pages: int, streams: int) -> str:
    public_block, operator_block = documented_blocks()
    upstream_line, location = streams_block(streams)
    for name in ("access", "error"):
        documented = f"/var/log/nginx/muscore.{name}.log"
        assert documented in public_block, f"the documented block writes no {documented}"
    config = loopback(public_block + "\n" + operator_block, public, free_port(), pages, logs)
    # On a loopback port the browser's Origin names the port, which `$host` drops: Django's
    # CSRF check would refuse the tap (on 443 both name none).
    assert config.count("proxy_set_header Host $host;") == 1
    config = config.replace("proxy_set_header Host $host;", "proxy_set_header Host $http_host;")
    # The stream's location beside `location /`, in the same server.
    config = config.replace("    location / {", location.replace("\n", "\n    ") + "\n"
                            "    location / {", 1)
    return upstream_line + "\n" + config


def raw_get(port: int, target: str, referer: str = "") -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if referer:
            head += f"Referer: {referer}\r\n"
        sock.sendall((head + "\r\n").encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return int(data.split()[1])


def test_no_key_reaches_nginxs_logs(cluster: Cluster, browser: Browser, tmp_path: Path) -> None:
    env = {**cluster.env, "MUSCORE_LIVE_STREAM": "/events/"}
    pages, streams = Server(env, tmp_path / "g"), Uvicorn(env, tmp_path / "u")
    public = free_port()
    logs = tmp_path / "nginx-logs"
    logs.mkdir()
    config = configured(logs, public, int(pages.url.rsplit(":", 1)[1]),
                        int(streams.url.rsplit(":", 1)[1]))
    site = f"http://127.0.0.1:{public}"
    with running(pages, streams), nginx(config, [public]):
        table_id, headers = new_table(cluster.a, "198.51.100.240")
        key = headers["X-Table-Key"]
        board = f"{site}/t/{table_id}/k/{key}/"
        status, answer, _ = http("GET", board)
        assert status == 200 and answer["Referrer-Policy"] == "strict-origin"

        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        page.goto(board)
        page.wait_for_selector("html[data-stream='open']", state="attached")
        page.locator("[data-piedras-side='A'] button", has_text="+1").click()
        page.wait_for_selector("#board-live[data-revision='2']", state="attached")
        page.goto(f"{site}/t/{table_id}/k/{key}/historial")
        page.context.close()

        for path, other in OTHER_KEYS.items():
            raw_get(public, path.format(key=other))
            raw_get(public, "/", referer=site + path.format(key=other) + "?x=1")
        raw_get(public, "/static/x.css", referer=board + "?live=1")
    # A stream whose server is gone: nginx's error log writes a failed request's line.
    with running(pages), nginx(config, [public]):
        status = raw_get(public, f"/events/?u=%2Ft%2F{table_id}%2Fk%2F{key}%2F%3Flive%3D1")
        assert status == 502

    access = (logs / "muscore.access.log").read_text()
    errors = (logs / "muscore.error.log").read_text()
    for secret in (key, *OTHER_KEYS.values()):
        assert secret not in access and secret not in errors, secret
    lines = access.splitlines()
    assert any(f'"GET /t/{table_id}/k/***/ HTTP/1.1" 200' in line for line in lines), access
    assert any(f'"POST /t/{table_id}/k/***/' in line for line in lines), access  # the tap
    assert any('"GET /events/?*** HTTP/1.1" 200' in line for line in lines), access
    assert any('"GET /events/?*** HTTP/1.1" 502' in line for line in lines), access
    assert any(f"/t/{table_id}/k/***/historial" in line for line in lines), access
    # The board's styles and scripts were asked with the site's address alone as Referer.
    assets = [line for line in lines if '"GET /static/' in line and "HeadlessChrome" in line]
    assert assets and all(f'"{site}/"' in line for line in assets), assets
    for masked in ("/cuentas/clave/MQ/***/", "/partida/3/resultado/***/",
                   "/campeonatos/1/confirmar/2/***/"):
        assert sum(masked in line for line in lines) == 2, masked  # the path, the Referer
