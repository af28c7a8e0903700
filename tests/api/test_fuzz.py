"""Fuzz the tables API with random and malformed bodies (issue #4): never a 500, and a
rejected request never changes anything; and every answer is what the OpenAPI document
says (issue #21 point 10: schemathesis's response checks over real HTTP)."""

from __future__ import annotations

import copy
import json
import re
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NOT_SET
from schemathesis.generation.meta import TestPhase

from muscore.api import openapi, openapi_examples
from muscore.leagues import ceros_rounds, competitions, documents, imports, prepared, results
from muscore.leagues.models import Competition
from muscore.tables import services
from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from tests.championships.factory import small_championship
from tests.clubs.factory import make_club, make_league, make_user
from tests.examples import examples
from tests.leagues.factory import club_with_pairs
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN
from tests.tables.factory import SEED_CARDS, make_deje_record, make_hands, make_record, make_table

pytestmark = pytest.mark.django_db

# Deterministic (issue 36.5): the same examples every run, on every machine, alone or
# after any other test (derandomize seeds hypothesis from the test's name, and no case
# reads a counter another case moved); bounded so that the three of them take seconds.
FUZZ = settings(
    max_examples=examples(60),
    deadline=None,
    derandomize=True,
    database=None,
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


# -- the OpenAPI document and the API agree (issue 21.10) --------------------------------------
# schemathesis over real HTTP (pytest-django's live server) with its response checks: every
# answer's status is one the document lists, its body matches that status's schema and its
# content type the documented one, its headers the documented ones' schemas. Most cases of
# a table's operations go to a real table, those of a league's operations to every kind of
# league (played, groups, ceros, export being made, export stale, being imported): a random
# id would only ever meet the 404. Bounded: a few examples per operation, well within a
# minute or two on SQLite and PostgreSQL.

# Every check schemathesis has (issue 28): the response checks above, and those of the
# requests themselves: a request the document calls invalid is refused (negative data), one
# it calls valid accepted (positive data), a required header left out refused, a method it
# does not list answered 405 with its Allow header, a deleted resource gone (use after free)
# and a created one there (resource availability), a missing key refused (ignored auth).
load_all_checks()
# schemathesis' own, not a check another test module registered in the same process (under
# xdist, test_openapi.py's error_is_the_error_object when it was imported first).
RESPONSE_CHECKS = [check for check in CHECKS.get_all()
                   if check.__module__.startswith("schemathesis.")]
ALL_CHECK_NAMES = {
    "not_a_server_error", "status_code_conformance", "content_type_conformance",
    "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
    "positive_data_acceptance", "missing_required_header", "unsupported_method",
    "allow_header_conformance", "use_after_free", "ensure_resource_availability",
    "ignored_auth", "object_level_authorization",
}  # fmt: skip
# The operations whose bodies also follow the game's rules (docs/contract.md) and the
# table's state, which no JSON Schema can say (a fifth king, a bet in pares a side does not
# hold, a hand after the vaca, a perete at a table that does not play it, two seats of one
# name as a reader tells people apart: "Ana" and "ana."): a body the document calls valid
# may still be the documented 400 ("breaks a rule of the game"). Every other operation's
# valid request is accepted.
GAME_RULE_OPERATIONS = ["score", "replay", "createTable", "importTable", "addHand",
                        "replaceHand", "addPiedras", "addPerete"]
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429"]


# The cases come from the document itself; each is sent over HTTP to the live server.
live_schema = schemathesis.openapi.from_dict(openapi.spec(), config=SchemathesisConfig.from_dict({
    "operations": [{"include-operation-id": GAME_RULE_OPERATIONS, "checks": {
        "positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}}}],
}))
live_schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=examples(5),
)


# The leagues the league operations' cases aim at, one of each kind of answer. A league is
# worker-made (its export never made in a request, prepared.small) past this many matches:
# the 4-pair liguilla and the groups competition stay under it, the 7-pair ones over it.
INLINE_MATCHES = 20


def _make_leagues(settings: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Real competitions, made as the app makes them: name -> id."""
    monkeypatch.setattr(prepared, "INLINE_MATCHES", INLINE_MATCHES)
    organiser = make_user("maite")
    made: dict[str, int] = {}
    # Played: results by hand, a no-show, and a vaca won on the match's table.
    played = make_league(make_club("Bar Txoko", organiser), 4, results=3)
    match = played.matches.unplayed().order_by("number").first()
    assert match is not None
    table = competitions.open_table(match, by=organiser)
    for record in [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]:
        services.add_hand(table, record, via="edit_link")
    made["played"] = played.pk
    # Groups and their knockout: the standings name each pair's group.
    made["groups"] = make_league(make_club("Peña Mus", organiser), 8, format="groups").pk
    # A ceros tournament with a round played: its document is the export (league.md's
    # format "ceros"), its table not the standings (409 for the document with them).
    club, user, pairs = club_with_pairs(5, organiser)
    ceros = competitions.create_competition(club, by=user, name="Torneo a ceros", pairs=pairs,
                                            format="ceros", ceros=2)
    ceros_rounds.make_round(ceros, by=user)
    for ceros_match in ceros_rounds.publish_round(ceros, by=user).matches.all():
        results.record_result(ceros_match, by=user, juegos=[3, 1], reason="acta")
    made["ceros"] = ceros.pk
    # Large (worker-made) and its export never made: the 202 "preparing".
    made["preparing"] = make_league(make_club("Txoko Zaharra", organiser), 7, results=4).pk
    # Large, its export made by the worker, then a result: the previous one, marked stale.
    stale = make_league(make_club("Bar Kaixo", organiser), 7, results=4)
    prepared.make(stale.pk)
    following = stale.matches.unplayed().order_by("number").first()
    assert following is not None
    results.record_result(following, by=organiser, juegos=[3, 2])
    made["stale"] = stale.pk
    # Being imported: a document past MUSCORE_IMPORT_IN_REQUEST_MAX, left to the worker.
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 2
    importing = imports.import_competition(
        make_club("Txoko Berri", organiser), documents.league_document(played, hands=True),
        by=organiser)
    assert importing.status == Competition.Status.IMPORTING
    made["importing"] = importing.pk
    return made


@pytest.fixture
def leagues(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[], dict[str, int]]:
    """The leagues, made on the first case that asks (not for the tables' operations)."""
    made: dict[str, int] = {}
    tried: list[bool] = []

    def get() -> dict[str, int]:
        if not made:
            # Once: a failure halfway leaves its rows, and the next case would only say so.
            assert not tried, "the leagues could not be made: see the first failure"
            tried.append(True)
            made.update(_make_leagues(settings, monkeypatch))
        return made

    return get


# schemathesis' coverage phase makes a case of every boundary and every branch of a body's
# schema: 1,100 for an import, 600 for a replay, over 2 minutes in all. A coverage case
# with a body is sent when its own content says so (one in THINNED, by a checksum of the
# case: the same cases every run, whatever ran before); one without a body (a parameter's
# boundary: a few per operation) always.
THINNED = 8


def _digest(case: Any) -> int:
    """A checksum of what the case sends: stable across runs and processes (hash() of a
    str is not), so each decision below is the case's own."""
    sent = repr((case.method, case.path, case.path_parameters, case.query, case.headers,
                 case.body))
    return zlib.crc32(sent.encode("utf-8", "surrogatepass"))


def _thinned(case: Any) -> bool:
    """Whether this coverage case is one left out."""
    if case.meta is None or case.meta.phase.name != TestPhase.COVERAGE:
        return False
    return case.body is not NOT_SET and _digest(case) % THINNED != 0


# The kinds of league a league operation's case goes to, one picked by the case's own
# checksum (never a counter: a case must not depend on what ran before it).
LEAGUE_KINDS = ["played", "groups", "ceros", "preparing", "stale", "importing"]


def _a_league_id(value: Any) -> bool:
    """Whether a generated league_id is one the document calls valid (a whole number from
    1): only such a case may be aimed at a real league. A negative case's id (0, -3, "x")
    is sent as generated, else the invalid request schemathesis made would reach a real
    league as a valid one, and its 200 would read as "invalid data accepted" (ST201)."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,18}", value):
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


@pytest.mark.django_db(transaction=True)
@live_schema.parametrize()
@settings(max_examples=examples(5), deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_answer_matches_the_openapi_document(
    live_server: Any, leagues: Callable[[], dict[str, int]], case: Any
) -> None:
    if _thinned(case):
        return
    digest = _digest(case)  # of the case as generated, before a real id takes its place
    params = case.path_parameters or {}
    if "table_id" in params and len(str(params["table_id"])) % 4:
        # Most cases aim at a real table (a hand and a piedras tap, whose answers the
        # document must describe too) and its key; the rest keep what was generated.
        table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
        services.add_hand(table, {"hands": dict(openapi_examples.SEED_HANDS)}, via="api")
        services.add_piedras(table, side="A", n=5, via="api")
        params["table_id"] = table.id
        if "X-Table-Key" in (case.headers or {}) and len(str(case.headers)) % 3:
            # Only in place of a generated key: a case without the header (schemathesis'
            # missing_required_header) must meet the 403.
            case.headers = {**case.headers, "X-Table-Key": table.edit_key}
    if ("league_id" in params and _a_league_id(params["league_id"])
            and len(str(params["league_id"])) % 4):
        # Most cases go to a real league, of a kind the case's checksum picks (a random id
        # only ever meets the 404: test_every_kind_of_league_gets_its_own_documented_answer
        # below has each kind's answer on each operation); some with the league's own
        # ETag, which must be the documented 304.
        made = leagues()
        params["league_id"] = league_id = made[LEAGUE_KINDS[digest % len(LEAGUE_KINDS)]]
        if (case.operation.path == "/api/v1/leagues/{league_id}"
                and len(str(case.headers or "")) % 2):
            etag = Client().get(f"/api/v1/leagues/{league_id}").get("ETag")
            case.headers = {**(case.headers or {}), "If-None-Match": etag or "*"}
    response = case.call(base_url=live_server.url)
    case.validate_response(response, checks=RESPONSE_CHECKS)


LEAGUE_PATHS = ["/api/v1/leagues/{league_id}", "/api/v1/leagues/{league_id}/export",
                "/api/v1/leagues/{league_id}/standings.csv",
                "/api/v1/leagues/{league_id}/matches.csv"]
# What each kind of league answers on each of LEAGUE_PATHS: the answers the fuzz above
# checks against the document, pinned so that its leagues keep reaching them.
LEAGUE_ANSWERS = {
    "played": [200, 200, 200, 200],
    "groups": [200, 200, 200, 200],
    "ceros": [409, 200, 200, 200],
    "preparing": [200, 202, 200, 202],  # the export and matches.csv: the worker makes them
    "stale": [200, 200, 200, 200],
    "importing": [202, 202, 202, 202],
}


def _documented_get(live_server: Any, path: str, league_id: int, **headers: str) -> Any:
    """GET one league operation over HTTP, its answer checked against the document."""
    case = live_schema[path]["GET"].Case(path_parameters={"league_id": league_id},
                                          headers=headers or None)
    response = case.call(base_url=live_server.url)
    case.validate_response(response, checks=RESPONSE_CHECKS)
    return response


@pytest.mark.django_db(transaction=True)
def test_every_kind_of_league_gets_its_own_documented_answer(
    live_server: Any, leagues: Callable[[], dict[str, int]]
) -> None:
    made = leagues()
    assert set(made) == set(LEAGUE_ANSWERS) == set(LEAGUE_KINDS)
    for kind, statuses in LEAGUE_ANSWERS.items():
        got = [_documented_get(live_server, path, made[kind]).status_code
               for path in LEAGUE_PATHS]
        assert got == statuses, kind
    # The export being made: 202 "preparing", not "importing".
    preparing = _documented_get(live_server, LEAGUE_PATHS[1], made["preparing"]).json()
    assert preparing["preparing"] is True and not preparing.get("importing")
    # The stale export: the previous revision, whole, marked as being brought up to date.
    stale = _documented_get(live_server, LEAGUE_PATHS[1], made["stale"])
    assert stale.headers["retry-after"] == [str(prepared.RETRY_AFTER)]
    assert (int(stale.headers["x-muscore-revision"][0])
            < int(stale.headers["x-muscore-current-revision"][0]))
    # A played league's ETag: the documented 304, with the same ETag.
    etag = _documented_get(live_server, LEAGUE_PATHS[0], made["played"]).headers["etag"][0]
    unchanged = _documented_get(live_server, LEAGUE_PATHS[0], made["played"],
                                **{"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["etag"] == [etag]


@pytest.mark.django_db(transaction=True)
def test_an_importing_league_s_202_is_the_documented_one_on_every_operation(
    live_server: Any, leagues: Callable[[], dict[str, int]]
) -> None:
    importing = leagues()["importing"]
    spec = openapi.spec()
    for path in LEAGUE_PATHS:
        # With or without a conditional header: 202 as documented.
        for headers in [{}, {"If-None-Match": "*"}]:
            response = _documented_get(live_server, path, importing, **headers)
            assert response.status_code == 202, path
            body = response.json()
            assert body["preparing"] is True and body["importing"] is True, path
            assert body["retry_after"] > 0 and body["message"], path
            assert response.headers["retry-after"] == [str(body["retry_after"])], path
        # The document says so: this path's 202 is the importing league's, with Retry-After.
        documented = spec["paths"][path]["get"]["responses"]["202"]
        assert "Retry-After" in documented["headers"], path
        schema = documented["content"]["application/json"]["schema"]
        name = schema["$ref"].rsplit("/", 1)[1]
        assert "importing" in spec["components"]["schemas"][name]["properties"], path


def _live_post(live_server: Any, path: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{live_server.url}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as failed:
        return failed.code, json.loads(failed.read())


@pytest.mark.django_db(transaction=True)
def test_the_disagreements_of_issue_21_are_gone(live_server: Any) -> None:
    spec = openapi.spec()
    validator = jsonschema_rs.Draft202012Validator
    components = {"components": spec["components"]}

    def valid(name: str, instance: Any) -> bool:
        return validator({"$ref": f"#/components/schemas/{name}", **components}).is_valid(
            instance
        )

    # juegos: 2.0 is the whole number 2 for JSON Schema: the API takes it too.
    status, created = _live_post(live_server, "/api/v1/tables", {"rules": {"juegos": 2.0}})
    assert status == 201 and created["rules"]["juegos"] == 2
    # "mano": null and "rules": null: the document says what the API does with them.
    nulls = {"mano": None, "rules": None, "players": None}
    assert valid("NewTable", nulls)
    assert _live_post(live_server, "/api/v1/tables", nulls)[0] == 201
    # {} to /score: the document refuses it as the API does (no seat has cards or jugadas).
    assert not valid("HandRecord", {})
    assert _live_post(live_server, "/api/v1/score", {})[0] == 400
    # A table with piedras: its answer and its export match the document.
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_piedras(table, side="B", n=5, via="api")
    with urllib.request.urlopen(f"{live_server.url}/api/v1/tables/{table.id}/export") as got:
        exported = json.loads(got.read())
    assert exported["hands"] == [{"piedras": {"side": "B", "n": 5}}]
    assert valid("Export", exported)
    assert not valid("HandRecordBody", exported["hands"][0])  # a piedras entry is no hand


@pytest.mark.django_db(transaction=True)
def test_a_conditional_read_with_a_bad_finished_is_the_documented_400(live_server: Any) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    url = f"{live_server.url}/api/v1/tables/{table.id}"
    request = urllib.request.Request(url + "?finished=", headers={"If-None-Match": "*"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400 and "finished must be" in json.loads(refused.value.read())[
        "error"
    ]
    # The same with a shape the document lists: 304, from the cheap path.
    request = urllib.request.Request(url + "?finished=full", headers={"If-None-Match": "*"})
    with pytest.raises(urllib.error.HTTPError) as unchanged:
        urllib.request.urlopen(request, timeout=30)
    assert unchanged.value.code == 304
    # A record's score may leave a side out (it has 0), as the document now says.
    assert _live_post(
        live_server, "/api/v1/score", {"hands": openapi_examples.SEED_HANDS, "score": {"A": 3}}
    )[0] == 200


def test_the_disagreements_of_issue_28_are_gone() -> None:
    """Each of the 8 mismatches schemathesis found (issue 28): the document and the answer
    now say the same of the request."""
    spec = openapi.spec()
    components = {"components": spec["components"]}

    def valid(name: str, instance: Any) -> bool:
        return jsonschema_rs.Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", **components}).is_valid(instance)

    client = Client()

    def post(path: str, body: Any) -> int:
        return client.post(path, json.dumps(body), content_type="application/json").status_code

    hand = {"hands": dict(openapi_examples.SEED_HANDS)}
    # rules and score null: the default, as left out, in the document too.
    for body in [{**hand, "score": None}, {**hand, "rules": None}]:
        assert valid("HandRecord", body) and post("/api/v1/score", body) == 200
    vaca = {"rules": None, "hands": [hand]}
    assert valid("Vaca", vaca) and post("/api/v1/replay", vaca) == 200
    # {"hands": {}}: no seat has cards or jugadas, refused by both.
    assert not valid("HandRecord", {"hands": {}}) and post("/api/v1/score", {"hands": {}}) == 400
    # mano 4 is no seat of a table of 4; it is one of a table of 6 (and of a record's).
    for body, ok in [({"mano": 4}, False), ({"mano": 4, "rules": {"players": 6}}, True),
                     ({"mano": 1, "players": ["Ana", "Bruno"]}, True),
                     ({"mano": 2, "players": ["Ana", "Bruno"]}, False),
                     ({"players": []}, False),
                     ({"players": ["Ana", "Bea", "Carla", "Dani", "Eva", "Fran"]}, True),
                     ({"players": ["Ana"] * 4, "rules": {"players": 2}}, False),
                     ({"players": ["Ana\u0000", "B", "C", "D"]}, False),
                     ({"players": ["\u200b", "B", "C", "D"]}, False),
                     ({"players": [" ", None, "C", "D"]}, True)]:
        assert valid("NewTable", body) is ok, body
        assert post("/api/v1/tables", body) == (201 if ok else 400), body
    # Two seats of one name: valid to the document, which says in words only that they are
    # refused (as "Ana" and "ana." are one: issue 38.9), and refused.
    assert valid("NewTable", {"players": ["Ana"] * 6})
    assert post("/api/v1/tables", {"players": ["Ana"] * 6}) == 400
    for record, ok in [({**hand, "mano": 3}, True), ({**hand, "mano": 4}, False)]:
        assert valid("HandRecord", record) is ok and post("/api/v1/score", record) == (
            200 if ok else 400)
    # An import without players: its seats' default names, as the document now says.
    imported = {"format": "muscore-table", "version": 1, "hands": [hand]}
    assert valid("ImportedTable", imported) and post("/api/v1/tables/import", imported) == 201
    assert not valid("Export", imported)  # an export always has them
    # pagina=10^18: past the document's maximum, and refused.
    pagina = spec["paths"]["/api/v1/championships/{championship_id}"]["get"]["parameters"][1]
    assert pagina["name"] == "pagina" and pagina["schema"]["maximum"] < 10**18
    championship = small_championship(bars=[("Bar Txoko", 1)])[0]
    url = f"/api/v1/championships/{championship.pk}"
    assert client.get(f"{url}?pagina=1000000000000000000").status_code == 400
    assert client.get(f"{url}?pagina=999999999").status_code == 200  # the last page
    assert client.get(f"{url}?pagina=\u00b2").status_code == 400  # "²".isdigit(), no number


def test_the_document_is_held_to_every_check_schemathesis_has() -> None:
    # A schemathesis that brings another check is noticed here, and the suite runs it too.
    assert {check.__name__ for check in RESPONSE_CHECKS} == ALL_CHECK_NAMES
