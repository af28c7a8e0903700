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
    tally = _Tally(reading, winners, partial, score_a, score_b)
    # The hand as played: dejes at once, an accepted órdago ends the juego; then the
    # count (recuento) in lance order, stopping at the target.
    if bettings or open_lances:
        _play_bets(tally, bettings, open_lances)
    if tally.winner is None:
        _recuento(tally, bettings)
    return tally.result()


class _Tally:
    """One hand's count as it goes: the score, the steps, what each lance credited."""

    __slots__ = ("reading", "winners", "partial", "shown_all", "target", "a", "b", "steps",
                 "lances", "winner", "ended_by", "ordago")

    def __init__(
        self, reading: Reading, winners: Mapping[str, str], partial: bool, a: int, b: int
    ) -> None:
        self.reading = reading
        self.winners = winners
        self.partial = partial
        # The common case, every seat's cards shown: all the lances' winners in one pass.
        self.shown_all = showdown(reading) if len(reading.shown) == reading.n else None
        self.target = reading.rules.target
        self.a = a
        self.b = b
        self.steps: list[dict[str, Any]] = []
        self.lances: dict[str, dict[str, Any]] = {
            GRANDE: {"side": None, "points": 0},
            CHICA: {"side": None, "points": 0},
            PARES: {"side": None, "points": 0},
            reading.fourth or JUEGO: {"side": None, "points": 0},
        }
        self.winner: str | None = None
        self.ended_by: str | None = None
        self.ordago: dict[str, Any] | None = None

    def pending(self, lance: str | None) -> Pending:
        """The count stops here: ``lance`` needs what is not entered yet."""
        return Pending(lance, self.steps, self.a, self.b)

    def winner_of(self, lance: str) -> Side:
        """The side that wins a lance at the showdown (a lie, the cards, else `winners`)."""
        reading = self.reading
        lied = reading.lied
        if lied:
            liars = lied.get(lance)
            if liars:
                return SIDES[(liars[0] & 1) ^ 1]
        shown_all = self.shown_all
        if shown_all is not None and lance in shown_all:
            return shown_all[lance]
        winners = self.winners
        if winners and lance in winners:
            return A if winners[lance] == A else B
        side = reading.settled(lance)
        if side is None:
            if self.partial:
                raise self.pending(lance)
            missing = next(s for s in reading.order if reading.evals[s] is None and (
                lance not in (PARES, JUEGO)
                or (reading.pares if lance == PARES else reading.juego)[s] is not None
            ))
            raise RecordError("winner_missing", lance=lance, seat=missing)
        return side

    def add(self, step: dict[str, Any]) -> bool:
        """Credit a step to its side; True when that side reached the target."""
        side = step["side"]
        points = step["points"]
        if side == A:
            self.a += points
            reached = self.a >= self.target
        else:
            self.b += points
            reached = self.b >= self.target
        step["score"] = {A: self.a, B: self.b}
        self.steps.append(step)
        credited = self.lances[step["lance"]]
        credited["side"] = side
        credited["points"] += points
        return reached

    def result(self) -> dict[str, Any]:
        """The contract's result (docs/contract.md, "The result")."""
        result: dict[str, Any] = {
            "score": {A: self.a, B: self.b},
            "winner": self.winner,
            "ended_by": self.ended_by,
            "lances": self.lances,
            "recuento": self.steps,
        }
        if self.ordago is not None:
            result["ordago"] = self.ordago
        lied = self.reading.lied
        if lied:
            result["lies"] = [
                {"seat": seat, "lance": lance, "side": side_name(seat)}
                for lance in (PARES, JUEGO) for seat in lied.get(lance, ())
            ]
        return result


def _play_bets(tally: _Tally, bettings: dict[str, Betting], open_lances: Collection[str]) -> None:
    """The betting as played, in lance order: a rejected bet's deje at once (the juego
    ends when it reaches the target), an accepted órdago ends the juego."""
    reading = tally.reading
    lied = reading.lied
    fourth = reading.fourth
    partial = tally.partial
    for lance in (GRANDE, CHICA, PARES, fourth or JUEGO):
        if partial and (lance in open_lances or (fourth is None and lance == JUEGO and (
            JUEGO in bettings or PUNTO in bettings or JUEGO in open_lances or PUNTO in open_lances
        ))):
            raise tally.pending(lance)
        betting = bettings.get(lance)
        if betting is None:
            continue
        if lance is not GRANDE and lance is not CHICA:
            _check_bettable(tally, lance)
        liars = lied.get(lance) if lied else None
        if liars and len({seat & 1 for seat in liars}) == 2:
            continue  # both sides lied: nobody collects anything in the lance
        if not betting.quiero:
            # rules.md: the side that lied loses every envite of the lance, so the
            # deje goes to the other side, whoever bet.
            side = SIDES[(liars[0] & 1) ^ 1] if liars else betting.last_side or ""
            step: dict[str, Any] = {"lance": lance, "side": side, "points": betting.deje,
                                    "why": "deje"}
            if tally.add(step):
                tally.winner, tally.ended_by = step["side"], "deje"
                return
        elif betting.ordago:
            won = tally.winner_of(lance)
            tally.lances[lance] = {"side": won, "points": 0}
            tally.winner, tally.ended_by = won, "ordago"
            tally.ordago = {"lance": lance, "side": won}
            if liars:
                tally.ordago["lies"] = liars
            return


def _check_bettable(tally: _Tally, lance: str) -> None:
    """Pares and juego are bet on only when both sides play them (else an error); in a
    partial hand, the count waits while that, or a lie in the lance, is not known."""
    reading = tally.reading
    can_bet = reading.bettable(lance)
    if can_bet is None:
        raise tally.pending(lance)
    if not can_bet:
        sides = reading.sides.get(lance, set())
        if len(sides) == 1:
            raise BettingError("bet_one_side", lance=lance, side=side_name(next(iter(sides))))
        raise BettingError("bet_nobody", lance=lance)
    if reading.unsure and not reading.lie_known(lance):
        raise tally.pending(lance)


def _recuento(tally: _Tally, bettings: dict[str, Betting]) -> None:
    """The count at the showdown, in lance order, stopping when a side reaches the target."""
    fourth = tally.reading.fourth
    partial = tally.partial
    for lance in (GRANDE, CHICA, PARES, fourth or JUEGO):
        if partial and fourth is None and lance == JUEGO:
            raise tally.pending(None)
        in_lance = bettings.get(lance) if bettings else None
        # The lances are the constants above: `is` compares them.
        if lance is PARES or lance is JUEGO:
            step = _jugada_step(tally, lance, in_lance)
        else:
            step = _lance_step(tally, lance, in_lance)
        if step is not None and tally.add(step):
            tally.winner, tally.ended_by = step["side"], "recuento"
            return


def _lance_step(tally: _Tally, lance: str, in_lance: Betting | None) -> dict[str, Any] | None:
    """Grande, chica or punto at the count: 1 en paso, the stake (+1 in punto) when
    accepted; a rejected bet was paid by its deje (punto adds its 1 to the betting side)."""
    if lance is PUNTO and len(tally.reading.denied_juego) == tally.reading.n:
        return None  # every seat denied its juego: nobody plays punto
    extra = 1 if lance is PUNTO else 0
    if in_lance is None:
        return {"lance": lance, "side": tally.winner_of(lance), "points": 1, "why": "paso"}
    if in_lance.quiero:
        return {"lance": lance, "side": tally.winner_of(lance),
                "points": in_lance.stake + extra, "why": "quiero", "stake": in_lance.stake}
    if extra:
        return {"lance": lance, "side": in_lance.last_side or "", "points": 1,
                "why": "no_quiero"}
    return None


def _jugada_step(tally: _Tally, lance: str, in_lance: Betting | None) -> dict[str, Any] | None:
    """Pares or juego at the count: the collecting side's premiums, plus the stake when
    accepted; a liar's side loses it to the other; nothing when nobody collects."""
    reading = tally.reading
    unsure = reading.unsure
    if unsure and (reading.maybe[lance] or not reading.lie_known(lance)):
        raise tally.pending(lance)  # who plays it, or who lied, is not known yet
    sides = reading.sides[lance]
    if not sides:
        return None
    stake = 0
    side: str
    lied = reading.lied
    liars = lied.get(lance) if lied else None
    if liars:
        if len({seat & 1 for seat in liars}) == 2:
            return None  # both sides lied: neither can collect the lance
        # The other side collects as if it had won: its stake and premiums.
        side = SIDES[(liars[0] & 1) ^ 1]
        why = "mentira"
        if in_lance is not None and in_lance.quiero:
            stake = in_lance.stake
    elif len(sides) == 1:
        side = side_name(next(iter(sides)))
        why = "solo"
    elif in_lance is None:
        side = tally.winner_of(lance)
        why = "paso"
    elif in_lance.quiero:
        side = tally.winner_of(lance)
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
        raise tally.pending(lance)  # a holder of the collecting side is not known
    points, detail = premiums(reading, lance, side)
    step = jugada_step(lance, side, why, points, stake, detail)
    if step is not None and liars:
        step["liars"] = liars
    return step


def jugada_step(
    lance: str, side: str, why: str, points: int, stake: int, detail: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """A pares or juego step of the recuento (without its score): the premiums and the
    stake; None when the side collects nothing."""
    if not points + stake:
        return None
    step: dict[str, Any] = {"lance": lance, "side": side, "points": points + stake, "why": why,
                            "premiums": detail}
    if stake:
        step["stake"] = stake
    return step
