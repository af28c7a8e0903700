"""A winner given to a side that holds nothing in pares (its seats' jugadas say "no"):
the draft says so (winner_not_holder) instead of failing to compare with nothing
(a KeyError in Reading.best_holders, a 500 on the hand entry)."""

from __future__ import annotations

from muscore.rules import HandDraft, RecordError

# Ana (A) shows pares (R R), Carla (A) says par; Bruno shows none, Diego says no.
RECORD = {"hands": {"0": "C R 5 3", "1": "1 6 R C"},
          "jugadas": {"2": {"pares": "par", "juego": 31}, "3": {"pares": "no", "juego": 31}}}


def test_a_winner_for_the_side_without_pares_is_not_a_holder() -> None:
    draft = HandDraft.from_record(RECORD, passed=False).with_winner("pares", "B")
    problems = draft.problems()
    assert [p.code for p in problems] == ["winner_not_holder"]
    assert isinstance(problems[0], RecordError)
    assert problems[0].params == {"lance": "pares", "side": "A", "got": "B"}

