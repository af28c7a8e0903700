"""Every way a record can be wrong gets a RuleError naming the seat, card or lance at fault."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.rules import (
    BettingError,
    CardError,
    RecordError,
    RuleError,
    ScoreError,
    VacaError,
    replay,
    score,
)

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def record(**fields: Any) -> dict[str, Any]:
    return {"hands": dict(SEED), **fields}


def grande(*bets: tuple[str, Any], end: str | None = "quiero") -> dict[str, Any]:
    lance: dict[str, Any] = {"bets": [{"side": s, "n": n} for s, n in bets]}
    if end is not None:
        lance["end"] = end
    return {"grande": lance}


CASES = [
    # (name, record, error type, words the English message must hold, words in Spanish:
    # checked through muscore.messages in tests/test_rule_messages.py)
    ("five reyes of index 12",
     {"hands": {"0": "R R R R", "1": "R 4 5 6", "2": "1 1 6 7", "3": "S S 7 7"}},
     CardError, ["5 cards of index 12", "reyes"], ["5 cartas", "reyes"]),
    ("five cincos written two ways",
     {"hands": {"0": "5 5 5 4", "1": "5 5 C 6", "2": "1 1 6 7", "3": "S S 7 7"}},
     CardError, ["5 cards of index 5"], ["cincos"]),
    ("three cards", record(hands={**SEED, "2": "1 1 6"}),
     CardError, ["Seat 2", "3 cards", "1 1 6"], ["asiento 2", "3 cartas"]),
    ("five cards", record(hands={**SEED, "3": "1 1 6 7 7"}),
     CardError, ["Seat 3", "5 cards"], ["asiento 3"]),
    ("unknown card 9", record(hands={**SEED, "1": "R C 9 5"}),
     CardError, ["Seat 1", "'9' is not a card"], ["Asiento 1", "'9' no es una carta"]),
    ("unknown card 8 as text", record(hands={**SEED, "0": "R R 5 ocho"}),
     CardError, ["Seat 0", "'ocho'"], ["'ocho'"]),
    ("cards not a string", record(hands={**SEED, "0": [12, 12, 5, 4]}),
     RecordError, ["hands.0", "a string of four cards"], ["hands.0"]),
    ("a seat that does not exist", record(hands={**SEED, "4": "1 2 3 4"}),
     RecordError, ["seat '4'", "from 0 to 3"], ["asiento '4'"]),
    ("pares bet with one side holding",
     {"hands": {"0": "R R R 7", "1": "1 4 5 6", "2": "C C 5 6", "3": "1 4 7 S"},
      "lances": {"pares": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}},
     BettingError, ["pares", "only side A"], ["solo el bando A"]),
    ("pares bet when nobody has pares",
     {"hands": {"0": "R 7 6 4", "1": "R S 5 1", "2": "C 7 4 1", "3": "S 7 6 5"},
      "lances": {"pares": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}},
     BettingError, ["nobody has pares"], ["nadie tiene pares"]),
    ("juego bet with one side holding",
     {"hands": {"0": "R R S 1", "1": "1 4 5 6", "2": "C C 5 6", "3": "1 4 7 S"},
      "lances": {"juego": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}},
     BettingError, ["juego", "only side A"], ["solo el bando A"]),
    ("a juego lance when nobody has juego",
     {"hands": {"0": "R 7 6 4", "1": "R S 5 5", "2": "R 7 4 4", "3": "S 7 6 6"},
      "lances": {"juego": {"bets": []}}},
     BettingError, ["Nobody has juego", "punto"], ["Nadie tiene juego"]),
    ("a punto lance when somebody has juego",
     record(lances={"punto": {"bets": []}}),
     BettingError, ["Seat 1 has juego", "not punto"], ["asiento 1 tiene juego"]),
    ("a side raising its own bet", record(lances=grande(("A", 2), ("A", 2))),
     BettingError, ["grande", "side A", "its own bet"], ["su propia apuesta"]),
    ("bets with no answer", record(lances=grande(("A", 2), end=None)),
     BettingError, ["grande", "never answered"], ["nadie contestó"]),
    ("an answer that is no answer", record(lances=grande(("A", 2), end="maybe")),
     BettingError, ["grande", '"maybe"'], ['"maybe"']),
    ("quiero with no bet", {**record(), "lances": {"chica": {"bets": [], "end": "quiero"}}},
     BettingError, ["chica", "nobody bet"], ["nadie envidó"]),
    ("a bet after an ordago", record(lances=grande(("A", "ordago"), ("B", 2))),
     BettingError, ["grande", "after an órdago"], ["después de un órdago"]),
    ("a side that is no side", record(lances=grande(("C", 2))),
     BettingError, ["grande, bet 1", '"C"'], ["apuesta 1"]),
    ("score at the target", record(score={"A": 40, "B": 0}),
     ScoreError, ["Side A", "40"], ["bando A"]),
    ("score over the target", record(score={"A": 3, "B": 45}),
     ScoreError, ["Side B", "45"], ["bando B"]),
    ("score at a lower target", record(rules={"target": 30}, score={"A": 30, "B": 0}),
     ScoreError, ["Side A", "30"], ["30"]),
    ("negative score", record(score={"A": -1, "B": 0}),
     ScoreError, ["Side A", "-1"], ["bando A"]),
    ("score of a third side", record(score={"C": 3}),
     ScoreError, ["'C'"], ["'C'"]),
    ("a mano that is no seat", record(mano=4),
     RecordError, ["mano", "0 to 3", "4"], ["mano", "del 0 al 3"]),
    ("a mano that is text", record(mano="0"),
     RecordError, ["mano", '"0"'], ["mano"]),
    ("a bet of 2.5", record(lances=grande(("A", 2.5))),
     BettingError, ["grande, bet 1", "2.5"], ["apuesta 1"]),
    ("a bet of 0", record(lances=grande(("A", 0))),
     BettingError, ["grande, bet 1", "0"], ["apuesta 1"]),
    ("a negative raise", record(lances=grande(("A", 2), ("B", -3))),
     BettingError, ["grande, bet 2", "-3"], ["apuesta 2"]),
    ("a bet of true", record(lances=grande(("A", True))),
     BettingError, ["grande, bet 1", "true"], ["apuesta 1"]),
    ("an unknown top-level key", record(colour="red"),
     RecordError, ["'colour'", "record"], ["'colour'"]),
    ("an unknown lance", record(lances={"flor": {"bets": []}}),
     RecordError, ["'flor' is not a lance"], ["'flor' no es un lance"]),
    ("an unknown key in a bet", record(lances={"grande": {
        "bets": [{"side": "A", "n": 2, "who": 0}], "end": "quiero"}}),
     RecordError, ["'who'", "lances.grande.bets[1]"], ["'who'"]),
    ("an unknown key in a lance", record(lances={"grande": {"bets": [], "quien": 1}}),
     RecordError, ["'quien'", "lances.grande"], ["'quien'"]),
    ("an unknown option", record(rules={"comodines": True}),
     RecordError, ["'comodines'", "rules"], ["'comodines'"]),
    ("a bad option value", record(rules={"reyes": 6}),
     RecordError, ["'reyes'", "6", "8 or 4"], ["'reyes'", "8 o 4"]),
    ("a bad 31 real", record(rules={"real31": "caballo"}),
     RecordError, ["'real31'", '"caballo"'], ["'real31'"]),
    ("a seat with neither cards nor jugadas", {"hands": {"0": "R R 5 4"}},
     RecordError, ["Seat 1", "neither cards nor jugadas"], ["asiento 1"]),
    ("a bad jugada", {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"},
                      "jugadas": {"3": {"pares": "trio", "juego": "no"}}},
     RecordError, ["Seat 3", '"trio"'], ["Asiento 3"]),
    ("an impossible juego total", {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"},
                                   "jugadas": {"3": {"pares": "no", "juego": 38}}},
     RecordError, ["Seat 3", "38"], ["Asiento 3"]),
    ("jugadas that contradict the cards",
     record(jugadas={"0": {"pares": "no"}}),
     RecordError, ["Seat 0", "R R 5 4", "pares"], ["asiento 0"]),
    ("a missing winner", {"hands": {"0": "R R 5 4"}, "jugadas": {
        "1": {"pares": "par", "juego": 35}, "2": {"pares": "par", "juego": "no"},
        "3": {"pares": "duples", "juego": 34}}},
     RecordError, ["grande", "Seat 1", "winners"], ["grande"]),
    ("a winner the cards contradict", record(winners={"grande": "B"}),
     RecordError, ["grande", "side A", '"B"'.strip('"')], ["bando A"]),
    ("a winner of pares for the side without them",
     {"hands": {"0": "R R R 7", "1": "1 4 5 6", "2": "C C 5 6", "3": "1 4 7 S"},
      "winners": {"pares": "B"}},
     RecordError, ["only side A has pares"], ["solo el bando A"]),
    ("not an object", [1, 2], RecordError, ["JSON object"], ["objeto JSON"]),
]


@pytest.mark.parametrize(
    "rec, kind, english, spanish", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_error_names_what_is_wrong(
    rec: Any, kind: type[RuleError], english: list[str], spanish: list[str]
) -> None:
    with pytest.raises(kind) as raised:
        score(rec)
    error = raised.value
    assert isinstance(error, ValueError)
    for words in english:
        assert words.lower() in str(error).lower(), (words, str(error))
    assert error.code and str(error) == error.message()


def test_a_lance_after_the_juego_ended_is_ignored_even_if_odd() -> None:
    # The deje in grande ends the juego; the "bet" in chica was never played.
    result = score(record(
        score={"A": 39, "B": 0},
        lances={"grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"},
                "pares": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
    ))
    assert result["ended_by"] == "deje" and result["winner"] == "A"


def test_vaca_hand_errors_say_which_hand() -> None:
    with pytest.raises(VacaError) as raised:
        replay({"hands": [{"hands": SEED}, {"hands": {**SEED, "0": "R R 5"}}]})
    assert "Hand 2" in str(raised.value) and "Seat 0" in str(raised.value)
    assert raised.value.number == 2 and raised.value.cause is not None


@pytest.mark.parametrize("field", ["score", "mano", "rules"])
def test_vaca_hands_cannot_carry_what_the_vaca_carries(field: str) -> None:
    with pytest.raises(VacaError) as raised:
        replay({"hands": [{"hands": SEED, field: 0}]})
    assert f"'{field}'" in str(raised.value)


def test_vaca_needs_hands() -> None:
    with pytest.raises(VacaError):
        replay({"rules": {}})
    with pytest.raises(RecordError):
        replay({"hands": "all of them"})
