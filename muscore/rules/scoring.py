"""Scoring one hand: reading, betting and counting, the one path every caller takes.

:func:`score` reads a hand record (the JSON contract, as a dict) and returns the
contract's result dict: the typed :func:`muscore.rules.score_hand`, the vaca replay,
the command line, the web app and the hand draft all go through it, so the game is
decided in one place. It runs three phases:

1. **reading** (:mod:`muscore.rules.reading`): the cards, jugadas and declarations:
   who holds and plays each lance, who lied, which is the fourth lance;
2. **betting** (:mod:`muscore.rules.betting`): each lance's bets, stake and deje;
3. **counting** (:mod:`muscore.rules.counting`): the dejes, an accepted órdago, and
   the recuento stopping at the target.

The code builds the result dicts directly rather than through intermediate
objects: a table's whole history is replayed on every change, and the
benchmark holds scoring to a small multiple of a JSON round trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from muscore.rules.betting import Betting
from muscore.rules.cards import A, B, Rules, show
from muscore.rules.contract import HandResultDict
from muscore.rules.counting import count
from muscore.rules.errors import BettingError, RecordError, ScoreError
from muscore.rules.reading import LANCE_NAMES, Reading, read_table, read_winners
from muscore.rules.shown import score_shown

RECORD_KEYS = frozenset(
    {"rules", "mano", "score", "hands", "jugadas", "winners", "lances", "declared"}
)
#: The keys a hand of a vaca may carry (the vaca carries rules, mano and score).
VACA_HAND_KEYS = frozenset({"hands", "jugadas", "winners", "lances", "declared"})


def parse_score(data: object, rules: Rules) -> tuple[int, int]:
    """The score before the hand, checked against the target."""
    if data is None:
        return 0, 0
    if type(data) is dict and len(data) == 2:  # the common {"A": a, "B": b}: checked at once
        a = data.get(A)
        b = data.get(B)
        if type(a) is int and type(b) is int and 0 <= a < rules.target and 0 <= b < rules.target:
            return a, b
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field="score", what="object", got=show(data))
    for key in data:
        if key != A and key != B:
            raise ScoreError("score_side", key=str(key)[:20])
    a = data.get(A, 0)
    b = data.get(B, 0)
    target = rules.target
    for side, value in ((A, a), (B, b)):
        if type(value) is not int or value < 0:
            raise ScoreError("score_value", side=side, last=target - 1, got=show(value))
        if value >= target:
            raise ScoreError("score_at_target", side=side, got=value, target=target)
    return a, b


def parse_mano(data: object, rules: Rules) -> int:
    """The mano's seat, checked against the table's players."""
    if type(data) is not int or not 0 <= data < rules.players:
        raise RecordError("mano", last=rules.players - 1, got=show(data))
    return data


def read_bets(
    record: Mapping[str, Any], reading: Reading, *, answered: bool = True
) -> dict[str, Betting]:
    """The betting phase: each lance's betting, for the lances somebody bet in.

    A lance named for the wrong fourth lance (juego when nobody has it, punto when
    somebody has) is refused. With ``answered`` False (the hand draft's), bets not
    answered yet are accepted.
    """
    lances_in = record.get("lances")
    bettings: dict[str, Betting] = {}
    if lances_in is None:
        return bettings
    if type(lances_in) is not dict and not isinstance(lances_in, Mapping):
        raise RecordError("not_a", field="lances", what="object", got=show(lances_in))
    fourth = reading.fourth
    for key, data in lances_in.items():
        if key not in LANCE_NAMES:
            raise RecordError("lance_name", key=str(key)[:40])
        if key == "juego" and fourth == "punto":
            raise BettingError("juego_not_punto")
        if key == "punto" and fourth == "juego":
            seat = reading.first_juego_seat()
            raise BettingError("punto_not_juego", seat=seat)
        betting = Betting(key, data, answered=answered)
        if betting.last_side is not None:
            bettings[key] = betting
    return bettings


def score(record: object) -> HandResultDict:
    """Score one hand record (a :class:`~muscore.rules.contract.HandRecord`, unchecked:
    any JSON value is read and refused in words); returns the contract's result (see
    docs/contract.md).

    Raises :class:`~muscore.rules.errors.RuleError` (a ``ValueError``) naming
    what is wrong when the record breaks a rule.
    """
    if type(record) is not dict and not isinstance(record, Mapping):
        raise RecordError("not_object")
    if not RECORD_KEYS.issuperset(record):
        key = next(k for k in record if k not in RECORD_KEYS)
        raise RecordError("unknown_key", key=str(key)[:40], where="record")
    rules = Rules.from_json(record.get("rules"))
    mano = parse_mano(record.get("mano", 0), rules)
    a, b = parse_score(record.get("score"), rules)
    # The counting builds the result dict directly (for speed); this is its type.
    return cast(HandResultDict, score_parts(record, rules, mano, a, b))


def score_parts(
    record: Mapping[str, Any], rules: Rules, mano: int, score_a: int, score_b: int
) -> dict[str, Any]:
    """Score a record whose rules, mano and score were already read (the vaca replay)."""
    if "jugadas" not in record and "declared" not in record and "winners" not in record:
        # Every card shown and nothing else said, the common case: one pass (shown.py).
        done = score_shown(record, rules, mano, score_a, score_b)
        if done is not None:
            return done
    return score_general(record, rules, mano, score_a, score_b)


def score_general(
    record: Mapping[str, Any], rules: Rules, mano: int, score_a: int, score_b: int
) -> dict[str, Any]:
    """Score a record the general way: any record, partial readings aside (the three
    phases: reading, betting, counting)."""
    reading = read_table(record, rules, mano)
    bettings = read_bets(record, reading)
    winners_in = record.get("winners")
    winners = read_winners(winners_in, reading) if winners_in is not None else {}
    return count(reading, bettings, winners, score_a, score_b)


__all__ = ["RECORD_KEYS", "VACA_HAND_KEYS", "parse_mano", "parse_score", "read_bets", "score",
           "score_general", "score_parts"]
