"""What tables of 2, 4 and 6 stored before individual play (issue 37) scores exactly as it did.

``data/golden_hands.jsonl.gz`` and ``data/golden_vacas.jsonl.gz`` hold 2,100 hand records
and 150 vacas (tests/rules/golden_records.py) with the answers of the engine before issue
37 (main at 045fc67): the result, byte for byte in the order of its keys, or the error's
code and English. The engine must still give every one of them; and with 2 players, each
for himself, a record says the same with ``"individual": true`` as without it.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from muscore.rules import RuleError, replay, score

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[dict[str, Any]]:
    text = gzip.decompress((DATA / f"{name}.jsonl.gz").read_bytes()).decode()
    return [json.loads(line) for line in text.splitlines() if line]


HANDS = load("golden_hands")
VACAS = load("golden_vacas")


def answer(function: Any, record: Any) -> dict[str, Any]:
    try:
        return {"result": function(record)}
    except RuleError as error:
        return {"error": str(error), "code": error.code}


def expected(case: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in case.items() if k != "record"}, ensure_ascii=False)


def individual(record: dict[str, Any]) -> dict[str, Any]:
    """The record with ``"individual": true`` added to its rules."""
    record = copy.deepcopy(record)
    record.setdefault("rules", {})["individual"] = True
    return record


def test_the_golden_files_hold_every_kind_of_answer() -> None:
    players = {case["record"]["rules"]["players"] for case in HANDS}
    assert players == {2, 4, 6}
    errors = {case["code"] for case in HANDS if "error" in case}
    assert len(errors) >= 12  # refusals of many kinds, not one
    whys = {step["why"] for case in HANDS if "result" in case
            for step in case["result"]["recuento"]}
    assert whys == {"paso", "deje", "solo", "quiero", "no_quiero", "mentira"}
    assert sum("result" in case for case in VACAS) >= 100


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_golden_hand_scores_as_before(players: int) -> None:
    cases = [case for case in HANDS if case["record"]["rules"]["players"] == players]
    wrong = [case["record"] for case in cases
             if json.dumps(answer(score, case["record"]), ensure_ascii=False) != expected(case)]
    assert not wrong, f"{len(wrong)} of {len(cases)} differ, the first: {wrong[0]}"


def test_two_players_score_alike_with_individual_true() -> None:
    cases = [case for case in HANDS if case["record"]["rules"]["players"] == 2]
    wrong = [case["record"] for case in cases
             if json.dumps(answer(score, individual(case["record"])), ensure_ascii=False)
             != expected(case)]
    assert not wrong, f"{len(wrong)} of {len(cases)} differ, the first: {wrong[0]}"


def test_every_golden_vaca_replays_as_before() -> None:
    wrong = [case["record"] for case in VACAS
             if json.dumps(answer(replay, case["record"]), ensure_ascii=False) != expected(case)]
    assert not wrong, f"{len(wrong)} of {len(VACAS)} differ, the first: {wrong[0]}"


def test_two_player_vacas_replay_alike_with_individual_true() -> None:
    cases = [case for case in VACAS if case["record"]["rules"]["players"] == 2]
    wrong = [case["record"] for case in cases
             if json.dumps(answer(replay, individual(case["record"])), ensure_ascii=False)
             != expected(case)]
    assert not wrong, f"{len(wrong)} of {len(cases)} differ, the first: {wrong[0]}"
