"""Two players, each for himself (rules.md "Table and seats"; seed 000 sec. 3).

The shared examples (test_examples) score four 1 v 1 hands; these pin what a side
of one player means everywhere else: seats, the mano's rotation, the draft,
entering without cards and the errors that name a seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from muscore.rules import RecordError, Rules, replay, score
from muscore.rules.cards import Side
from muscore.rules.draft import HandDraft
from tests.examples import examples
from tests.rules.strategies import records

TWO = {"players": 2}


def test_two_is_a_table_and_seven_is_not() -> None:
    assert Rules(players=2).seats_from(1) == (1, 0)
    assert Rules(players=2).individual and Rules(players=2).sides == 2
    assert Rules(players=2).to_json() == Rules.from_json({**TWO, "individual": True}).to_json()
    with pytest.raises(RecordError, match="must be 2, 3, 4, 5 or 6"):
        Rules.from_json({"players": 7})
    with pytest.raises(RecordError, match="A table of 2 cannot play in pairs"):
        Rules.from_json({**TWO, "individual": False})


def test_a_seat_past_the_second_is_refused() -> None:
    with pytest.raises(RecordError, match="table of 2: seats go from 0 to 1"):
        score({"rules": TWO, "hands": {"0": "R R 5 4", "1": "1 1 6 7", "2": "5 5 5 5"}})
    with pytest.raises(RecordError, match="mano must be a seat from 0 to 1"):
        score({"rules": TWO, "mano": 2, "hands": {"0": "R R 5 4", "1": "1 1 6 7"}})


def test_the_mano_alternates_in_a_vaca() -> None:
    hand = {"hands": {"0": "R R 5 4", "1": "1 1 6 7"}}
    out = replay({"rules": {**TWO, "target": 10}, "mano": 1, "hands": [hand] * 4})
    assert [h["mano"] for h in out["hands"]] == [1, 0, 1, 0]
    assert out["next_mano"] == 1


def test_the_mano_wins_a_tie_between_the_two() -> None:
    # Equal cards: grande, chica and pares all go to the mano's side.
    result = score({"rules": TWO, "mano": 1, "hands": {"0": "R R 5 4", "1": "R R 5 4"}})
    assert result["lances"]["grande"]["side"] == Side.B
    assert result["lances"]["pares"] == {"side": Side.B, "points": 1}


def test_without_cards_a_single_seat_declares_for_its_side() -> None:
    record: dict[str, Any] = {
        "rules": TWO, "mano": 0, "hands": {"0": "R R 5 4"},
        "jugadas": {"1": {"pares": "medias", "juego": 31}},
        "winners": {"grande": "A", "chica": "B"},
    }
    result = score(record)
    assert result["lances"]["pares"] == {"side": Side.B, "points": 2}
    assert result["lances"]["juego"] == {"side": Side.B, "points": 3}
    assert result["score"] == {Side.A: 1, Side.B: 6}


@settings(max_examples=examples(60), deadline=None)
@given(records(players=2))
def test_the_draft_agrees_with_the_score_at_two(record: dict[str, Any]) -> None:
    draft = HandDraft.from_record(record)
    assert draft.result() == score(record)
