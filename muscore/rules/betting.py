"""The betting of a lance: the bets in order, the stake, the deje, the answer.

The second of the three phases of scoring. rules.md, "Betting in a lance": envido
(2, or any stated number of 2 or more), raises (of 1 or more) that alternate between
the sides, órdago, and against a bet quiero or no quiero. A rejected bet pays its
**deje** at once: 1 when it was the first bet of the lance, else the total that stood
before the rejected raise. In individual play ("Individual play") any other player
raises, and a player who says no quiero while another holds on leaves the lance
(``out``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.cards import LETTERS, SIDE_INDEX, Side, show
from muscore.rules.errors import BettingError, RecordError

_BET_KEYS = frozenset({"side", "n"})
_LANCE_KEYS = frozenset({"bets", "end", "out"})
ENDS = ("quiero", "no_quiero")
_NO_OUT: frozenset[int] = frozenset()


class Betting:
    """What happened in one lance's betting, read from the record's ``lances.<lance>``.

    ``answered`` False (the hand draft's) accepts bets not answered yet: ``end`` is
    then None, and ``stake``/``deje`` are what stands after the last tap. ``sides`` is
    how many sides the table has: 2 in pairs (and two players), where raises alternate
    between A and B; more in individual play (rules.md, "Individual play"), where any
    other player may raise and ``out`` names the players who left the lance.
    """

    __slots__ = ("lance", "last_side", "last", "stake", "deje", "ordago", "quiero", "end",
                 "count", "out", "bettors")

    lance: str
    last_side: Side | None  #: the side of the last bet; None when all passed
    last: int  #: the index of that side (-1 when all passed)
    stake: int  #: the running total of the bets (an órdago adds nothing)
    deje: int  #: what a no quiero pays at once
    ordago: bool  #: the last bet is an órdago
    quiero: bool  #: the last bet was accepted
    end: str | None  #: "quiero", "no_quiero", or None (no bets, or not answered yet)
    count: int  #: how many bets
    out: frozenset[int]  #: individual play: the sides that left the lance (no quiero)
    bettors: tuple[int, ...]  #: the side of each bet (by index), in order

    def __init__(
        self, lance: str, data: object, *, answered: bool = True, sides: int = 2
    ) -> None:
        self.lance = lance
        # The checks' call only when something is unusual: this runs for every lance bet.
        if type(data) is not dict or not _LANCE_KEYS.issuperset(data):
            _check_keys(data, _LANCE_KEYS, f"lances.{lance}")
        fields: Mapping[str, Any] = data  # type: ignore[assignment]  # checked just above
        bets = fields.get("bets", [])
        end = fields.get("end")
        if type(bets) is not list:
            raise RecordError("not_a", field=f"lances.{lance}.bets", what="list", got=show(bets))
        if sides == 2 and "out" in fields:
            raise BettingError("out_pairs", lance=lance)
        last, total, before, ordago, self.bettors = _read_bets(lance, bets, sides)
        self.out = _read_out(lance, fields.get("out"), last, sides) if sides > 2 else _NO_OUT
        self.count = len(bets)
        self.ordago = ordago
        self.stake = total
        self.quiero = False
        self.end = None
        self.deje = 1 if len(bets) == 1 else before
        self.last = last
        self.last_side = None if last < 0 else LETTERS[last]
        if end is None:
            if answered and last >= 0:
                raise BettingError("no_answer", lance=lance)
            return
        if last < 0:
            raise BettingError("end_without_bets", lance=lance, got=show(end))
        if end != "quiero" and end != "no_quiero":
            raise BettingError("end_value", lance=lance, got=show(end))
        self.end = end
        self.quiero = end == "quiero"


def _read_bets(
    lance: str, bets: list[Any], sides: int
) -> tuple[int, int, int, bool, tuple[int, ...]]:
    """The bets of a lance, checked: the last bettor's side (-1: none), the total, the total
    before the last bet, whether the last is an órdago, and the side of each bet. With two
    sides (pairs, two players) raises alternate between A and B; in individual play any
    other player may raise: the errors say which."""
    pairs = sides == 2
    bettors: list[int] = []
    last = -1
    total = before = 0
    ordago = False
    for i, bet in enumerate(bets, 1):
        if ordago:
            raise BettingError("after_ordago", lance=lance)
        if type(bet) is not dict or not _BET_KEYS.issuperset(bet):
            _check_keys(bet, _BET_KEYS, f"lances.{lance}.bets[{i}]")
        side = bet.get("side")
        try:
            index = SIDE_INDEX[side]
        except (KeyError, TypeError):  # not a side's letter (TypeError: not even hashable)
            index = sides
        if index >= sides:
            if pairs:
                raise BettingError("bet_side", lance=lance, i=i, got=show(side))
            raise BettingError("bet_player", lance=lance, i=i, got=show(side),
                               letters=LETTERS[:sides])
        if index == last:
            raise BettingError("bet_own" if pairs else "raise_own", lance=lance, side=side, i=i)
        n = bet.get("n")
        if type(n) is int and n >= 1:
            if i == 1 and n < 2:
                # rules.md: the first bet is the envido, 2 or a stated number of more; a
                # bet of 1 would pay no more accepted than its deje rejected.
                raise BettingError("first_bet", lance=lance, got=n)
            before = total
            total += n
        elif n == "ordago":
            ordago = True
            before = total
        else:
            raise BettingError("bet_n", lance=lance, i=i, got=show(n))
        last = index
        bettors.append(index)
    return last, total, before, ordago, tuple(bettors)


def _read_out(lance: str, data: object, last: int, sides: int) -> frozenset[int]:
    """The record's ``out``: the players who left the lance, each once, never the last
    bettor, only where somebody bet."""
    if data is None:
        return _NO_OUT
    if type(data) is not list:
        raise RecordError("not_a", field=f"lances.{lance}.out", what="list", got=show(data))
    letters = LETTERS[:sides]
    out: set[int] = set()
    for side in data:
        index = SIDE_INDEX.get(side, sides) if type(side) is str else sides
        if index >= sides:
            raise BettingError("out_player", lance=lance, got=show(side),
                               letters=tuple(letters))
        if index in out:
            raise BettingError("out_twice", lance=lance, side=side)
        if last < 0:
            raise BettingError("out_without_bets", lance=lance, side=side)
        if index == last:
            raise BettingError("out_last_bettor", lance=lance, side=side)
        out.add(index)
    return frozenset(out)


def _check_keys(data: object, keys: frozenset[str], where: str) -> None:
    """``data`` (the record's ``where``) is an object of the given keys at most."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field=where, what="object", got=show(data))
    if not keys.issuperset(data):
        key = next(k for k in data if k not in keys)
        raise RecordError("unknown_key", key=str(key)[:40], where=where)


__all__ = ["ENDS", "Betting"]
