"""Typed views of the contract's results, for Python callers.

The engine builds the contract's result dicts (that is what gets stored,
served and compared); these frozen value types read them with enums and
attributes, like ``chess.Outcome`` in python-chess:

>>> from muscore.rules import score_hand
>>> result = score_hand({"hands": {"0": "R R 5 4", "1": "R C C 5",
...                                "2": "1 1 6 7", "3": "S S 7 7"}})
>>> result.score
{<Side.A: 'A'>: 2, <Side.B: 'B'>: 8}
>>> result.lance(Lance.PARES)
LanceResult(lance=<Lance.PARES: 'pares'>, side=<Side.B: 'B'>, points=4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from muscore.rules.cards import Lance, Side
from muscore.rules.contract import HandResultDict, Score, VacaReplay


class LanceResult(NamedTuple):
    """What one lance gave in a hand: the side credited (or None) and all its piedras."""

    lance: Lance
    side: Side | None
    points: int


class Ordago(NamedTuple):
    """An accepted órdago that won the juego: the lance it was called in and the side
    whose cards (or the other side's lie) won that lance."""

    lance: Lance
    side: Side


class Step(NamedTuple):
    """One step of the recuento: a deje during the betting or a lance at the count."""

    lance: Lance
    side: Side
    points: int
    why: str  #: "deje", "paso", "quiero", "no_quiero" or "solo"
    score: dict[Side, int]  #: the score after this step


def _side(value: str | None) -> Side | None:
    return None if value is None else Side(value)


def _score(value: Score) -> dict[Side, int]:
    return {Side.A: value["A"], Side.B: value["B"]}


@dataclass(frozen=True)
class HandResult:
    """The result of one hand, read from the contract's result dict (``to_json()``)."""

    data: HandResultDict

    @property
    def score(self) -> dict[Side, int]:
        """Each side's piedras after the hand (the count stopped at the target)."""
        return _score(self.data["score"])

    @property
    def winner(self) -> Side | None:
        """The side that won the juego in this hand, or None."""
        return _side(self.data["winner"])

    @property
    def ended_by(self) -> str | None:
        """How the juego ended in this hand: "deje", "ordago", "recuento" or None."""
        value: str | None = self.data["ended_by"]
        return value

    @property
    def lances(self) -> tuple[LanceResult, ...]:
        """The four lances in order, the fourth named juego or punto."""
        return tuple(
            LanceResult(Lance(name), _side(got["side"]), got["points"])
            for name, got in self.data["lances"].items()
        )

    def lance(self, lance: Lance | str) -> LanceResult:
        """One lance's result (KeyError for the fourth lance that was not played)."""
        got = self.data["lances"][Lance(lance).value]
        return LanceResult(Lance(lance), _side(got["side"]), got["points"])

    @property
    def is_piedras(self) -> bool:
        """Piedras tapped by hand (+1, +5, -1), not a dealt hand: no lances, no betting."""
        return "piedras" in self.data

    @property
    def is_perete(self) -> bool:
        """A perete noted (4 5 6 7: one piedra to its side), not a dealt hand either."""
        return "perete" in self.data

    @property
    def is_dealt(self) -> bool:
        """A hand dealt and played: neither piedras tapped by hand nor a perete."""
        return not (self.is_piedras or self.is_perete)

    @property
    def ordago(self) -> Ordago | None:
        """The accepted órdago that ended the juego in this hand, or None (no órdago was
        accepted, or both sides lied in its lance: then it wins nobody the juego)."""
        got = self.data.get("ordago")
        return None if got is None else Ordago(Lance(got["lance"]), Side(got["side"]))

    @property
    def played(self) -> tuple[Lance, ...]:
        """The lances whose betting was played, in order (the fourth named juego or punto).

        Every lance, unless the juego was won during the betting (a deje that reached the
        target, an accepted órdago): then the lances up to that one. Whatever the record
        holds for a later lance was never played (docs/contract.md). None for piedras.
        """
        names = tuple(Lance(name) for name in self.data["lances"])
        if self.ended_by == "ordago":
            last = Lance(self.data["ordago"]["lance"])
        elif self.ended_by == "deje":
            last = Lance(str(self.data["recuento"][-1]["lance"]))  # the deje that reached it
        else:
            return names
        return names[:names.index(last) + 1]

    @property
    def recuento(self) -> tuple[Step, ...]:
        """The steps in the order they were taken: dejes first, then the count (piedras
        tapped by hand have no lance: their step is left out here)."""
        return tuple(
            Step(Lance(s["lance"]), Side(s["side"]), s["points"], s["why"], _score(s["score"]))
            for s in self.data["recuento"] if s["lance"] is not None
        )

    def to_json(self) -> HandResultDict:
        """The contract's result object."""
        return self.data


@dataclass(frozen=True)
class VacaResult:
    """The replay of a vaca, read from the contract's replay output."""

    data: VacaReplay

    @property
    def winner(self) -> Side | None:
        """The side that won the vaca, or None while it goes on."""
        return _side(self.data["winner"])

    @property
    def juegos(self) -> dict[Side, int]:
        """Juegos won by each side."""
        return _score(self.data["juegos"])

    @property
    def score(self) -> dict[Side, int]:
        """The score of the juego being played (0-0 right after a juego is won)."""
        return _score(self.data["score"])

    @property
    def next_mano(self) -> int:
        """The seat that is mano in the next hand."""
        value: int = self.data["next_mano"]
        return value

    @property
    def hands(self) -> tuple[HandResult, ...]:
        """Each hand's result, in order."""
        return tuple(HandResult(h["result"]) for h in self.data["hands"])

    def to_json(self) -> VacaReplay:
        """The contract's replay output."""
        return self.data
