"""Counting a hand: the dejes at once, an accepted órdago, then the recuento.

The last of the three phases of scoring. rules.md, "The count (recuento) and the end
of a juego": dejes are scored the moment they happen; an accepted órdago ends the
juego; after the betting the lances are counted in order (grande, chica, pares, juego
or punto), each lance's piedras to one side, and the count stops the moment a side
reaches the target. "Declarations and lies": the side that lied in a lance loses it
and every envite in it; when both sides lied nobody collects anything in it.
"Individual play": every player a side of his own; a lance held on is won by the best of
those still in it, a liar collects nothing in his lance (the best honest player does),
and the count stops at the first player to reach the target.

Counting a partial hand (the hand draft's) stops with :class:`Pending` at the first
step it cannot know yet; the steps before it are certain.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from muscore.rules.betting import Betting
from muscore.rules.cards import (
    CHICA,
    GRANDE,
    JUEGO,
    LETTERS,
    PARES,
    PARES_PREMIUM,
    PUNTO,
    SCORE_OF,
    SIDE_INDEX,
    Side,
)
from muscore.rules.contract import Premium
from muscore.rules.errors import BettingError, RecordError
from muscore.rules.reading import NO_SIDES, Reading
from muscore.rules.winners import best_seat, honest, player_list, settled, showdown


class Pending(Exception):  # noqa: N818 - not an error: the count waits for a fact
    """The count of a partial hand stopped: ``lance`` needs what is not entered yet.

    ``steps`` are the recuento's steps so far (certain: the final recuento starts
    with them) and ``score`` the score after them.
    """

    def __init__(self, lance: str | None, steps: list[dict[str, Any]],
                 score: dict[str, int]) -> None:
        super().__init__(lance)
        self.lance = lance
        self.steps = steps
        self.score = score


def premiums(reading: Reading, lance: str, side: int) -> tuple[int, list[Premium]]:
    """What a side's holders collect (``side`` by index): every one of them, the weaker
    partner too; in individual play the player's own."""
    total = 0
    detail: list[Premium] = []
    held_by: list[Any] = reading.pares if lance == PARES else reading.juego
    for seat in range(side, reading.n, reading.k):
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


def still_in(reading: Reading, lance: str, betting: Betting) -> frozenset[int] | None:
    """Individual play: the sides still in a lance held on (its last bettor and every
    player of it who did not leave); None in pairs, where both sides always are."""
    if reading.k == 2:
        return None
    return (reading.players_of(lance) - betting.out) | {betting.last}


def count(
    reading: Reading,
    bettings: dict[str, Betting],
    winners: Mapping[str, str],
    scores: Sequence[int],
    *,
    partial: bool = False,
    open_lances: Collection[str] = (),
) -> dict[str, Any]:
    """The counting phase: the contract's result of a hand read and bet.

    ``bettings`` holds the answered betting of each lance somebody bet in, ``scores``
    each side's piedras before the hand. With ``partial``, ``open_lances`` are the
    lances whose betting is not over, and the count raises :class:`Pending` where it
    would need what is not known yet.
    """
    tally = _Tally(reading, winners, partial, scores)
    # The hand as played: dejes at once, an accepted órdago ends the juego; then the
    # count (recuento) in lance order, stopping at the target.
    if bettings or open_lances:
        _play_bets(tally, bettings, open_lances)
    if tally.winner is None:
        _recuento(tally, bettings)
    return tally.result()


class _Tally:
    """One hand's count as it goes: the score, the steps, what each lance credited."""

    __slots__ = ("reading", "winners", "partial", "shown_all", "target", "scores", "score_of",
                 "steps", "lances", "winner", "ended_by", "ordago")

    def __init__(
        self, reading: Reading, winners: Mapping[str, str], partial: bool,
        scores: Sequence[int],
    ) -> None:
        self.reading = reading
        self.winners = winners
        self.partial = partial
        # The common case, every seat's cards shown: all the lances' winners in one pass.
        self.shown_all = showdown(reading) if len(reading.shown) == reading.n else None
        self.target = reading.rules.target
        self.scores = list(scores)
        self.score_of = SCORE_OF[reading.k]
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

    def score(self) -> dict[str, int]:
        """Each side's piedras now, as the contract writes them."""
        return self.score_of(self.scores)

    def pending(self, lance: str | None) -> Pending:
        """The count stops here: ``lance`` needs what is not entered yet."""
        return Pending(lance, self.steps, self.score())

    def winner_of(self, lance: str, among: frozenset[int] | None = None) -> Side | None:
        """The side that wins a lance at the showdown among the sides ``among`` (None:
        every side that plays it): a lie, the cards, else `winners`. None when nobody
        can (in individual play, no honest player among them)."""
        reading = self.reading
        if reading.lied:
            liars = reading.liar_sides(lance)
            if liars:
                if reading.k == 2:  # pairs: the other side wins the lance of a liar
                    return LETTERS[1 - next(iter(liars))]
                among = honest(reading, lance, among)
                if len(among) <= 1:
                    return LETTERS[next(iter(among))] if among else None
        if among is None:
            shown_all = self.shown_all
            if shown_all is not None and lance in shown_all:
                return shown_all[lance]
        elif self.shown_all is not None:
            seat = best_seat(reading, lance, among)
            if seat is not None:
                return LETTERS[reading.ix[seat]]
        winners = self.winners
        if winners and lance in winners:
            return LETTERS[SIDE_INDEX[winners[lance]]]
        side = settled(reading, lance, among)
        if side is None:
            if self.partial:
                raise self.pending(lance)
            raise RecordError("winner_missing", lance=lance, seat=_missing(reading, lance, among))
        return side

    def add(self, step: dict[str, Any]) -> bool:
        """Credit a step to its side; True when that side reached the target."""
        side = step["side"]
        scores = self.scores
        index = SIDE_INDEX[side]
        scores[index] += step["points"]
        step["score"] = self.score_of(scores)
        self.steps.append(step)
        credited = self.lances[step["lance"]]
        credited["side"] = side
        credited["points"] += step["points"]
        return scores[index] >= self.target

    def result(self) -> dict[str, Any]:
        """The contract's result (docs/contract.md, "The result")."""
        result: dict[str, Any] = {
            "score": self.score(),
            "winner": self.winner,
            "ended_by": self.ended_by,
            "lances": self.lances,
            "recuento": self.steps,
        }
        if self.ordago is not None:
            result["ordago"] = self.ordago
        lied = self.reading.lied
        if lied:
            ix = self.reading.ix
            result["lies"] = [
                {"seat": seat, "lance": lance, "side": LETTERS[ix[seat]]}
                for lance in (PARES, JUEGO) for seat in lied.get(lance, ())
            ]
        return result


def _missing(reading: Reading, lance: str, among: frozenset[int] | None) -> int:
    """The first seat from the mano whose missing cards leave the lance open."""
    held: Sequence[object] | None = (
        reading.pares if lance == PARES else reading.juego if lance == JUEGO else None)
    unshown = [s for s in reading.order if reading.evals[s] is None]
    for seat in unshown:
        if (among is None or reading.ix[seat] in among) and (held is None or held[seat]
                                                             is not None):
            return seat
    return unshown[0]


def _play_bets(tally: _Tally, bettings: dict[str, Betting], open_lances: Collection[str]) -> None:
    """The betting as played, in lance order: a rejected bet's deje at once (the juego
    ends when it reaches the target), an accepted órdago ends the juego."""
    reading = tally.reading
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
        if reading.k > 2:
            _check_players(tally, lance, betting)
        liars = reading.liar_sides(lance) if reading.lied else NO_SIDES
        if reading.k == 2 and len(liars) == 2:
            continue  # both sides lied: nobody collects anything in the lance
        if not betting.quiero:
            # rules.md: the side that lied loses every envite of the lance, so the deje
            # goes to the other side, whoever bet; in individual play a liar's deje goes
            # to the best honest player of the lance.
            side: Side | None = betting.last_side
            if liars and (reading.k == 2 or betting.last in liars):
                side = tally.winner_of(lance)
                if side is None:
                    continue  # nobody honest plays the lance: nobody takes the deje
            step: dict[str, Any] = {"lance": lance, "side": side, "points": betting.deje,
                                    "why": "deje"}
            if tally.add(step):
                tally.winner, tally.ended_by = step["side"], "deje"
                return
        elif betting.ordago:
            won = tally.winner_of(lance, still_in(reading, lance, betting))
            if won is None:
                continue  # nobody honest still in: the órdago wins nobody the juego
            tally.lances[lance] = {"side": won, "points": 0}
            tally.winner, tally.ended_by = won, "ordago"
            tally.ordago = {"lance": lance, "side": won}
            if liars:
                tally.ordago["lies"] = reading.lied[lance]
            return


def _check_bettable(tally: _Tally, lance: str) -> None:
    """Pares and juego are bet on only when two sides play them (else an error); in a
    partial hand, the count waits while that, or a lie in the lance, is not known."""
    reading = tally.reading
    can_bet = reading.bettable(lance)
    if can_bet is None:
        raise tally.pending(lance)
    if not can_bet:
        sides = reading.sides.get(lance, set())
        if len(sides) == 1:
            only = LETTERS[next(iter(sides))]
            if reading.k == 2:
                raise BettingError("bet_one_side", lance=lance, side=only)
            raise BettingError("bet_one_player", lance=lance, side=only)
        raise BettingError("bet_nobody", lance=lance)
    if reading.unsure and not reading.lie_known(lance):
        raise tally.pending(lance)


def _check_players(tally: _Tally, lance: str, betting: Betting) -> None:
    """Individual play: the bets and ``out`` of a lance name only players of it, and a
    quiero needs somebody still in against the last bet (docs/contract.md, ``out``)."""
    reading = tally.reading
    if reading.maybe.get(lance):
        raise tally.pending(lance)  # who plays it is not known yet
    players = reading.players_of(lance)
    for i, side in enumerate(betting.bettors, 1):
        if side not in players:
            raise BettingError("bet_not_playing", lance=lance, side=LETTERS[side], i=i,
                               players=player_list(players))
    for side in sorted(betting.out):
        if side not in players:
            raise BettingError("out_not_playing", lance=lance, side=LETTERS[side],
                               players=player_list(players))
    if betting.quiero and not players - betting.out - {betting.last}:
        raise BettingError("quiero_nobody", lance=lance, side=betting.last_side,
                           out=player_list(betting.out))


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
    reading = tally.reading
    if lance is PUNTO and len(reading.denied_juego) == reading.n:
        return None  # every seat denied its juego: nobody plays punto
    extra = 1 if lance is PUNTO else 0
    if in_lance is None:
        return {"lance": lance, "side": tally.winner_of(lance), "points": 1, "why": "paso"}
    if in_lance.quiero:
        return {"lance": lance, "side": tally.winner_of(lance, still_in(reading, lance, in_lance)),
                "points": in_lance.stake + extra, "why": "quiero", "stake": in_lance.stake}
    if extra:
        return {"lance": lance, "side": in_lance.last_side, "points": 1, "why": "no_quiero"}
    return None


def _jugada_step(tally: _Tally, lance: str, in_lance: Betting | None) -> dict[str, Any] | None:
    """Pares or juego at the count: the collecting side's premiums, plus the stake when
    accepted; a liar's side loses it to the other (individual: a liar collects nothing);
    nothing when nobody collects."""
    reading = tally.reading
    unsure = reading.unsure
    if unsure and (reading.maybe[lance] or not reading.lie_known(lance)):
        raise tally.pending(lance)  # who plays it, or who lied, is not known yet
    sides = reading.sides[lance]
    if not sides:
        return None
    stake = 0
    side: Side | None
    liars = reading.liar_sides(lance) if reading.lied else NO_SIDES
    if liars:
        if reading.k == 2 and len(liars) == 2:
            return None  # both sides lied: neither can collect the lance
        quiero = in_lance is not None and in_lance.quiero
        if reading.k > 2 and in_lance is not None and not quiero and in_lance.last not in liars:
            side = in_lance.last_side  # an honest bettor's lance, rejected: his
        else:
            # The other side (individual: the best honest player) collects as if it had
            # won: its stake and premiums.
            side = tally.winner_of(lance, still_in(reading, lance, in_lance)
                                   if quiero and in_lance is not None else None)
            if side is None:
                return None
        why = "mentira"
        if quiero and in_lance is not None:
            stake = in_lance.stake
    elif len(sides) == 1:
        side = LETTERS[next(iter(sides))]
        why = "solo"
    elif in_lance is None:
        side = tally.winner_of(lance)
        why = "paso"
    elif in_lance.quiero:
        side = tally.winner_of(lance, still_in(reading, lance, in_lance))
        why = "quiero"
        stake = in_lance.stake
    else:
        side = in_lance.last_side
        why = "no_quiero"
    assert side is not None
    index = SIDE_INDEX[side]
    if unsure and any(
        reading.ix[seat] == index and reading.declared.get(seat, {}).get(lance) is not False
        for seat in unsure[lance]
    ):
        raise tally.pending(lance)  # a holder of the collecting side is not known
    points, detail = premiums(reading, lance, index)
    step = jugada_step(lance, side, why, points, stake, detail)
    if step is not None and liars:
        step["liars"] = reading.lied[lance]
    return step


def jugada_step(
    lance: str, side: str, why: str, points: int, stake: int, detail: list[Premium]
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
