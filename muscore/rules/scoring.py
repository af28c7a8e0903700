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

from collections.abc import Mapping, Sequence
from typing import Any, cast

from muscore.rules.betting import Betting
from muscore.rules.cards import LETTERS, Rules, show
from muscore.rules.contract import HandResultDict
from muscore.rules.counting import count, still_in
from muscore.rules.errors import BettingError, RecordError, ScoreError
from muscore.rules.reading import LANCE_NAMES, Reading, read_table
from muscore.rules.shown import score_shown
from muscore.rules.winners import player_list, read_winners

RECORD_KEYS = frozenset(
    {"rules", "mano", "score", "hands", "jugadas", "winners", "lances", "declared"}
)
#: The keys of a record the one pass (shown.py) may score: no jugadas, declared, winners.
PLAIN_KEYS = frozenset({"rules", "mano", "score", "hands", "lances"})
#: The keys a hand of a vaca may carry (the vaca carries rules, mano and score).
VACA_HAND_KEYS = frozenset({"hands", "jugadas", "winners", "lances", "declared"})


def parse_score(data: object, rules: Rules) -> tuple[int, ...]:
    """The score before the hand, each side's piedras in side order, checked against the
    target (a side left out has 0; a side not at the table is refused)."""
    if data is None:
        return ZEROS[rules.sides]
    k = rules.sides
    if type(data) is dict and len(data) == k:
        # The common {"A": a, "B": b} (a, b, c... one a player): checked at once.
        target = rules.target
        if k == 2:
            a = data.get("A")  # an exact str: looked up faster than the Side member
            b = data.get("B")
            if type(a) is int and type(b) is int and 0 <= a < target and 0 <= b < target:
                return a, b
        elif tuple(data) == KEYS[k]:
            quick = tuple(data.values())
            # Exact ints (no bool) from 0 to below the target, checked in a few C calls.
            if set(map(type, quick)) == _INTS and min(quick) >= 0 and max(quick) < target:
                return quick
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field="score", what="object", got=show(data))
    letters = LETTERS[:k]
    for key in data:
        if key not in letters:
            if k == 2:
                raise ScoreError("score_side", key=str(key)[:20])
            raise ScoreError("score_player", key=str(key)[:20], players=rules.players,
                             letters=player_list(range(k)))
    target = rules.target
    values: tuple[int, ...] = tuple(data.get(side, 0) for side in letters)
    for side, value in zip(letters, values, strict=True):
        if type(value) is not int or value < 0:
            raise ScoreError("score_value" if k == 2 else "score_value_player", side=side,
                             last=target - 1, got=show(value))
        if value >= target:
            raise ScoreError("score_at_target" if k == 2 else "score_at_target_player",
                             side=side, got=value, target=target)
    return values


#: The score's keys in side order, by the number of sides.
KEYS: dict[int, tuple[str, ...]] = {k: tuple(side.value for side in LETTERS[:k])
                                    for k in range(2, 7)}
_INTS = {int}
#: Everybody at 0, by the number of sides.
ZEROS: dict[int, tuple[int, ...]] = {k: (0,) * k for k in range(2, 7)}


def parse_mano(data: object, rules: Rules) -> int:
    """The mano's seat, checked against the table's players."""
    if type(data) is not int or not 0 <= data < rules.players:
        raise RecordError("mano", last=rules.players - 1, got=show(data))
    return data


def parse_head(data: Mapping[str, object], keys: frozenset[str], where: str) -> tuple[Rules, int]:
    """The rules and the mano of a record or a vaca (``where`` names which in the error),
    once no key of ``data`` is outside ``keys``: what a hand draft and a vaca replay read
    first, in this order, so both refuse the same input in the same words."""
    for key in data:
        if key not in keys:
            raise RecordError("unknown_key", key=str(key)[:40], where=where)
    rules = Rules.from_json(data.get("rules"))
    return rules, parse_mano(data.get("mano", 0), rules)


def read_bets(
    record: Mapping[str, object], reading: Reading, *, answered: bool = True
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
    k = reading.k
    for key, data in lances_in.items():
        if key not in LANCE_NAMES:
            raise RecordError("lance_name", key=str(key)[:40])
        if key == "juego" and fourth == "punto":
            raise BettingError("juego_not_punto")
        if key == "punto" and fourth == "juego":
            seat = reading.first_juego_seat()
            raise BettingError("punto_not_juego", seat=seat)
        betting = Betting(key, data, answered=answered, sides=k)
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
    # Cards and bets alone (no jugadas, declared or winners): maybe the common case.
    plain = PLAIN_KEYS.issuperset(record)
    if not plain and not RECORD_KEYS.issuperset(record):
        key = next(k for k in record if k not in RECORD_KEYS)
        raise RecordError("unknown_key", key=str(key)[:40], where="record")
    rules = Rules.from_json(record.get("rules"))
    mano = record.get("mano", 0)
    if type(mano) is not int or not 0 <= mano < rules.players:
        parse_mano(mano, rules)  # raises, naming the table's seats
    scores = parse_score(record.get("score"), rules)
    # The counting builds the result dict directly (for speed); this is its type.
    if plain:
        # Every card shown and nothing else said, the common case: one pass (shown.py).
        done = score_shown(record, rules, mano, scores)
        if done is not None:
            return cast(HandResultDict, done)
    return cast(HandResultDict, score_general(record, rules, mano, scores))


def score_parts(
    record: Mapping[str, object], rules: Rules, mano: int, scores: Sequence[int]
) -> dict[str, Any]:
    """Score a record whose rules, mano and score were already read (the vaca replay)."""
    if "jugadas" not in record and "declared" not in record and "winners" not in record:
        # Every card shown and nothing else said, the common case: one pass (shown.py).
        done = score_shown(record, rules, mano, scores)
        if done is not None:
            return done
    return score_general(record, rules, mano, scores)


def score_general(
    record: Mapping[str, object], rules: Rules, mano: int, scores: Sequence[int]
) -> dict[str, Any]:
    """Score a record the general way: any record, partial readings aside (the three
    phases: reading, betting, counting)."""
    reading = read_table(record, rules, mano)
    bettings = read_bets(record, reading)
    winners_in = record.get("winners")
    winners = read_winners(winners_in, reading, held_on(reading, bettings)) if (
        winners_in is not None) else {}
    return count(reading, bettings, winners, scores)


def held_on(reading: Reading, bettings: Mapping[str, Betting]) -> dict[str, frozenset[int]]:
    """Individual play: for each lance held on (quiero), the sides still in it, the only
    ones that can win it; empty in pairs."""
    out: dict[str, frozenset[int]] = {}
    if reading.k > 2:
        for lance, betting in bettings.items():
            if betting.quiero:
                among = still_in(reading, lance, betting)
                if among is not None:
                    out[lance] = among
    return out


__all__ = ["RECORD_KEYS", "VACA_HAND_KEYS", "held_on", "parse_head", "parse_mano", "parse_score",
           "read_bets", "score", "score_general", "score_parts"]
