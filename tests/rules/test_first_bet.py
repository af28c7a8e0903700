"""An envido of 1 is no first bet (issue 19 item 8; rules.md "Betting in a lance").

The envido is 2 piedras, or the number a player states (seed 000: "Pueden envidarse
otras cantidades"); the contract reads that stated number as 2 or more, because a
first bet of 1 rejected pays its deje of 1, the same as accepted and lost: nothing
was bet. A raise ("N más") may add 1.
"""

from __future__ import annotations

import pytest

from muscore.rules import BettingError, score
from muscore.rules.cards import Side
from muscore.rules.draft import HandDraft, Tap

HANDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


@pytest.mark.parametrize("end", ["quiero", "no_quiero"])
def test_a_first_bet_of_1_is_refused_with_a_message(end: str) -> None:
    record = {"hands": HANDS, "lances": {"chica": {"bets": [{"side": "B", "n": 1}], "end": end}}}
    with pytest.raises(BettingError) as raised:
        score(record)
    assert raised.value.code == "first_bet"
    assert str(raised.value) == (
        "chica: the first bet of a lance is an envido of 2 or more piedras, not 1; "
        "only a raise can add 1."
    )


def test_a_raise_of_1_and_a_first_bet_of_2_are_kept() -> None:
    bets = [{"side": "A", "n": 2}, {"side": "B", "n": 1}]
    result = score({"hands": HANDS, "lances": {"grande": {"bets": bets, "end": "quiero"}}})
    assert result["lances"]["grande"] == {"side": Side.A, "points": 3}


def test_the_draft_refuses_the_tap_and_keeps_the_raise() -> None:
    draft = HandDraft.from_record({"hands": HANDS}, passed=False)
    with pytest.raises(BettingError) as raised:
        draft.tap("grande", Tap.envido(Side.A, 1))
    assert raised.value.code == "first_bet"
    raised_once = draft.tap("grande", Tap.envido(Side.A)).tap("grande", Tap.envido(Side.B, 1))
    assert [b["n"] for b in raised_once.to_record()["lances"]["grande"]["bets"]] == [2, 1]
