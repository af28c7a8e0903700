"""The TypedDicts of muscore/rules/contract.py describe what the engine really takes and
gives: every shared example's record, result, vaca and replay is checked against them,
key by key and value by value, so a key added, dropped or renamed makes the types say so.
"""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from muscore.rules import Checkpoint, HandDraft, replay, replay_evening, score, score_piedras
from muscore.rules import contract as c
from muscore.rules.cards import Rules

DATA = Path(__file__).parent / "data"
HANDS = [json.loads(line) for name in ("hands.jsonl", "individual.jsonl")
         for line in (DATA / name).read_text().splitlines() if line]
VACAS = [json.loads(line) for name in ("vacas.jsonl", "individual_vacas.jsonl")
         for line in (DATA / name).read_text().splitlines() if line]
#: The examples that score (the others expect an error).
SCORED_HANDS = [h for h in HANDS if h["expect"] != "error"]
SCORED_VACAS = [v for v in VACAS if v["expect"] != "error"]


def conforms(value: Any, kind: Any, where: str = "$") -> None:
    """Assert that `value` (plain JSON-like data) is of the type `kind`."""
    origin = get_origin(kind)
    if kind is Any:
        return
    if typing.is_typeddict(kind):
        assert isinstance(value, dict), where
        hints = get_type_hints(kind)
        assert kind.__required_keys__ <= set(value) <= set(hints), (
            where, kind.__name__, sorted(value))
        for key, item in value.items():
            conforms(item, hints[key], f"{where}.{key}")
    elif origin is typing.Literal:
        assert value in get_args(kind), (where, value, get_args(kind))
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in get_args(kind):
            try:
                conforms(value, option, where)
                return
            except AssertionError as error:
                errors.append(error)
        raise AssertionError(where, value, kind, errors)
    elif origin is list:
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            conforms(item, get_args(kind)[0], f"{where}[{i}]")
    elif origin is dict:
        key_type, item_type = get_args(kind)
        assert isinstance(value, dict), where
        for key, item in value.items():
            conforms(key, key_type, f"{where}<key>")
            conforms(item, item_type, f"{where}.{key}")
    elif kind is type(None):
        assert value is None, where
    elif kind is int:
        assert type(value) is int, (where, value)
    else:
        assert isinstance(value, kind), (where, value, kind)


@pytest.mark.parametrize("case", SCORED_HANDS, ids=lambda h: h["name"])
def test_every_example_record_and_result_has_the_contract_type(case: dict[str, Any]) -> None:
    conforms(case["record"], c.HandRecord)
    result = score(case["record"])
    conforms(json.loads(json.dumps(result)), c.HandResultDict)
    conforms(result, c.HandResultDict)  # Side and Lance members are the same strings


@pytest.mark.parametrize("case", SCORED_VACAS, ids=lambda v: v["name"])
def test_every_example_vaca_and_replay_has_the_contract_type(case: dict[str, Any]) -> None:
    conforms(case["record"], c.VacaRecord)
    conforms(replay(case["record"]), c.VacaReplay)
    vaca = case["record"]
    evening = replay_evening(vaca.get("rules"), vaca["hands"], Checkpoint(0, vaca.get("mano", 0)))
    conforms(evening, c.Evening)


def test_a_tap_and_a_draft_have_the_contract_types() -> None:
    conforms(score_piedras({"piedras": {"side": "B", "n": 5}}, Rules(), 38, 36), c.HandResultDict)
    draft = HandDraft.from_record({"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7",
                                             "3": "S S 7 7"}})
    conforms(draft.to_record(), c.HandRecord)
    conforms(draft.result(), c.HandResultDict)
    preview = draft.preview()
    for step in preview.steps:
        conforms(step, c.StepDict)
    conforms(preview.score, c.Score)


def test_a_draft_of_individual_play_has_the_contract_types() -> None:
    record = next(case["record"] for case in SCORED_HANDS if "out" in json.dumps(case["record"]))
    draft = HandDraft.from_record(record)
    conforms(draft.to_record(), c.HandRecord)
    conforms(draft.result(), c.HandResultDict)
    conforms(draft.preview().score, c.Score)
    conforms(score_piedras({"piedras": {"side": "E", "n": 5}}, Rules(players=5), 1, 2, 3, 4, 5),
             c.HandResultDict)


def test_the_check_can_fail() -> None:
    with pytest.raises(AssertionError):
        conforms({"score": {"A": 1, "B": 2}}, c.HandResultDict)
    with pytest.raises(AssertionError):
        conforms({"side": "G", "points": 1}, c.LanceResultDict)
    with pytest.raises(AssertionError):
        conforms({"bets": [{"side": "A", "n": "two"}]}, c.LanceBets)
