"""What the hands say: each side's counts from the hands of a vaca (pure, no Django).

The engine (:mod:`muscore.rules`) answers every question of the game; this module only
counts its answers, per side (A: seats 0, 2 (, 4); B: seats 1, 3 (, 5)):

- **lances won**, by kind (grande, chica, pares, juego, punto), and their **piedras**:
  the side the hand's result credits with the lance (``HandResult.lances``: the deje and
  the count together; a lance won by a deje or a no quiero counts, and so does the lance of
  an accepted órdago, won with 0 piedras). Piedras the count never reached (after a side
  reached the target) were never won. ``piedras`` is the sum over the five lances; piedras
  tapped by hand belong to no lance and are left out.
- **envites**: the side's bets with a number (an envido and every raise, órdagos apart),
  and how many of them the other side accepted (quiero).
- **órdagos** called by the side, how many were accepted, and how many of those won the
  juego (the engine's ``HandResult.ordago``).
- **dejes** taken (the recuento's deje steps credited to the side) and given (credited to
  the other side), with their piedras.
- **juegos** won, and of them those won by an accepted órdago (called by either side).

Only the lances whose betting was played count (``HandResult.played``): a bet the record
holds for a lance after the juego was won was never made. The hand record names the side
that bets, never the seat, so a player's counts are his side's in the matches he sat.

>>> counts = count_vaca({"mano": 0, "hands": [{"hands": {
...     "0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
...     "lances": {"grande": {"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"}}}]})
>>> counts["A"].ordagos_won, counts["B"].ordagos, counts["A"].juegos_ordago
(0, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from muscore.rules import HandResult, Lance, Side, replay_vaca

#: The five lances a side can win, in order (the fourth lance is juego or punto).
LANCES: tuple[str, ...] = tuple(lance.value for lance in Lance)


@dataclass(slots=True)
class Counts:
    """One side's counts over some hands (the stored stats' columns, same names)."""

    hands: int = 0
    juegos: int = 0
    juegos_ordago: int = 0
    grande: int = 0
    chica: int = 0
    pares: int = 0
    juego: int = 0
    punto: int = 0
    piedras_grande: int = 0
    piedras_chica: int = 0
    piedras_pares: int = 0
    piedras_juego: int = 0
    piedras_punto: int = 0
    piedras: int = 0
    envites: int = 0
    envites_accepted: int = 0
    ordagos: int = 0
    ordagos_accepted: int = 0
    ordagos_won: int = 0
    dejes_taken: int = 0
    dejes_taken_piedras: int = 0
    dejes_given: int = 0
    dejes_given_piedras: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counts by column name."""
        return {name: getattr(self, name) for name in FIELDS}

    def __iadd__(self, other: Counts) -> Counts:
        for name in FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


#: The column names of :class:`Counts`, in order.
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Counts))


def _count_bets(record: Mapping[str, Any], result: HandResult,
                counts: dict[str, Counts]) -> None:
    """The bets of the lances that were played: envites, órdagos, who accepted them."""
    lances = record.get("lances") or {}
    ordago = result.ordago
    for lance in result.played:
        betting = lances.get(lance.value)
        if not betting:
            continue
        bets: Sequence[Mapping[str, Any]] = betting.get("bets") or []
        quiero = betting.get("end") == "quiero"
        for i, bet in enumerate(bets):
            side = counts[bet["side"]]
            accepted = quiero and i == len(bets) - 1  # only the last bet is answered
            if bet["n"] == "ordago":
                side.ordagos += 1
                if accepted:
                    side.ordagos_accepted += 1
                    if ordago is not None and ordago.lance is lance and ordago.side == bet["side"]:
                        side.ordagos_won += 1
            else:
                side.envites += 1
                side.envites_accepted += accepted


def count_hands(hands: Iterable[tuple[Mapping[str, Any], HandResult]]) -> dict[str, Counts]:
    """Each side's counts ("A", "B") over hands given as (hand record, its result)."""
    counts = {Side.A.value: Counts(), Side.B.value: Counts()}
    for record, result in hands:
        if result.winner is not None:
            won = counts[result.winner.value]
            won.juegos += 1
            won.juegos_ordago += result.ended_by == "ordago"
        if not result.is_dealt:
            continue
        for side in counts.values():
            side.hands += 1
        for got in result.lances:
            if got.side is None:
                continue
            side = counts[got.side.value]
            name = got.lance.value
            setattr(side, name, getattr(side, name) + 1)
            setattr(side, f"piedras_{name}", getattr(side, f"piedras_{name}") + got.points)
            side.piedras += got.points
        for step in result.recuento:
            if step.why == "deje":
                taker, giver = counts[step.side.value], counts[step.side.other.value]
                taker.dejes_taken += 1
                taker.dejes_taken_piedras += step.points
                giver.dejes_given += 1
                giver.dejes_given_piedras += step.points
        _count_bets(record, result, counts)
    return counts


def count_vaca(vaca: Mapping[str, Any]) -> dict[str, Counts]:
    """Each side's counts over a vaca in the contract's replay form (rules, mano, hands),
    replayed by the engine."""
    replayed = replay_vaca(vaca)
    return count_hands(zip(vaca["hands"], replayed.hands, strict=True))


__all__ = ["FIELDS", "LANCES", "Counts", "count_hands", "count_vaca"]
