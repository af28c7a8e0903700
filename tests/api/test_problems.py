"""Every refusal of the API is RFC 9457 problem details (issue 36.5): application/problem+json
with type, title, status and detail, the refusal's code, its words in the request's
language, and the members the API answered before (error, message, the family's own), so
that no client matching them breaks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils.translation import override

from muscore.api import openapi_examples
from muscore.messages import page_message
from muscore.rules import RuleError, score
from muscore.tables import services

pytestmark = pytest.mark.django_db

HAND = {"hands": dict(openapi_examples.SEED_HANDS)}
FIRST_BET_OF_1 = {**HAND, "lances": {"grande": {"bets": [{"side": "A", "n": 1}]}}}


def post(client: Client, path: str, body: Any, **headers: str) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json", headers=headers)


def assert_problem(response: Any, status: int, family: str, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["type"] == f"urn:muscore:problem:{family}:{code}"
    assert body["title"] and body["status"] == status and body["code"] == code
    assert body["detail"] and body["error"]
    return body


def test_an_engine_refusal_carries_its_code_and_its_words_in_each_language(
    client: Client,
) -> None:
    with pytest.raises(RuleError) as raised:
        score(FIRST_BET_OF_1)
    refusal = raised.value
    english = assert_problem(post(client, "/api/v1/score", FIRST_BET_OF_1), 400, "rules",
                             "first_bet")
    # Without Accept-Language: the contract's English, as before, detail and error alike.
    assert english["detail"] == english["error"] == str(refusal)
    assert "message" not in english
    for language in ["es", "eu", "fr"]:
        body = assert_problem(
            post(client, "/api/v1/score", FIRST_BET_OF_1, **{"Accept-Language": language}),
            400, "rules", "first_bet")
        with override(language):
            worded = page_message(refusal)
        assert body["detail"] == body["message"] == worded != str(refusal), language
        assert body["error"] == str(refusal)  # what a client matched before: unchanged
        assert body["title"] == english["title"] == "First bet"  # the type's, not the language's


def test_a_stale_edit_keeps_its_revision_beside_the_problem(client: Client) -> None:
    created = post(client, "/api/v1/tables", {}).json()
    key = {"X-Table-Key": created["edit_key"]}
    url = f"/api/v1/tables/{created['id']}"
    assert post(client, url + "/hands", HAND, **key).status_code == 201
    stale = client.put(url + "/hands/1", json.dumps(HAND), content_type="application/json",
                       headers={**key, "If-Match": '"r1"', "Accept-Language": "es"})
    body = assert_problem(stale, 409, "table", "stale_edit")
    assert body["revision"] == 2 and body["title"] == "Stale edit"
    assert body["detail"] != body["error"]  # Spanish, then English


@pytest.mark.parametrize(("method", "path", "headers", "status", "family", "code"), [
    ("get", "/api/v1/tables/nope", {}, 404, "table", "table_not_found"),
    ("get", "/api/v1/tables/x/hands/%0A", {}, 404, "api", "not_found"),
    ("delete", "/api/v1/score", {}, 405, "api", "method_not_allowed"),
    ("get", "/api/v1/leagues/999999", {}, 404, "api", "league_not_found"),
    ("get", "/api/v1/championships/999999", {}, 404, "api", "championship_not_found"),
])
def test_the_api_s_own_refusals_are_problems_too(
    client: Client, method: str, path: str, headers: dict[str, str], status: int, family: str,
    code: str,
) -> None:
    assert_problem(getattr(client, method)(path, headers=headers), status, family, code)


def test_a_request_s_own_mistakes_have_their_codes(client: Client) -> None:
    created = post(client, "/api/v1/tables", {}).json()
    key = {"X-Table-Key": created["edit_key"]}
    url = f"/api/v1/tables/{created['id']}"
    assert_problem(client.post("/api/v1/score", "{", content_type="application/json"), 400,
                   "request", "not_json")
    assert_problem(post(client, "/api/v1/score", [1]), 400, "request", "not_an_object")
    assert_problem(post(client, "/api/v1/tables", {"colour": "red"}), 400, "request",
                   "unknown_key")
    assert_problem(post(client, url + "/hands", {**HAND, "number": "1"}, **key), 400,
                   "request", "not_whole")
    assert_problem(post(client, url + "/hands", HAND), 403, "api", "no_key")
    assert_problem(client.get(url + "?finished=all"), 400, "request", "bad_finished")


def test_the_document_describes_the_problem(client: Client) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    error = spec["components"]["schemas"]["Error"]
    assert {"type", "title", "status", "detail", "code", "error"} <= set(error["required"])
    problem = spec["paths"]["/api/v1/score"]["post"]["responses"]["400"]["content"]
    assert list(problem) == ["application/problem+json"]
    # Its example is the answer, member for member.
    assert post(client, "/api/v1/score", openapi_examples.SCORE_ERROR_REQUEST).json() == (
        problem["application/problem+json"]["example"])
    services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])  # the database works
