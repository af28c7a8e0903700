"""A lance that cannot count is never asked (issue 19, item 4).

At 37, an accepted envite of 4 in grande won by the side at 37 ends the juego at
the count: chica, pares and punto never count, so the draft asks no winner for them
and the hand is complete without one.
"""

from __future__ import annotations

from typing import Any

from muscore.rules import score
from muscore.rules.cards import Lance, Side
from muscore.rules.draft import HandDraft

RECORD: dict[str, Any] = {
    "score": {"A": 37, "B": 10},
    "jugadas": {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)},
    "lances": {"grande": {"bets": [{"side": "A", "n": 4}], "end": "quiero"}},
}


def test_grande_is_asked_first_and_then_nothing_after_it() -> None:
    draft = HandDraft.from_record(RECORD)
    assert draft.winners_needed() == (Lance.GRANDE, Lance.CHICA, Lance.PUNTO)
    won = draft.with_winner("grande", "A")
    assert won.winners_needed() == () and won.is_complete()
    assert won.result() == score({**RECORD, "winners": {"grande": "A"}})
    assert won.result()["score"] == {Side.A: 41, Side.B: 10}


def test_when_the_other_side_wins_grande_the_count_goes_on() -> None:
    lost = HandDraft.from_record(RECORD).with_winner("grande", "B")
    assert lost.winners_needed() == (Lance.CHICA, Lance.PUNTO)
    assert not lost.is_complete()


def test_asking_winners_leaves_out_a_winner_that_cannot_count() -> None:
    draft = HandDraft.from_record(RECORD)
    given = {"grande": "A", "chica": "B", "punto": "B"}
    entered, asked = draft.asking_winners(given)
    assert asked == (Lance.GRANDE,)
    assert entered.to_record()["winners"] == {"grande": "A"}
    entered, asked = draft.asking_winners({**given, "grande": "B"})
    assert asked == (Lance.GRANDE, Lance.CHICA, Lance.PUNTO)
    assert entered.result()["score"] == {Side.A: 37, Side.B: 16}


def test_while_a_later_lance_is_open_its_deje_could_still_come_first() -> None:
    # B at 39 could still take a deje in chica before the count: nothing is decided yet.
    record = {**RECORD, "score": {"A": 37, "B": 39}}
    open_draft = HandDraft.from_record(record, passed=False).with_winner("grande", "A")
    assert open_draft.lance("chica").bettable is not False
    assert open_draft.closed().winners_needed() == ()
