"""The betting of a lance: the bets in order, the stake, the deje, the answer.

The second of the three phases of scoring. rules.md, "Betting in a lance": envido
(2, or any stated number of 2 or more), raises (of 1 or more) that alternate between
the sides, órdago, and against a bet quiero or no quiero. A rejected bet pays its
**deje** at once: 1 when it was the first bet of the lance, else the total that stood
before the rejected raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.cards import A, B, Side, show
from muscore.rules.errors import BettingError, RecordError

_BET_KEYS = frozenset({"side", "n"})
_LANCE_KEYS = frozenset({"bets", "end"})
ENDS = ("quiero", "no_quiero")


class Betting:
    """What happened in one lance's betting, read from the record's ``lances.<lance>``.

    ``answered`` False (the hand draft's) accepts bets not answered yet: ``end`` is
    then None, and ``stake``/``deje`` are what stands after the last tap.
    """

    __slots__ = ("lance", "last_side", "stake", "deje", "ordago", "quiero", "end", "count")

    lance: str
    last_side: Side | None  #: the side of the last bet; None when all passed
    stake: int  #: the running total of the bets (an órdago adds nothing)
    deje: int  #: what a no quiero pays at once
    ordago: bool  #: the last bet is an órdago
    quiero: bool  #: the last bet was accepted
    end: str | None  #: "quiero", "no_quiero", or None (no bets, or not answered yet)
    count: int  #: how many bets

    def __init__(self, lance: str, data: object, *, answered: bool = True) -> None:
        self.lance = lance
        # The checks' call only when something is unusual: this runs for every lance bet.
        if type(data) is not dict or not _LANCE_KEYS.issuperset(data):
            _check_keys(data, _LANCE_KEYS, f"lances.{lance}")
        fields: Mapping[str, Any] = data  # type: ignore[assignment]  # checked just above
        bets = fields.get("bets", [])
        end = fields.get("end")
        if type(bets) is not list:
            raise RecordError("not_a", field=f"lances.{lance}.bets", what="list", got=show(bets))
        last_side = None
        total = before = 0
        ordago = False
        for i, bet in enumerate(bets, 1):
            if ordago:
                raise BettingError("after_ordago", lance=lance)
            if type(bet) is not dict or not _BET_KEYS.issuperset(bet):
                _check_keys(bet, _BET_KEYS, f"lances.{lance}.bets[{i}]")
            side = bet.get("side")
            if side != A and side != B:
                raise BettingError("bet_side", lance=lance, i=i, got=show(side))
            if side == last_side:
                raise BettingError("bet_own", lance=lance, side=side, i=i)
            n = bet.get("n")
            if n == "ordago":
                ordago = True
                before = total
            elif type(n) is int and n >= 1:
                if i == 1 and n < 2:
                    # rules.md: the first bet is the envido, 2 or a stated number of more; a
                    # bet of 1 would pay no more accepted than its deje rejected.
                    raise BettingError("first_bet", lance=lance, got=n)
                before = total
                total += n
            else:
                raise BettingError("bet_n", lance=lance, i=i, got=show(n))
            last_side = side
        self.count = len(bets)
        self.ordago = ordago
        self.stake = total
        self.quiero = False
        self.end = None
        self.deje = 1 if len(bets) == 1 else before
        # The Side, not the record's string.
        self.last_side = None if last_side is None else A if last_side == A else B
        if end is None:
            if answered and last_side is not None:
                raise BettingError("no_answer", lance=lance)
            return
        if last_side is None:
            raise BettingError("end_without_bets", lance=lance, got=show(end))
        if end != "quiero" and end != "no_quiero":
            raise BettingError("end_value", lance=lance, got=show(end))
        self.end = end
        self.quiero = end == "quiero"


def _check_keys(data: object, keys: frozenset[str], where: str) -> None:
    """``data`` (the record's ``where``) is an object of the given keys at most."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field=where, what="object", got=show(data))
    if not keys.issuperset(data):
        key = next(k for k in data if k not in keys)
        raise RecordError("unknown_key", key=str(key)[:40], where=where)


__all__ = ["ENDS", "Betting"]
