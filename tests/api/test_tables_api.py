"""The tables JSON API (issue #3 point 5, issue #4): status codes, shapes, keys, ETags."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.test import Client

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Change, Hand, Table
from tests.tables.factory import (
    make_bad_record,
    make_deje_record,
    make_hands,
    make_record,
    make_table,
    strip_labels,
    vaca_replay,
)

pytestmark = pytest.mark.django_db


def post(client, url: str, body: Any = None, key: str | None = None, **headers: str):
    data = body if isinstance(body, str | bytes) else json.dumps(body) if body is not None else ""
    if key is not None:
        headers["X-Table-Key"] = key
    return client.post(url, data, content_type="application/json", headers=headers)


def put(client, url: str, body: Any, key: str | None = None, **headers: str):
    if key is not None:
        headers["X-Table-Key"] = key
    return client.put(url, json.dumps(body), content_type="application/json", headers=headers)


def delete(client, url: str, key: str | None = None, **headers: str):
    if key is not None:
        headers["X-Table-Key"] = key
    return client.delete(url, headers=headers)


def hands_url(table: Table) -> str:
    return f"/api/v1/tables/{table.id}/hands"


def stored(table: Table) -> tuple:
    table.refresh_from_db()
    return (
        table.revision,
        list(Hand.objects.filter(table=table).values_list("number", "record")),
        Change.objects.filter(table=table).count(),
    )


# --- create -------------------------------------------------------------------------------------


def test_post_tables_with_no_body_makes_a_default_table(client):
    response = post(client, "/api/v1/tables")  # an empty body, as `curl -X POST` sends
    assert response.status_code == 201
    body = response.json()
    table = Table.objects.get(pk=body["id"])
    assert body["edit_key"] == table.edit_key
    assert body["players"] == ["A1", "B1", "A2", "B2"]
    assert body["rules"]["target"] == 40
    assert body["current"]["hands"] == [] and body["finished"] == []
    assert body["view_url"].endswith(f"/t/{table.id}/")
    assert body["edit_url"].endswith(f"/t/{table.id}/k/{table.edit_key}/")
    assert table.edit_key not in body["view_url"]
    assert response["ETag"] == f'"r{table.revision}"'


def test_post_tables_takes_rules_players_and_mano(client):
    body = {"rules": {"target": 30}, "players": ["Ana", "Bruno", "Carla", "Diego"], "mano": 2}
    response = post(client, "/api/v1/tables", body)
    assert response.status_code == 201
    state = response.json()
    assert state["players"] == body["players"]
    assert state["rules"]["target"] == 30
    assert state["current"]["mano"] == 2


def test_html_in_a_name_comes_back_as_text_in_json(client):
    names = ["<script>alert(1)</script>", "B", "C", "D"]
    response = post(client, "/api/v1/tables", {"players": names})
    assert response.status_code == 201
    assert response["Content-Type"] == "application/json"
    assert response.json()["players"][0] == names[0]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe", "UTF-8"),
        ("[1, 2]", "JSON object"),
        ({"players": ["x" * 10_000, "B", "C", "D"]}, "10000 characters"),
        ({"players": "Ana"}, "list of names"),
        ({"rules": {"target": "40"}}, "target"),
        ({"mano": 9}, "mano"),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_a_bad_new_table_gets_400_with_the_reason_and_no_table(client, body, words):
    response = post(client, "/api/v1/tables", body)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert not Table.objects.exists()


# --- reading ------------------------------------------------------------------------------------


def test_get_returns_the_state_with_an_etag(client):
    table = make_table()
    state = make_hands(table, [make_record(), make_deje_record()])
    response = client.get(f"/api/v1/tables/{table.id}")
    assert response.status_code == 200
    assert response.json() == state
    assert response["ETag"] == f'"r{state["revision"]}"'
    assert set(state) >= {"id", "players", "rules", "current", "finished", "revision"}


def test_an_unchanged_poll_is_304_with_one_query_and_no_replay(
    client, monkeypatch, django_assert_num_queries
):
    table = make_table()
    make_hands(table, [make_record()])
    etag = client.get(f"/api/v1/tables/{table.id}")["ETag"]
    services_state = services.table_state

    def no_state(*args):
        raise AssertionError("the 304 path must not build the state")

    monkeypatch.setattr(services, "table_state", no_state)
    monkeypatch.setattr(rules, "replay", no_state)
    with django_assert_num_queries(1):
        response = client.get(f"/api/v1/tables/{table.id}", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    monkeypatch.setattr(services, "table_state", services_state)


def test_a_poll_after_a_change_gets_the_new_state(client):
    table = make_table()
    etag = client.get(f"/api/v1/tables/{table.id}")["ETag"]
    services.add_hand(table, make_record(), via="edit_link")
    response = client.get(f"/api/v1/tables/{table.id}", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert len(response.json()["current"]["hands"]) == 1
    assert response["ETag"] != etag


def test_an_unknown_table_is_404_with_an_error_everywhere(client):
    for response in [
        client.get("/api/v1/tables/nope"),
        client.get("/api/v1/tables/nope/export"),
        client.get("/api/v1/tables/nope/hands/1"),
        post(client, "/api/v1/tables/nope/hands", make_record(), key="x"),
        delete(client, "/api/v1/tables/nope/hands/last", key="x"),
        put(client, "/api/v1/tables/nope/hands/1", make_record(), key="x"),
    ]:
        assert response.status_code == 404
        assert "no such table" in response.json()["error"]


def test_get_one_hand_gives_its_record_and_result(client):
    table = make_table()
    make_hands(table, [make_record(), make_deje_record()])
    response = client.get(f"/api/v1/tables/{table.id}/hands/2")
    assert response.status_code == 200
    assert response.json()["record"] == make_deje_record()
    assert response.json()["number"] == 2
    assert client.get(f"/api/v1/tables/{table.id}/hands/3").status_code == 404


def test_any_other_path_under_tables_is_a_json_404(client):
    table = make_table()
    for url in [f"/api/v1/tables/{table.id}/hands/abc", f"/api/v1/tables/{table.id}/x/y"]:
        response = client.get(url)
        assert response.status_code == 404
        assert "error" in response.json()


def test_writes_need_the_key_not_a_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert post(client, "/api/v1/tables", {}).status_code == 201
    table = make_table()
    response = post(client, hands_url(table), make_record(), key=table.edit_key)
    assert response.status_code == 201
    assert delete(client, f"{hands_url(table)}/last", key=table.edit_key).status_code == 200
    assert post(client, "/api/v1/tables/import", services.export_table(table)).status_code == 201


def test_a_wrong_method_is_405_in_json(client):
    table = make_table()
    response = client.patch(f"/api/v1/tables/{table.id}")
    assert response.status_code == 405
    assert "PATCH" in response.json()["error"]
    assert response["Allow"] == "GET, HEAD"


# --- adding hands -------------------------------------------------------------------------------


def test_post_a_hand_is_201_with_the_new_state(client):
    table = make_table(mano=1)
    response = post(client, hands_url(table), make_record(), key=table.edit_key)
    assert response.status_code == 201
    state = response.json()
    assert strip_labels(state["current"]) == vaca_replay(table.rules, 1, [make_record()])
    assert response["ETag"] == f'"r{state["revision"]}"'
    assert Change.objects.get(table=table).via == "api"


@pytest.mark.parametrize("key", [None, "", "wrong-key", "view"])
def test_a_write_without_the_edit_key_is_403_and_changes_nothing(client, key):
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    before = stored(table)
    if key == "view":
        key = table.id  # what a view link knows
    for response in [
        post(client, hands_url(table), make_record(), key=key),
        delete(client, f"{hands_url(table)}/last", key=key),
        put(client, f"{hands_url(table)}/1", make_deje_record(), key=key),
    ]:
        assert response.status_code == 403
        assert "X-Table-Key" in response.json()["error"]
    assert stored(table) == before


def test_a_hand_that_breaks_the_rules_is_400_and_nothing_is_saved(client):
    table = make_table()
    before = stored(table)
    response = post(client, hands_url(table), make_bad_record(), key=table.edit_key)
    assert response.status_code == 400
    assert "Seat 0" in response.json()["error"]
    assert stored(table) == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("", "JSON object"),
        ("[]", "JSON object"),
        ("nul", "not valid JSON"),
        ({**make_record(), "score": {"A": 0, "B": 0}}, "score"),
        ({**make_record(), "number": "2"}, "number"),
        ({**make_record(), "number": True}, "number"),
        ({**make_record(), "number": 0}, "number"),
        ({**make_record(), "client_id": 5}, "client id"),
        ({**make_record(), "colour": 1}, "colour"),
    ],
)
def test_a_malformed_hand_body_is_400_naming_the_fault(client, body, words):
    table = make_table()
    response = post(client, hands_url(table), body, key=table.edit_key)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert stored(table)[1] == []


def test_a_hand_for_a_number_already_filled_is_409_with_the_stored_hand(client):
    table = make_table()
    make_hands(table, [make_record()])
    before = stored(table)
    response = post(
        client, hands_url(table), {**make_deje_record(), "number": 1}, key=table.edit_key
    )
    assert response.status_code == 409
    body = response.json()
    assert "hand 1" in body["error"]
    assert body["hand"]["record"] == make_record()
    assert stored(table) == before


def test_the_same_idempotency_key_stores_one_hand_and_answers_the_same(client):
    table = make_table()
    first = post(client, hands_url(table), make_record(), key=table.edit_key, Idempotency_Key="a1")
    again = post(client, hands_url(table), make_record(), key=table.edit_key, Idempotency_Key="a1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert Hand.objects.filter(table=table).count() == 1


def test_an_idempotency_key_reused_for_a_different_hand_is_422(client):
    table = make_table()
    post(client, hands_url(table), make_record(), key=table.edit_key, Idempotency_Key="a1")
    before = stored(table)
    response = post(
        client, hands_url(table), make_deje_record(), key=table.edit_key, Idempotency_Key="a1"
    )
    assert response.status_code == 422
    assert stored(table) == before


def test_the_longest_keys_fit_and_longer_ones_are_400(client):
    table = make_table()
    url = hands_url(table)
    ok = post(client, url, {**make_record(), "client_id": "c" * 100}, key=table.edit_key,
              Idempotency_Key="k" * 150)  # fmt: skip
    assert ok.status_code == 201
    long_id = post(client, url, {**make_record(), "client_id": "c" * 101}, key=table.edit_key)
    long_key = post(client, url, make_record(), key=table.edit_key, Idempotency_Key="k" * 151)
    for response in (long_id, long_key):
        assert response.status_code == 400
        assert "characters" in response.json()["error"]
    assert Hand.objects.filter(table=table).count() == 1


def test_a_client_id_in_the_body_is_a_double_tap_guard(client):
    table = make_table()
    body = {**make_record(), "client_id": "c-1"}
    assert post(client, hands_url(table), body, key=table.edit_key).status_code == 201
    assert post(client, hands_url(table), body, key=table.edit_key).status_code == 201
    assert Hand.objects.get(table=table).client_id == "c-1"


# --- undo and replace ---------------------------------------------------------------------------


def test_delete_last_undoes_the_last_hand(client):
    table = make_table()
    earlier = make_hands(table, [make_record()])
    services.add_hand(table, make_deje_record(), via="api")
    response = delete(client, f"{hands_url(table)}/last", key=table.edit_key)
    assert response.status_code == 200
    assert response.json()["current"] == earlier["current"]


def test_delete_last_on_an_empty_table_is_400(client):
    table = make_table()
    response = delete(client, f"{hands_url(table)}/last", key=table.edit_key)
    assert response.status_code == 400
    assert "no hand to undo" in response.json()["error"]


def test_delete_last_with_a_stale_if_match_is_409(client):
    table = make_table()
    state = make_hands(table, [make_record(), make_record()])
    before = stored(table)
    stale = f'"r{state["revision"] - 1}"'
    response = delete(client, f"{hands_url(table)}/last", key=table.edit_key, If_Match=stale)
    assert response.status_code == 409
    assert stored(table) == before


def test_put_replaces_a_hand_and_replays_the_rest(client):
    table = make_table()
    make_hands(table, [make_record(), make_record()])
    response = put(client, f"{hands_url(table)}/1", make_deje_record("B"), key=table.edit_key)
    assert response.status_code == 200
    state = response.json()
    records = [make_deje_record("B"), make_record()]
    assert strip_labels(state["current"]) == vaca_replay(table.rules, 0, records)
    assert state["changed"] == [1, 2]


def test_put_with_a_stale_revision_in_the_body_or_if_match_is_409(client):
    table = make_table()
    started = make_hands(table, [make_record()])["revision"]
    services.add_hand(table, make_record(), via="edit_link")
    before = stored(table)
    url = f"{hands_url(table)}/1"
    in_body = put(client, url, {**make_deje_record(), "revision": started}, key=table.edit_key)
    in_header = put(client, url, make_deje_record(), key=table.edit_key, If_Match=f'"r{started}"')
    for response in (in_body, in_header):
        assert response.status_code == 409
        assert "changed since" in response.json()["error"]
        assert response.json()["revision"] == started + 1
    assert stored(table) == before


def test_put_with_the_current_revision_is_accepted(client):
    table = make_table()
    revision = make_hands(table, [make_record()])["revision"]
    response = put(
        client,
        f"{hands_url(table)}/1",
        make_deje_record(),
        key=table.edit_key,
        If_Match=f'"r{revision}"',
    )
    assert response.status_code == 200


def test_put_of_a_missing_hand_is_404_and_a_bad_if_match_is_400(client):
    table = make_table()
    make_hands(table, [make_record()])
    assert (
        put(client, f"{hands_url(table)}/2", make_record(), key=table.edit_key).status_code == 404
    )
    response = put(client, f"{hands_url(table)}/1", make_record(), key=table.edit_key, If_Match="x")
    assert response.status_code == 400


# --- export and import --------------------------------------------------------------------------


def test_export_and_import_make_an_identical_table(client):
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"], rules={"juegos": 1}, mano=3)
    make_hands(table, [make_record()] * 6)
    exported = client.get(f"/api/v1/tables/{table.id}/export")
    assert exported.status_code == 200
    assert "attachment" in exported["Content-Disposition"]
    data = exported.json()
    assert {"rules", "mano", "hands", "players"} <= set(data)
    response = post(client, "/api/v1/tables/import", data)
    assert response.status_code == 201
    copy = response.json()
    assert copy["id"] != table.id
    # The same shape as a GET: finished vacas summed up by default, whole when asked.
    for shape in ("", "?finished=full"):
        original = client.get(f"/api/v1/tables/{table.id}{shape}").json()
        if shape:
            copy = client.get(f"/api/v1/tables/{copy['id']}{shape}").json()
        for key in ("players", "rules", "current", "finished"):
            assert copy[key] == original[key]
    assert copy["finished"][0]["hands"]


def test_importing_a_broken_export_is_400_and_creates_nothing(client):
    response = post(client, "/api/v1/tables/import", {"hands": [make_record(), make_bad_record()]})
    assert response.status_code == 400
    assert "hand 2" in response.json()["error"]
    assert not Table.objects.exists()


# --- over real HTTP -----------------------------------------------------------------------------


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, dict(response.headers), json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, dict(exc.headers), json.loads(raw) if raw else None


@pytest.mark.django_db(transaction=True)
def test_a_table_played_over_http_keys_etags_and_all(live_server):
    api = f"{live_server.url}/api/v1/tables"
    status, _, table = http("POST", api, {"players": ["Ana", "Bruno", "Carla", "Diego"]})
    assert status == 201
    key = {"X-Table-Key": table["edit_key"]}
    status, headers, state = http("POST", f"{api}/{table['id']}/hands", make_record(), key)
    assert status == 201
    etag = headers["ETag"]
    assert http("GET", f"{api}/{table['id']}", headers={"If-None-Match": etag})[0] == 304
    assert http("POST", f"{api}/{table['id']}/hands", make_record())[0] == 403
    status, _, undone = http("DELETE", f"{api}/{table['id']}/hands/last", headers=key)
    assert status == 200 and undone["current"]["hands"] == []
    status, headers, body = http("GET", f"{api}/{table['id']}", headers={"If-None-Match": etag})
    assert status == 200 and headers["ETag"] != etag
    assert body["current"] == undone["current"]
