"""The one-pass score of a hand with every card shown (muscore/rules/shown.py) equals
the general path's, byte for byte, and gives way to it on anything unusual."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import RuleError, Rules, score
from muscore.rules.scoring import parse_mano, parse_score, score_general
from muscore.rules.shown import score_shown
from tests.examples import examples
from tests.rules.individual import individual_records
from tests.rules.strategies import records
from tests.rules.test_examples import HANDS


def general(record: dict[str, Any]) -> str:
    try:
        rules = Rules.from_json(record.get("rules"))
        mano = parse_mano(record.get("mano", 0), rules)
        scores = parse_score(record.get("score"), rules)
        return json.dumps(score_general(record, rules, mano, scores))
    except RuleError as error:
        return repr(error)


def plain(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "_talk"}


def scored(record: dict[str, Any]) -> str:
    try:
        return json.dumps(score(record))
    except RuleError as error:
        return repr(error)


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(records(), individual_records(lies=False).map(plain)))
def test_the_one_pass_equals_the_general_path(record: dict[str, Any]) -> None:
    scored(record)  # the cards are read (and memoised) the first time
    rules = Rules.from_json(record["rules"])
    scores = [record["score"][side] for side in rules.letters]
    assert score_shown(record, rules, record["mano"], scores) is not None
    assert scored(record) == general(record)


@settings(max_examples=examples(200), deadline=None)
@given(individual_records(lies=False).map(plain), st.data())
def test_a_record_the_one_pass_refuses_is_refused_the_general_way(
    record: dict[str, Any], data: Any
) -> None:
    """A lance broken on purpose (a bettor or a leaver who does not play it, nobody left
    to hold on): the one pass gives way and the general path names the error."""
    lances = {name: lance for name, lance in record.get("lances", {}).items() if lance["bets"]}
    if lances:
        name = data.draw(st.sampled_from(sorted(lances)))
        n = record["rules"]["players"]
        lance = lances[name]
        lance["out"] = [s for s in "ABCDEF"[:n] if s != lance["bets"][-1]["side"]]
        lance["end"] = "quiero"
    scored(record)
    rules = Rules.from_json(record["rules"])
    assert scored(record) == general(record)
    if lances:
        assert score_shown(record, rules, record["mano"],
                           [record["score"][side] for side in rules.letters]) is None


@pytest.mark.parametrize("case", HANDS, ids=[c["name"] for c in HANDS])
def test_every_example_scores_alike_both_ways(case: dict[str, Any]) -> None:
    scored(case["record"])
    assert scored(case["record"]) == general(case["record"])


@pytest.mark.parametrize("record", [
    {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}},  # a seat not shown
    {"hands": {0: "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}},  # int key
    {"hands": {"0": "R R R R", "1": "R C C 5", "2": "R 1 6 7", "3": "S S 7 7"}},  # 5 reyes
    {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
     "lances": {"juego": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}},  # nobody: bet
    {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
     "lances": {"punto": {"bets": [{"side": "A", "n": 1}], "end": "quiero"}}},  # envido 1
])
def test_anything_unusual_goes_the_general_way(record: dict[str, Any]) -> None:
    scored(record)
    rules = Rules.from_json(record.get("rules"))
    if score_shown(record, rules, 0, (0, 0)) is not None:
        pytest.fail("the one pass took a record it should leave to the general path")
    assert scored(record) == general(record)


@pytest.mark.parametrize(("good", "bad"), [
    ({"players": 4}, {"players": 4.0}), ({"players": 4}, {"players": True}),
    ({"perete": True}, {"perete": 1}), ({"juegos": 1}, {"juegos": True}),
    ({"players": 4, "individual": True}, {"players": 4, "individual": 1}),
])
def test_the_memo_of_the_options_lets_no_value_of_another_type_through(
    good: dict[str, Any], bad: dict[str, Any]
) -> None:
    """Rules.from_json memoises by the options' items, and True == 1 == 1.0 hash alike:
    the value of another type is refused whichever came first."""
    for first, second in ((good, bad), (bad, good)):
        for options in (first, second):
            if options is good:
                assert Rules.from_json(dict(options)) == Rules(**options)
            else:
                with pytest.raises(RuleError):
                    Rules.from_json(dict(options))
