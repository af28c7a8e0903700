"""Counting a hand: the dejes at once, an accepted órdago, then the recuento.

The last of the three phases of scoring. rules.md, "The count (recuento) and the end
of a juego": dejes are scored the moment they happen; an accepted órdago ends the
juego; after the betting the lances are counted in order (grande, chica, pares, juego
or punto), each lance's piedras to one side, and the count stops the moment a side
reaches the target. "Declarations and lies": the side that lied in a lance loses it
and every envite in it; when both sides lied nobody collects anything in it.

Counting a partial hand (the hand draft's) stops with :class:`Pending` at the first
step it cannot know yet; the steps before it are certain.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from muscore.rules.betting import Betting
from muscore.rules.cards import (
    CHICA,
    GRANDE,
    JUEGO,
    PARES,
    PARES_PREMIUM,
    PUNTO,
    SIDES,
    A,
    B,
    Side,
)
from muscore.rules.errors import BettingError, RecordError
from muscore.rules.reading import Reading, showdown, side_name


class Pending(Exception):  # noqa: N818 - not an error: the count waits for a fact
    """The count of a partial hand stopped: ``lance`` needs what is not entered yet.

    ``steps`` are the recuento's steps so far (certain: the final recuento starts
    with them) and ``score`` the score after them.
    """

    def __init__(self, lance: str | None, steps: list[dict[str, Any]], a: int, b: int) -> None:
        super().__init__(lance)
        self.lance = lance
        self.steps = steps
        self.score: dict[str, int] = {A: a, B: b}


def premiums(reading: Reading, lance: str, side: str) -> tuple[int, list[dict[str, Any]]]:
    """What the side's holders collect: every one of them, the weaker partner too."""
    total = 0
    detail = []
    held_by: list[Any] = reading.pares if lance == PARES else reading.juego
    for seat in range(0 if side == A else 1, reading.n, 2):
        held = held_by[seat]
        if held is None:
            continue
        if lance == PARES:
            kind = held[0]
            points = PARES_PREMIUM[kind]
            detail.append({"seat": seat, "jugada": kind, "points": points})
        else:
            points = 3 if held == 31 else 2
            detail.append({"seat": seat, "jugada": held, "points": points})
        total += points
    return total, detail


def count(
    reading: Reading,
    bettings: dict[str, Betting],
    winners: Mapping[str, str],
    score_a: int,
    score_b: int,
    *,
    partial: bool = False,
    open_lances: Collection[str] = (),
) -> dict[str, Any]:
    """The counting phase: the contract's result of a hand read and bet.

    ``bettings`` holds the answered betting of each lance somebody bet in. With
    ``partial``, ``open_lances`` are the lances whose betting is not over, and the
    count raises :class:`Pending` where it would need what is not known yet.
    """
    n = reading.n
    lied = reading.lied
    denied_juego = reading.denied_juego
    unsure = reading.unsure
    fourth = reading.fourth
    target = reading.rules.target
    a, b = score_a, score_b
    steps: list[dict[str, Any]] = []
    # The common case, every seat's cards shown: all the lances' winners in one pass.
    shown_all = showdown(reading) if len(reading.shown) == n else None

    def pending(lance: str | None) -> Pending:
        return Pending(lance, steps, a, b)

    def winner_of(lance: str) -> Side:
        """The side that wins a lance at the showdown (a lie, the cards, else `winners`)."""
        if lied:
            liars = lied.get(lance)
            if liars:
                return SIDES[(liars[0] & 1) ^ 1]
        if shown_all is not None and lance in shown_all:
            return shown_all[lance]
        if winners and lance in winners:
            return A if winners[lance] == A else B
        side = reading.settled(lance)
        if side is None:
            if partial:
                raise pending(lance)
            missing = next(s for s in reading.order if reading.evals[s] is None and (
                lance not in (PARES, JUEGO)
                or (reading.pares if lance == PARES else reading.juego)[s] is not None
            ))
            raise RecordError("winner_missing", lance=lance, seat=missing)
        return side

    lance_order = (GRANDE, CHICA, PARES, fourth or JUEGO)
    lances_out: dict[str, dict[str, Any]] = {
        GRANDE: {"side": None, "points": 0},
        CHICA: {"side": None, "points": 0},
        PARES: {"side": None, "points": 0},
        fourth or JUEGO: {"side": None, "points": 0},
    }
    winner: str | None = None
    ended_by: str | None = None
    ordago: dict[str, Any] | None = None
    side: str

    # -- the hand as played: dejes at once, an accepted órdago ends the juego ----------
    if bettings or open_lances:
        for lance in lance_order:
            if partial and (lance in open_lances or (fourth is None and lance == JUEGO and (
                JUEGO in bettings or PUNTO in bettings
                or JUEGO in open_lances or PUNTO in open_lances
            ))):
                raise pending(lance)
            found = bettings.get(lance)
            if found is None:
                continue
            betting = found
            if lance is not GRANDE and lance is not CHICA:
                can_bet = reading.bettable(lance)
                if can_bet is None:
                    raise pending(lance)
                if not can_bet:
                    sides = reading.sides.get(lance, set())
                    if len(sides) == 1:
                        raise BettingError(
                            "bet_one_side", lance=lance, side=side_name(next(iter(sides)))
                        )
                    raise BettingError("bet_nobody", lance=lance)
                if unsure and not reading.lie_known(lance):
                    raise pending(lance)
            liars = lied.get(lance) if lied else None
            if liars and len({seat & 1 for seat in liars}) == 2:
                continue  # both sides lied: nobody collects anything in the lance
            if not betting.quiero:
                # rules.md: the side that lied loses every envite of the lance, so the
                # deje goes to the other side, whoever bet.
                side = SIDES[(liars[0] & 1) ^ 1] if liars else betting.last_side or ""
                deje = betting.deje
                if side == A:
                    a += deje
                else:
                    b += deje
                lances_out[lance] = {"side": side, "points": deje}
                steps.append({"lance": lance, "side": side, "points": deje, "why": "deje",
                              "score": {A: a, B: b}})
                if (a if side == A else b) >= target:
                    winner, ended_by = side, "deje"
                    break
            elif betting.ordago:
                side = winner_of(lance)
                lances_out[lance] = {"side": side, "points": 0}
                winner, ended_by = side, "ordago"
                ordago = {"lance": lance, "side": side}
                if liars:
                    ordago["lies"] = liars
                break

    # -- the count (recuento), in lance order, stopping at the target --------------
    if winner is None:
        for lance in lance_order:
            if partial and fourth is None and lance == JUEGO:
                raise pending(None)
            in_lance = bettings.get(lance) if bettings else None
            step: dict[str, Any]
            # The lances are the constants of lance_order: `is` compares them.
            if lance is not PARES and lance is not JUEGO:
                if lance is PUNTO and len(denied_juego) == n:
                    continue  # every seat denied its juego: nobody plays punto
                extra = 1 if lance is PUNTO else 0
                if in_lance is None:
                    side = winner_of(lance)
                    step = {"lance": lance, "side": side, "points": 1, "why": "paso"}
                elif in_lance.quiero:
                    side = winner_of(lance)
                    step = {"lance": lance, "side": side, "points": in_lance.stake + extra,
                            "why": "quiero", "stake": in_lance.stake}
                elif extra:
                    side = in_lance.last_side or ""
                    step = {"lance": lance, "side": side, "points": 1, "why": "no_quiero"}
                else:
                    continue
            else:
                if unsure and (reading.maybe[lance] or not reading.lie_known(lance)):
                    raise pending(lance)  # who plays it, or who lied, is not known yet
                sides = reading.sides[lance]
                if not sides:
                    continue
                stake = 0
                liars = lied.get(lance) if lied else None
                if liars:
                    if len({seat & 1 for seat in liars}) == 2:
                        continue  # both sides lied: neither can collect the lance
                    # The other side collects as if it had won: its stake and premiums.
                    side = SIDES[(liars[0] & 1) ^ 1]
                    why = "mentira"
                    if in_lance is not None and in_lance.quiero:
                        stake = in_lance.stake
                elif len(sides) == 1:
                    side = side_name(next(iter(sides)))
                    why = "solo"
                elif in_lance is None:
                    side = winner_of(lance)
                    why = "paso"
                elif in_lance.quiero:
                    side = winner_of(lance)
                    why = "quiero"
                    stake = in_lance.stake
                else:
                    side = in_lance.last_side or ""
                    why = "no_quiero"
                if unsure and any(
                    (seat & 1) == (1 if side == B else 0)
                    and reading.declared.get(seat, {}).get(lance) is not False
                    for seat in unsure[lance]
                ):
                    raise pending(lance)  # a holder of the collecting side is not known
                points, detail = premiums(reading, lance, side)
                if not points + stake:
                    continue
                step = {"lance": lance, "side": side, "points": points + stake, "why": why,
                        "premiums": detail}
                if stake:
                    step["stake"] = stake
                if liars:
                    step["liars"] = liars
            points = step["points"]
            if side == A:
                a += points
                reached = a >= target
            else:
                b += points
                reached = b >= target
            step["score"] = {A: a, B: b}
            steps.append(step)
            credited = lances_out[lance]
            credited["side"] = side
            credited["points"] += points
            if reached:
                winner, ended_by = side, "recuento"
                break

    result: dict[str, Any] = {
        "score": {A: a, B: b},
        "winner": winner,
        "ended_by": ended_by,
        "lances": lances_out,
        "recuento": steps,
    }
    if ordago is not None:
        result["ordago"] = ordago
    if lied:
        result["lies"] = [
            {"seat": seat, "lance": lance, "side": side_name(seat)}
            for lance in (PARES, JUEGO) for seat in lied.get(lance, ())
        ]
    return result
