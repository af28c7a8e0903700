"""The betting of a lance: the bets in order, the stake, the deje, the answer.

The second of the three phases of scoring. rules.md, "Betting in a lance": envido
(2, or any stated number of 2 or more), raises (of 1 or more) that alternate between
the sides, órdago, and against a bet quiero or no quiero. A rejected bet pays its
**deje** at once: 1 when it was the first bet of the lance, else the total that stood
before the rejected raise.
"""

from __future__ import annotations

from collections.abc import Mapping

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
        if type(data) is not dict and not isinstance(data, Mapping):
            raise RecordError("not_a", field=f"lances.{lance}", what="object", got=show(data))
        if not _LANCE_KEYS.issuperset(data):
            key = next(k for k in data if k not in _LANCE_KEYS)
            raise RecordError("unknown_key", key=str(key)[:40], where=f"lances.{lance}")
        bets = data.get("bets", [])
        end = data.get("end")
        if type(bets) is not list:
            raise RecordError("not_a", field=f"lances.{lance}.bets", what="list", got=show(bets))
        last_side = None
        total = before = 0
        ordago = False
        for i, bet in enumerate(bets, 1):
            if ordago:
                raise BettingError("after_ordago", lance=lance)
            if type(bet) is not dict and not isinstance(bet, Mapping):
                raise RecordError(
                    "not_a", field=f"lances.{lance}.bets[{i}]", what="object", got=show(bet)
                )
            if not _BET_KEYS.issuperset(bet):
                key = next(k for k in bet if k not in _BET_KEYS)
                raise RecordError(
                    "unknown_key", key=str(key)[:40], where=f"lances.{lance}.bets[{i}]"
                )
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
        if last_side is None:
            if end is not None:
                raise BettingError("end_without_bets", lance=lance, got=show(end))
            self.last_side = None
            return
        self.last_side = A if last_side == A else B  # the Side, not the record's string
        if end is None:
            if answered:
                raise BettingError("no_answer", lance=lance)
            return
        if end != "quiero" and end != "no_quiero":
            raise BettingError("end_value", lance=lance, got=show(end))
        self.end = end
        self.quiero = end == "quiero"


__all__ = ["ENDS", "Betting"]
