"""Production logging, checked on a real gunicorn with the documented production settings:
a 500 leaves its traceback on standard error, every line names its request, and no log
line ever holds an edit key (issue #10 point 4)."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path

import pytest

from muscore import logs
from tests.multiserver.servers import Server, base_env, http, running, sqlite_copy


@pytest.fixture(scope="module")
def production_server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Server:
    """One gunicorn, DEBUG off, on a fresh SQLite file, with the test-only failing URL."""
    folder = tmp_path_factory.mktemp("logging")
    env = base_env(
        DATABASE_URL=sqlite_copy(migrated_sqlite, folder / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="tests.multiserver.failing_settings",
    )
    return Server(env, folder)


def test_a_500_writes_its_traceback_to_stderr_and_no_line_holds_the_edit_key(
    production_server: Server,
) -> None:
    with running(production_server) as (server,):
        status, _, body = http("POST", f"{server.url}/api/v1/tables", {})
        assert status == 201
        table = json.loads(body)
        key, edit = table["edit_key"], f"/t/{table['id']}/k/{table['edit_key']}/"

        status, headers, _ = http(
            "GET", f"{server.url}{edit}fallo", headers={"X-Request-ID": "rid-500"}
        )
        assert status == 500
        assert headers["X-Request-ID"] == "rid-500"
        # A 404 under the edit link (Django logs its path as a warning), a page opened from
        # the edit link (the Referer holds it), and a write through the API with its key.
        assert http("GET", f"{server.url}{edit}mano/999")[0] == 404
        assert (
            http("GET", f"{server.url}/t/{table['id']}/", headers={"Referer": server.url + edit})[0]
            == 200
        )
        api = f"{server.url}/api/v1/tables/{table['id']}/hands"
        assert http("POST", api, {"hands": {}}, headers={"X-Table-Key": key})[0] == 400
    stdout, stderr = server.stdout(), server.stderr()

    # The traceback, on the error line of its request.
    assert "Traceback (most recent call last)" in stderr
    assert "RuntimeError: a failure on purpose while answering" in stderr
    masked = f"/t/{table['id']}/k/***/"
    assert re.search(
        rf"ERROR \[rid-500\] django\.request: Internal Server Error: {re.escape(masked)}fallo",
        stderr,
    )
    assert f"Not Found: {masked}mano/999" in stderr
    # gunicorn's access log: the masked request line, the masked Referer, the request id.
    assert f'"GET {masked}fallo HTTP/1.1" 500' in stdout
    assert f'"{server.url}{masked}"' in stdout
    assert re.search(r'"GET /t/[^ ]+/fallo HTTP/1\.1" 500 .* rid=rid-500$', stdout, re.M)
    # And the key itself nowhere.
    assert key not in stdout
    assert key not in stderr
    # Two workers and no shared cache: the abuse limits count per worker, and it is said.
    assert "the abuse limits count in each worker's own memory: 2 workers" in stderr


def test_every_response_carries_a_request_id_and_a_hostile_one_is_replaced(
    production_server: Server,
) -> None:
    with running(production_server) as (server,):
        _, made, _ = http("GET", f"{server.url}/")
        _, kept, _ = http("GET", f"{server.url}/", headers={"X-Request-ID": "nginx.4f2a-9"})
        _, hostile, _ = http("GET", f"{server.url}/", headers={"X-Request-ID": "x] ERROR forged"})
        # An unchanged poll answered 304 before the rest of the stack still names its request.
        _, created, _ = http("POST", f"{server.url}/api/v1/tables", {})
        state_url = created["Location"]
        _, first, _ = http("GET", state_url)
        status, polled, _ = http("GET", state_url, headers={"If-None-Match": first["ETag"]})
    assert re.fullmatch(r"[0-9a-f]{32}", made["X-Request-ID"])
    assert kept["X-Request-ID"] == "nginx.4f2a-9"
    assert re.fullmatch(r"[0-9a-f]{32}", hostile["X-Request-ID"])
    assert status == 304 and re.fullmatch(r"[0-9a-f]{32}", polled["X-Request-ID"])
    access = server.stdout()
    assert f"rid={made['X-Request-ID']}" in access
    assert "rid=nginx.4f2a-9" in access
    assert "forged" not in access


def test_django_log_lines_mask_keys_and_name_the_request() -> None:
    # The runserver's request lines (logger django.server) go through the root's handler.
    (handler,) = [
        h for h in logging.getLogger().handlers if isinstance(h.formatter, logs.KeyMaskingFormatter)
    ]
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    token = logs.request_id.set("rid-runserver")
    try:
        logging.getLogger("django.server").warning(
            '"GET /t/abc/k/s3cr3t-KEY_x/mano HTTP/1.1" 404 12'
        )
    finally:
        logs.request_id.reset(token)
        handler.setStream(old)
    err = buffer.getvalue()
    assert '[rid-runserver] django.server: "GET /t/abc/k/***/mano HTTP/1.1" 404 12' in err
    assert "s3cr3t" not in err


def test_mask_keys_leaves_everything_but_the_key() -> None:
    assert logs.mask_keys("/t/AbC_1-x/k/KeY-_09/") == "/t/AbC_1-x/k/***/"
    assert logs.mask_keys("GET /t/a/k/b?x=1 HTTP/1.1") == "GET /t/a/k/***?x=1 HTTP/1.1"
    assert logs.mask_keys("https://h/t/a/k/b/mano/3") == "https://h/t/a/k/***/mano/3"
    assert logs.mask_keys("/t/a/historial /api/v1/tables/a") == "/t/a/historial /api/v1/tables/a"
    assert logs.mask_keys("GET /clubes/cuentas/clave/MQ/cz1tok-en/ HTTP/1.1") == (
        "GET /clubes/cuentas/clave/MQ/***/ HTTP/1.1"
    )


def test_logging_is_configured_from_the_settings_not_mail_admins() -> None:
    from django.conf import settings

    assert "mail_admins" not in json.dumps(settings.LOGGING)
    assert settings.LOGGING["loggers"]["django"]["handlers"] == []
