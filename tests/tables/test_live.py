"""The live board (issue #4.2): ETags on the board and its partial, and the 304 of an
unchanged poll answered by NotModifiedMiddleware before anything else runs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from muscore import conditional
from muscore.tables import live, services
from muscore.tables.models import Table

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
RECORD = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}


def make_table() -> Table:
    return services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])


def view_url(table: Table) -> str:
    return reverse("tables:board", args=[table.id])


def edit_url(table: Table) -> str:
    return reverse("tables:edit_board", args=[table.id, table.edit_key])


def poll(client: Client, url: str, etag: str | None = None, **headers: str) -> Any:
    if etag:
        headers["If-None-Match"] = etag
    return client.get(url, headers={**HX, **headers})


def test_middleware_comes_first() -> None:
    # Only what touches no database is before it: a HEAD's body dropped (issue 39), the
    # request id (a header and a log field), the metrics (a counter and a timer, so the
    # 304s are counted too) and the release header of the API's answers (issue 31).
    assert settings.MIDDLEWARE[:5] == [
        "muscore.middleware.HeadMiddleware",
        "muscore.middleware.RequestIdMiddleware",
        "muscore.metrics.MetricsMiddleware",
        "muscore.version.VersionHeaderMiddleware",
        "muscore.tables.middleware.NotModifiedMiddleware",
    ]


@pytest.mark.parametrize("which", [view_url, edit_url])
def test_an_unchanged_poll_is_304_with_the_same_etag_and_no_body(client: Client, which) -> None:
    table = make_table()
    first = poll(client, which(table))
    assert first.status_code == 200
    etag = first["ETag"]
    assert first["Cache-Control"] == live.CACHE_CONTROL
    again = poll(client, which(table), etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert again["Cache-Control"] == live.CACHE_CONTROL
    for header in ("HX-Request", "Accept-Language", "Cookie"):
        assert header in again["Vary"] and header in first["Vary"]


@pytest.mark.parametrize("change", ["add", "undo", "edit"])
def test_a_new_edited_or_undone_hand_changes_the_etag(client: Client, change: str) -> None:
    table = make_table()
    services.add_hand(table, RECORD, via="api")
    etag = poll(client, view_url(table))["ETag"]
    if change == "add":
        services.add_hand(table, RECORD, via="api")
    elif change == "undo":
        services.undo_last(table, via="api")
    else:
        record = {
            **RECORD,
            "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
        }
        services.replace_hand(table, 1, record, via="api")
    fresh = poll(client, view_url(table), etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag
    assert f'data-revision="{Table.objects.get().revision}"' in fresh.content.decode()


def test_the_page_and_the_partial_have_different_etags(client: Client) -> None:
    table = make_table()
    page = client.get(view_url(table))
    partial = poll(client, view_url(table))
    assert page["ETag"] != partial["ETag"]
    # The partial's tag does not validate the page, nor the other way round.
    assert (
        client.get(view_url(table), headers={"If-None-Match": partial["ETag"]}).status_code == 200
    )
    assert poll(client, view_url(table), page["ETag"]).status_code == 200
    assert client.get(view_url(table), headers={"If-None-Match": page["ETag"]}).status_code == 304


def test_the_language_is_part_of_the_etag(client: Client) -> None:
    table = make_table()
    spanish = poll(client, view_url(table))
    client.cookies["django_language"] = "en"
    english = poll(client, view_url(table), spanish["ETag"])
    assert english.status_code == 200
    assert ">History</a>" in english.content.decode()
    assert english["ETag"] != spanish["ETag"]
    assert poll(client, view_url(table), english["ETag"]).status_code == 304
    other = Client(headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert poll(other, view_url(table), english["ETag"]).status_code == 304
    assert poll(other, view_url(table), spanish["ETag"]).status_code == 200


def test_the_304_path_runs_one_query_and_no_view(client: Client, monkeypatch) -> None:
    table = make_table()
    etag = poll(client, edit_url(table))["ETag"]

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an unchanged poll replayed the table")

    monkeypatch.setattr(services, "table_state", no_replay)
    with CaptureQueriesContext(connection) as queries:
        response = poll(client, edit_url(table), etag)
    assert response.status_code == 304
    assert len(queries) == 1
    assert "revision" in queries[0]["sql"]
    # No session, CSRF or template ran: no cookie set. Only the middleware that add the
    # security headers ran (a 304 carries those of a 200: tests/tables/test_text_input.py).
    assert not response.cookies
    assert "Content-Security-Policy" in response


def test_a_wrong_key_or_unknown_table_never_gets_a_304(client: Client) -> None:
    table = make_table()
    etag = poll(client, edit_url(table))["ETag"]
    wrong = reverse("tables:edit_board", args=[table.id, "not-the-key"])
    assert poll(client, wrong, etag).status_code == 404
    assert poll(client, "/t/nosuchtable/", etag).status_code == 404
    assert poll(client, "/api/v1/tables/nosuchtable", '"r1"').status_code == 404


def test_a_post_with_if_none_match_is_not_short_cut(client: Client) -> None:
    table = make_table()
    etag = poll(client, view_url(table))["ETag"]
    response = client.post(view_url(table), headers={"If-None-Match": etag})
    assert response.status_code == 403


def test_the_api_state_304_comes_from_the_middleware_too(client: Client, monkeypatch) -> None:
    table = make_table()
    first = client.get(f"/api/v1/tables/{table.id}")
    monkeypatch.setattr(services, "table_revision", lambda table_id: None)  # the view's path
    response = client.get(f"/api/v1/tables/{table.id}", headers={"If-None-Match": first["ETag"]})
    assert response.status_code == 304
    assert response["ETag"] == first["ETag"] == f'"r{table.revision}"'
    star = client.get(f"/api/v1/tables/{table.id}", headers={"If-None-Match": "*"})
    assert star.status_code == 304


def test_weak_and_listed_etags_match() -> None:
    def matches(header: str) -> bool:
        request = RequestFactory().get("/t/x/", headers={"If-None-Match": header})
        return conditional.not_modified(request, '"b3-es-p-x"') is not None

    assert matches('W/"b3-es-p-x"') and matches('"a", "b3-es-p-x"') and matches("*")
    assert not matches('"b3-es-p-y"') and not matches("")


def test_the_live_part_polls_its_own_link_every_second_and_a_half(client: Client) -> None:
    table = make_table()
    for url in (view_url(table), edit_url(table)):
        html = client.get(url + "?deshecha=3").content.decode()
        assert f'hx-get="{url}?live=1"' in html
        assert 'hx-trigger="every 1500ms, refresh"' in html
        assert 'hx-swap="outerHTML"' in html


def test_the_undo_button_follows_the_polled_revision(client: Client) -> None:
    # Another phone added a hand: the polled part brings the undo form's new revision.
    table = make_table()
    services.add_hand(table, RECORD, via="api")
    services.add_hand(table, RECORD, via="api")
    html = poll(client, edit_url(table)).content.decode()
    assert f'name="revision" value="{Table.objects.get().revision}"' in html


def test_the_chart_numbers_are_svg_numbers_in_spanish_too(client: Client) -> None:
    # A Spanish page once wrote y1="4,0", which no browser draws.
    table = make_table()
    services.add_hand(table, RECORD, via="api")
    html = client.get(view_url(table)).content.decode()
    chart = html[html.index('<figure class="chart">') : html.index("</figure>")]
    numbers = re.findall(r'(?:x1|x2|y1|y2|cx|cy)="([^"]*)"', chart)
    assert numbers and all(re.fullmatch(r"-?\d+(\.\d+)?", n) for n in numbers), numbers


def test_plain_http_is_redirected_before_any_304_when_https_is_required(
    client: Client, settings: Any
) -> None:
    table = make_table()
    etag = poll(client, view_url(table))["ETag"]
    settings.SECURE_SSL_REDIRECT = True
    # The middleware reads the setting when the handler is built: a fresh client builds one.
    response = Client().get(view_url(table), headers={**HX, "If-None-Match": etag})
    assert response.status_code == 301
    assert response["Location"].startswith("https://")
