"""Abuse limits (issue #10 point 5): table creation, imports and writes per client address,
429 with Retry-After (the API's error object, or a page), and the next window lets the
client through again. The limits are off in the rest of the suite (tests/conftest.py)."""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from muscore.tables.models import Hand, Table
from tests.tables.factory import make_record, make_table

pytestmark = pytest.mark.django_db

RATES = {"create": ["3/m"], "import": ["2/m"], "write": ["4/m"], "login": ["3/m"],
         "login_account": ["3/m"]}


def address(period: int, at_least: int, at_most: int | None = None, start: int = 0) -> str:
    """A client address (TEST-NET-3) whose fixed window has at_least..at_most seconds left.

    django-ratelimit staggers each client's windows by a hash of its address; picking the
    address makes a test independent of the clock: no window ends in the middle of a burst
    (or, for the tests of the next window, one ends within a few seconds).
    """
    at_most = period if at_most is None else at_most
    now = int(time.time())
    for n in range(start + 1, 255):
        value = f"203.0.113.{n}"
        # django_ratelimit.core._get_window: the end of the current window.
        end = now - now % period + zlib.crc32(value.encode()) % period
        if end < now:
            end += period
        if at_least <= end - now <= at_most:
            return value
    raise AssertionError("no address with such a window")


@pytest.fixture
def limits(settings: Settings) -> Iterator[dict[str, list[str]]]:
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {k: list(v) for k, v in RATES.items()}
    cache.clear()
    yield settings.MUSCORE_RATE_LIMITS
    cache.clear()


def post_json(client: Client, url: str, body: Any, ip: str, **headers: str) -> Any:
    return client.post(
        url, json.dumps(body), content_type="application/json", REMOTE_ADDR=ip, headers=headers
    )


def test_api_creation_over_the_limit_is_429_with_the_error_object_then_the_next_window_is_open(
    client: Client, limits: dict[str, list[str]]
) -> None:
    limits["create"] = ["3/4s"]
    ip = address(4, 2, 3)
    for _ in range(3):
        assert post_json(client, "/api/v1/tables", {}, ip).status_code == 201
    refused = post_json(client, "/api/v1/tables", {}, ip)
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/problem+json"
    body = refused.json()
    assert body["error"].startswith("too many requests from this address")
    assert (body["code"], body["status"]) == ("too_many_requests", 429)
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 4 and body["retry_after"] == wait
    assert Table.objects.count() == 3
    # Another client is not held back by this one.
    assert post_json(client, "/api/v1/tables", {}, address(4, 2, 3, start=200)).status_code == 201
    time.sleep(wait)
    assert post_json(client, "/api/v1/tables", {}, ip).status_code == 201
    assert Table.objects.count() == 5


def test_a_page_over_the_limit_is_a_readable_429_page_in_the_players_language(
    client: Client, limits: dict[str, list[str]]
) -> None:
    ip = address(60, 10)
    for _ in range(3):
        assert client.post("/mesa", REMOTE_ADDR=ip).status_code == 302
    page = client.post("/mesa", REMOTE_ADDR=ip)
    assert page.status_code == 429
    assert 1 <= int(page["Retry-After"]) <= 61
    text = page.content.decode()
    assert "Han llegado demasiadas peticiones desde esta conexión" in text
    assert '<meta name="viewport"' in text
    english = client.post("/nueva", {}, REMOTE_ADDR=ip, headers={"Accept-Language": "en"})
    assert english.status_code == 429
    assert "Too many requests have come from this connection" in english.content.decode()
    basque = client.post("/mesa", REMOTE_ADDR=ip, headers={"Accept-Language": "eu"})
    assert "Konexio honetatik eskaera gehiegi iritsi dira" in basque.content.decode()
    assert Table.objects.count() == 3
    # Looking is never limited: the form itself still opens.
    assert client.get("/nueva", REMOTE_ADDR=ip).status_code == 200


def test_imports_are_limited_on_the_page_and_the_api_together(
    client: Client, limits: dict[str, list[str]]
) -> None:
    ip = address(60, 10)
    exported = client.get(f"/api/v1/tables/{make_table().id}/export").json()
    assert post_json(client, "/api/v1/tables/import", exported, ip).status_code == 201
    page = client.post("/importar", {"data": json.dumps(exported)}, REMOTE_ADDR=ip)
    assert page.status_code in (302, 400)  # counted, whatever the form thought of it
    refused = post_json(client, "/api/v1/tables/import", exported, ip)
    assert refused.status_code == 429 and "error" in refused.json()
    assert client.post("/importar", {}, REMOTE_ADDR=ip).status_code == 429


def test_writes_to_a_table_are_limited_per_client_through_the_api_and_the_pages(
    client: Client, limits: dict[str, list[str]]
) -> None:
    ip = address(60, 10)
    table = make_table()
    url = f"/api/v1/tables/{table.id}/hands"
    key = {"X-Table-Key": table.edit_key}
    for _ in range(3):
        assert post_json(client, url, make_record(), ip, **key).status_code == 201
    undo = client.delete(f"{url}/last", REMOTE_ADDR=ip, headers=key)
    assert undo.status_code == 200
    assert post_json(client, url, make_record(), ip, **key).status_code == 429
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    assert client.post(edit + "deshacer", REMOTE_ADDR=ip).status_code == 429
    assert client.post(edit + "mano", {"act": "save"}, REMOTE_ADDR=ip).status_code == 429
    assert Hand.objects.filter(table=table).count() == 2
    # Reading the board is not a write.
    assert client.get(edit, REMOTE_ADDR=ip).status_code == 200


def test_x_forwarded_for_counts_only_behind_a_trusted_proxy_and_only_its_last_hop(
    client: Client, limits: dict[str, list[str]], settings: Settings
) -> None:
    proxy = address(60, 10)
    client_a, client_b = address(60, 10, start=100), address(60, 10, start=150)
    # Not behind a proxy: the header is anyone's to write, so every request counts for the
    # connection's address, whatever it claims.
    settings.MUSCORE_BEHIND_PROXY = False
    for n in range(3):
        assert (
            client.post(
                "/mesa", REMOTE_ADDR=proxy, headers={"X-Forwarded-For": f"198.51.100.{n}"}
            ).status_code
            == 302
        )
    assert (
        client.post(
            "/mesa", REMOTE_ADDR=proxy, headers={"X-Forwarded-For": "198.51.100.9"}
        ).status_code
        == 429
    )
    # Behind one: each client counts alone, by the address our proxy appended last;
    # what the client wrote before it does not help.
    settings.MUSCORE_BEHIND_PROXY = True
    for _ in range(3):
        forged = {"X-Forwarded-For": f"192.0.2.{_}, {client_a}"}
        assert client.post("/mesa", REMOTE_ADDR=proxy, headers=forged).status_code == 302
    assert (
        client.post("/mesa", REMOTE_ADDR=proxy, headers={"X-Forwarded-For": client_a}).status_code
        == 429
    )
    assert (
        client.post("/mesa", REMOTE_ADDR=proxy, headers={"X-Forwarded-For": client_b}).status_code
        == 302
    )


def test_rates_come_from_the_environment_and_a_bad_one_is_refused_by_name() -> None:
    from tests.test_settings import manage

    probe = "from django.conf import settings; print(settings.MUSCORE_RATE_LIMITS)"
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        probe,
        MUSCORE_RATE_CREATE="5/10m,50/d",
        MUSCORE_RATE_WRITE="off",
    )
    assert result.returncode == 0, result.stderr
    rates = eval(result.stdout.strip().splitlines()[-1])  # noqa: S307 - our own repr
    assert rates["create"] == ["5/10m", "50/d"] and rates["write"] == []
    bad = manage("check", MUSCORE_RATE_IMPORT="lots")
    assert bad.returncode != 0
    assert "MUSCORE_RATE_IMPORT must be rates such as 30/m,300/h or off, not 'lots'" in bad.stderr


def test_the_openapi_description_documents_the_429_of_every_limited_operation(
    client: Client,
) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    limited = [
        ("/api/v1/tables", "post"),
        ("/api/v1/tables/import", "post"),
        ("/api/v1/tables/{table_id}/hands", "post"),
        ("/api/v1/tables/{table_id}/hands/last", "delete"),
        ("/api/v1/tables/{table_id}/hands/{number}", "put"),
    ]
    for path, method in limited:
        assert "Retry-After" in paths[path][method]["responses"]["429"]["headers"], path


def test_password_guessing_is_limited(client: Client, limits: dict[str, list[str]]) -> None:
    ip = address(60, 10)
    for n in range(3):
        wrong = {"username": "ana", "password": f"guess-{n}"}
        assert client.post("/cuentas/entrar", wrong, REMOTE_ADDR=ip).status_code == 400
    page = client.post("/cuentas/entrar", {"username": "ana"}, REMOTE_ADDR=ip)
    assert page.status_code == 429
    assert "Han llegado demasiadas peticiones" in page.content.decode()
    link = client.post("/cuentas/clave/MQ/bad-token/", {}, REMOTE_ADDR=ip)
    assert link.status_code == 429
