"""POST /api/v1/score and /api/v1/replay over real HTTP (pytest-django's live_server)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.rules.test_examples import HANDS, INDIVIDUAL, INDIVIDUAL_VACAS, VACAS, matches

# An error's answer: RFC 9457 problem details with its code, and "error" (issue 36.5).
PROBLEM = {"type", "title", "status", "detail", "code", "error"}


def post(url: str, body: bytes, content_type: str = "application/json") -> tuple[int, Any]:
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": content_type}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.django_db
def test_score_answers_every_example(live_server: Any) -> None:
    for case in HANDS:
        status, body = post(f"{live_server.url}/api/v1/score", json.dumps(case["record"]).encode())
        if case["expect"] == "error":
            assert status == 400, case["name"]
            assert set(body) == PROBLEM and body["error"] and body["code"]
        else:
            assert status == 200, (case["name"], body)
            matches(case["expect"], body)


@pytest.mark.django_db
def test_replay_answers_the_vaca_examples(live_server: Any) -> None:
    for case in VACAS:
        status, body = post(f"{live_server.url}/api/v1/replay", json.dumps(case["record"]).encode())
        assert status == 200
        matches(case["expect"], body)


@pytest.mark.django_db
def test_score_answers_every_individual_example(live_server: Any) -> None:
    """Issue 37: individual play of 2 to 6 over real HTTP; the five records that break the
    contract are a 400 with the error's problem details, and the API answers what the engine
    does."""
    from muscore.rules import RuleError, score

    refused = 0
    for case in INDIVIDUAL:
        status, body = post(f"{live_server.url}/api/v1/score", json.dumps(case["record"]).encode())
        if case["expect"] == "error":
            refused += 1
            assert status == 400, case["name"]
            with pytest.raises(RuleError) as raised:
                score(case["record"])
            assert set(body) == PROBLEM and body["status"] == 400
            assert (body["error"], body["code"]) == (str(raised.value), raised.value.code)
        else:
            assert status == 200, (case["name"], body)
            matches(case["expect"], body)
            assert body == json.loads(json.dumps(score(case["record"])))
    assert refused == 5


@pytest.mark.django_db
def test_replay_answers_the_individual_vacas(live_server: Any) -> None:
    for case in INDIVIDUAL_VACAS:
        status, body = post(f"{live_server.url}/api/v1/replay", json.dumps(case["record"]).encode())
        assert status == 200, body
        matches(case["expect"], body)
        assert set(body["juegos"]) == set("ABCDEF"[:case["record"]["rules"]["players"]])


@pytest.mark.django_db
def test_replay_refuses_a_player_not_at_the_table(live_server: Any) -> None:
    vaca = {"rules": {"players": 3}, "hands": [{"piedras": {"side": "D", "n": 5}}]}
    status, body = post(f"{live_server.url}/api/v1/replay", json.dumps(vaca).encode())
    assert status == 400
    assert body["error"] == ('Hand 1: Piedras are tapped for a player of the table (A, B and C), '
                             'not "D".')


@pytest.mark.django_db
def test_replay_refuses_a_hand_after_the_vaca(live_server: Any) -> None:
    seed = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}
    vaca = {"rules": {"juegos": 1}, "hands": [seed] * 6}
    status, body = post(f"{live_server.url}/api/v1/replay", json.dumps(vaca).encode())
    assert status == 400
    assert "Hand 6" in body["error"] and "vaca" in body["error"]


@pytest.mark.parametrize(
    "body, words",
    [
        (b"", "JSON"),
        (b"{not json", "JSON"),
        (b"[1, 2]", "object"),
        (b"\xff\xfe", "UTF-8"),
        (b"[" * 100_000, "JSON"),
        (b'{"hands": {"0": "R R 5 9"}}', "'9' is not a card"),
        (b'{"colour": "red"}', "colour"),
    ],
)
def test_score_bad_bodies_get_a_clear_400(client: Any, body: bytes, words: str) -> None:
    response = client.post("/api/v1/score", body, content_type="application/json")
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_score_only_takes_post(client: Any) -> None:
    response = client.get("/api/v1/score")
    assert response.status_code == 405
    assert "error" in response.json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 60) | st.text(max_size=8)
    | st.sampled_from(["R R 5 4", "A", "ordago", "quiero", "no_quiero", "A", "B", "par"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(
        st.sampled_from(["rules", "mano", "score", "hands", "lances", "jugadas", "winners",
                         "grande", "pares", "juego", "punto", "bets", "end", "side", "n", "0",
                         "1", "2", "3", "A", "B", "players", "target", "reyes", "x"]),
        children, max_size=5,
    ),
    max_leaves=20,
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=json_values)
def test_score_never_answers_500_for_any_json_body(client: Any, body: Any) -> None:
    for url in ("/api/v1/score", "/api/v1/replay"):
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code in (200, 400), response.content
        if response.status_code == 400:
            assert set(response.json()) == PROBLEM
