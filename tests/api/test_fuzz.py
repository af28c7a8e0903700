"""Fuzz the tables API with random and malformed bodies (issue #4): never a 500, and a
rejected request never changes anything."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from tests.tables.factory import SEED_CARDS, make_deje_record, make_hands, make_record, make_table

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    # Lone surrogates (json.dumps writes "\\ud800"), control and invisible characters: text
    # no page or PostgreSQL column can hold must be a 400 too (issue 10).
    | st.text(
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=())
        | st.characters(max_codepoint=0x1F)
        | st.sampled_from("\u200b\u202e\u2066\u3164a"),
        min_size=1,
        max_size=4,
    )
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
# Words the API and the engine know, so the fuzz reaches past "unknown key".
known_keys = st.sampled_from(
    [
        "hands", "lances", "jugadas", "winners", "number", "client_id", "revision", "rules",
        "players", "mano", "score", "grande", "chica", "pares", "juego", "punto", "bets", "end",
        "side", "n", "0", "1", "2", "3", "target", "reyes", "juegos", "real31", "format",
        "version",
    ]
)  # fmt: skip
known_values = st.sampled_from(
    [
        "A", "B", "ordago", "quiero", "no_quiero", "R R 5 4", "1 1 1 1", "par", "duples", "no",
        31, 40, 0, 1, 2, 6, 8, -1, 10**9, True, [], {}, "random",
    ]
)  # fmt: skip


@st.composite
def mutated_record(draw: st.DrawFn) -> Any:
    """A valid hand record with a few keys set to odd values, deep or shallow."""
    record: Any = draw(st.sampled_from([make_record(), make_deje_record("B")]))
    record = json.loads(json.dumps(record))
    if draw(st.booleans()):
        record["lances"] = {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}
    # No mutation at times: valid writes must go through the same checks as rejected ones.
    for _ in range(draw(st.integers(0, 3))):
        target = record
        path = draw(st.lists(known_keys, min_size=1, max_size=3))
        for key in path[:-1]:
            nxt = target.get(key) if isinstance(target, dict) else None
            if not isinstance(nxt, dict):
                nxt = {}
                target[key] = nxt
            target = nxt
        # A copy: sampled_from hands out the same {} and [] each time, and a record that
        # came to hold one inside itself could not be written as JSON.
        target[path[-1]] = copy.deepcopy(draw(known_values | json_values))
    return record


# Mostly near-valid records (three of the seven branches), the rest junk.
bodies = (
    mutated_record().map(json.dumps)
    | mutated_record().map(json.dumps)
    | mutated_record().map(json.dumps)
    | json_values.map(json.dumps)
    | st.binary(max_size=40)
    | st.text(max_size=40)
    | st.just(json.dumps({"hands": SEED_CARDS, "number": 1}))
    # Over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB): the API's error object, 413.
    | st.just(json.dumps({"players": ["x" * 2_700_000]}))
)


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    return (
        table.revision,
        list(Hand.objects.filter(table=table).values_list("number", "record", "client_id")),
        Change.objects.count(),
        IdempotentWrite.objects.count(),
        Table.objects.count(),
    )


def check(response, table: Table, before: tuple) -> None:
    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"error"} and isinstance(body["error"], str) and body["error"]
        assert snapshot(table) == before


@pytest.fixture
def played():
    table = make_table()
    make_hands(table, [make_record(), make_deje_record()])
    return table


@FUZZ
@given(
    body=bodies,
    number=st.integers(1, 3),
    key_ok=st.booleans(),
    idem=st.sampled_from([None, "k1", "k2"]),
)
def test_random_hand_writes_never_500_and_rejected_ones_change_nothing(
    played, body, number, key_ok, idem
):
    client = Client()
    headers = {"X-Table-Key": played.edit_key if key_ok else "nope"}
    if idem:
        headers["Idempotency-Key"] = idem
    base = f"/api/v1/tables/{played.id}/hands"
    for method, url in [("post", base), ("put", f"{base}/{number}")]:
        before = snapshot(played)
        response = getattr(client, method)(
            url, body, content_type="application/json", headers=headers
        )
        check(response, played, before)
        if not key_ok:
            assert response.status_code in (403,)


@FUZZ
@given(body=bodies | mutated_record().map(lambda r: json.dumps({"players": r})))
def test_random_new_tables_and_imports_never_500(played, body):
    client = Client()
    for url in ["/api/v1/tables", "/api/v1/tables/import"]:
        before = snapshot(played)
        response = client.post(url, body, content_type="application/json")
        check(response, played, before)
        if response.status_code == 201:
            assert Table.objects.filter(pk=response.json()["id"]).exists()


@FUZZ
@given(
    path=st.text(alphabet="abcXYZ019-_/.%", max_size=20),
    method=st.sampled_from(["get", "post", "put", "delete", "patch"]),
    if_match=st.none() | st.text(max_size=12),
    if_none_match=st.none() | st.text(max_size=12),
)
def test_random_paths_methods_and_etag_headers_never_500(
    played, path, method, if_match, if_none_match
):
    client = Client()
    headers = {"X-Table-Key": played.edit_key}
    if if_match is not None:
        headers["If-Match"] = if_match
    if if_none_match is not None:
        headers["If-None-Match"] = if_none_match
    for url in [
        f"/api/v1/tables/{path}",
        f"/api/v1/tables/{played.id}/{path}",
        f"/api/v1/tables/{played.id}/hands/last",
    ]:
        before = snapshot(played)
        response = getattr(client, method)(url, headers=headers)
        assert response.status_code < 500
        if response.status_code >= 400:
            assert snapshot(played) == before
