"""The API's contract (muscore/api/contract.py) is the engine's and the tables' own: each of
its types has the keys and the required keys of the engine's TypedDict it mirrors
(muscore/rules/contract.py, muscore/tables/state.py), its sides and words are the engine's,
the engine's answers to every shared example are of its types, and the OpenAPI document's
schemas are the ones pydantic writes from it (issue 36.5: the contract written once)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

from muscore import rules
from muscore.api import contract as api
from muscore.api import openapi
from muscore.rules import contract as engine
from muscore.tables import state

DATA = Path(__file__).resolve().parent.parent / "rules" / "data"


def _examples(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line]


# The pairs' examples and individual play's (issue 37: sides A..F, out, 3 and 5 players).
HANDS = _examples("hands.jsonl") + _examples("individual.jsonl")
VACAS = _examples("vacas.jsonl") + _examples("individual_vacas.jsonl")

# The API's type and the engine's (or the tables') it mirrors.
MIRRORS: list[tuple[Any, Any]] = [
    (api.Score, engine.Score), (api.Rules, engine.RulesDict), (api.Bet, engine.Bet),
    (api.Lance, engine.LanceBets), (api.Jugada, engine.Jugada), (api.HandRecord, engine.HandRecord),
    (api.PiedrasTap, engine.PiedrasTap), (api.PiedrasEntry, engine.PiedrasEntry),
    (api.PereteNoted, engine.PereteNoted), (api.PereteEntry, engine.PereteEntry),
    (api.LanceResult, engine.LanceResultDict), (api.Premium, engine.Premium),
    (api.Step, engine.StepDict), (api.OrdagoWon, engine.OrdagoWon), (api.Lie, engine.Lie),
    (api.Result, engine.HandResultDict), (api.Vaca, engine.VacaRecord),
    (api.ReplayedEntry, engine.ReplayedEntry), (api.VacaResult, engine.VacaReplay),
    (api.EveningVaca, engine.EveningVaca), (api.VacaSummary, state.VacaSummary),
    (api.TableState, state.TableState), (api.HandEntry, state.StoredHand),
]
# Where the API asks more than the engine's type, and why.
REQUIRED_MORE = {
    # A vaca to replay without its hands is refused (a replay of nothing): the engine's
    # VacaRecord leaves every key optional, as the engine reads one key at a time.
    "Vaca": {"hands"},
}
# Where the API asks less than the engine's type says the engine needs, and why.
REQUIRED_LESS = {
    # A lance without bets is a lance nobody bet (the engine reads "bets" as [] when left
    # out: tested below); the engine's type says what its answers carry.
    "Lance": {"bets"},
    # Always answered, optional as the document always had it: its replay example leaves
    # each entry's result out (tests/api/test_openapi.py checks the example).
    "ReplayedEntry": {"result"},
}


@pytest.mark.parametrize(("ours", "theirs"), MIRRORS, ids=lambda kind: kind.__name__)
def test_each_type_has_the_keys_of_the_engine_s(ours: Any, theirs: Any) -> None:
    assert set(get_type_hints(ours)) == set(get_type_hints(theirs))
    more = REQUIRED_MORE.get(ours.__name__, set())
    less = REQUIRED_LESS.get(ours.__name__, set())
    assert set(ours.__required_keys__) == (set(theirs.__required_keys__) | more) - less


def test_a_lance_without_bets_is_one_nobody_bet() -> None:
    hand = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}
    assert rules.score({**hand, "lances": {"grande": {}}}) == rules.score(hand)


def test_sides_and_words_are_the_engine_s() -> None:
    sides = set(get_args(engine.SideName))
    assert set(get_args(get_type_hints(api.Step)["side"])) == sides
    assert set(get_args(get_type_hints(api.Step)["why"])) == set(get_args(engine.Why))
    ended = get_args(get_type_hints(api.Result)["ended_by"])
    assert {a for kind in ended for a in get_args(kind)} == set(get_args(engine.EndedBy))
    lances = get_type_hints(api.Lances)
    assert set(lances) == set(get_args(api.LanceName)) == {
        lance.value for lance in rules.Lance}


def _strict(kind: Any, value: Any) -> None:
    assert api.refusals(kind, value) == [], (kind, value)


@pytest.mark.parametrize("example", HANDS, ids=lambda e: e["name"])
def test_every_shared_hand_and_its_result_are_of_the_contract_s_types(
    example: dict[str, Any],
) -> None:
    record = example["record"]
    try:
        result = rules.score(record)
    except rules.RuleError:
        return  # an example of a refusal: its record breaks a rule no type says
    _strict(api.HandRecord, record)
    _strict(api.Result, json.loads(json.dumps(result)))


@pytest.mark.parametrize("example", VACAS, ids=lambda e: e["name"])
def test_every_shared_vaca_and_its_replay_are_of_the_contract_s_types(
    example: dict[str, Any],
) -> None:
    record = example["record"]
    try:
        replayed = rules.replay(record)
    except rules.RuleError:
        return
    _strict(api.Vaca, record)
    _strict(api.VacaResult, json.loads(json.dumps(replayed)))


def test_the_document_s_schemas_are_the_contract_s() -> None:
    """Every schema of the document is written by pydantic from the contract: none is a
    dict written by hand."""
    schemas = openapi.spec()["components"]["schemas"]
    written = api.components()
    assert {name: schemas[name] for name in written} == json.loads(json.dumps(written))
    assert set(schemas) == set(written)
    # Every request body of the document is a type of the contract.
    for path, methods in openapi.spec()["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody")
            if body:
                ref = body["content"]["application/json"]["schema"]["$ref"]
                assert ref.rsplit("/", 1)[1] in api.NAMED, (path, method)


def test_a_request_is_checked_by_the_same_type_the_document_shows() -> None:
    """The contract's refusals are what the document's schema refuses, on the keys the API
    answers itself (tables.check_request): an unknown key, a number that is not whole."""
    assert api.refusals(api.PiedrasRequest, {"side": "A", "n": 5}) == []
    unknown = api.refusals(api.PiedrasRequest, {"side": "A", "n": 5, "x": 1})
    assert [(e["type"], e["loc"]) for e in unknown] == [("extra_forbidden", ("x",))]
    for value in ["3", 2.5, True]:
        refused = api.refusals(api.AddHand, {"hands": {"0": "R R 5 4"}, "number": value})
        assert [e["loc"] for e in refused] == [("number",)], value
    assert api.refusals(api.ReplaceHand, {"hands": {"0": "R R 5 4"}, "revision": None}) == []
