"""Issue 37's property for two players: each for himself is what two players always were.

For any record of two players (cards or none, lies, bets of every shape, refusals), the
engine answers the same with ``"individual": true`` as without it, and a vaca replays the
same; and the answer is the pairs engine's of before issue 37: tests/rules/test_golden.py
holds 1,500 such hands and 100 vacas to the answers main gave at 045fc67, and this test
deals new ones on every run from the same generator (tests/rules/golden_records.py).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import replay, score
from tests.examples import examples
from tests.rules.golden_records import answer, hand_record, vaca_record


def individual(record: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    record.setdefault("rules", {})["individual"] = True
    return record


def said(function: Any, record: dict[str, Any]) -> str:
    """The answer as a client reads it: the result byte for byte, or the error."""
    return json.dumps(answer(function, record), ensure_ascii=False)


@settings(max_examples=examples(400), deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_hand_of_two_scores_alike_with_individual_true(rng: random.Random) -> None:
    record = hand_record(rng, 2)
    assert said(score, individual(record)) == said(score, record)


@settings(max_examples=examples(60), deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_vaca_of_two_replays_alike_with_individual_true(rng: random.Random) -> None:
    record = vaca_record(rng, 2)
    assert said(replay, individual(record)) == said(replay, record)


def test_the_property_sees_a_difference() -> None:
    """The comparison is not blind: a record of three players is no record of two."""
    record = hand_record(random.Random(1), 2)
    three = {**record, "rules": {**record["rules"], "players": 3}}
    assert said(score, three) != said(score, record)
