"""A lance's talk: what each player says in turn, and the betting it makes.

rules.md, "Betting in a lance" and "Individual play": from the mano each player of the
lance passes or bets; once a bet stands every other player still in answers it in turn,
quiero, no quiero (he leaves the lance) or a raise, which every other player still in
must answer again, those who had said quiero too. The lance closes when all passed, or
when every player still in answered the last bet without raising: ``"quiero"`` if one of
them held on, ``"no_quiero"`` if all of them left.

A hand record keeps only what the count needs (``bets``, ``out``, ``end``).
:func:`follow` reads a talk into that betting and says whose turn it is and what he may
say; :func:`recount` gives back a talk that makes a record's betting, for a record
entered without its talk. Players are side indices (0 for A...) in speaking order from
the mano.

>>> talk = follow("grande", (0, 1, 2), (Tap.paso(Side.A), Tap.envido(Side.B),
...                                     Tap.no_quiero(Side.C)))
>>> talk.turn, talk.answering, talk.out
(<Side.A: 'A'>, (<Side.A: 'A'>,), (<Side.C: 'C'>,))
>>> follow("grande", (0, 1, 2), (*talk.taps, Tap.quiero(Side.A))).record()
{'bets': [{'side': 'B', 'n': 2}], 'end': 'quiero', 'out': ['C']}
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from muscore.rules.cards import LETTERS, Side, show
from muscore.rules.errors import BettingError, RecordError


class TapKind(enum.StrEnum):
    """What a player (or a side, in pairs) can say in a lance's betting."""

    PASO = "paso"  #: no bet: the player passes (without a side: everybody, the lance closes)
    ENVIDO = "envido"  #: a bet of ``n``; after a bet, a raise of ``n`` more
    ORDAGO = "ordago"  #: the whole juego
    QUIERO = "quiero"  #: accept the last bet (in pairs it closes the lance)
    NO_QUIERO = "no_quiero"  #: reject the last bet: in pairs its deje is paid at once;
    #: in individual play the player leaves the lance


class Tap(NamedTuple):
    """One tap of a lance's betting. ``n`` is the piedras an envido adds (None in
    :meth:`HandDraft.legal_taps`: any whole number from 2 for a first bet, from 1 for a
    raise; a plain envido is 2).

    A tap reads and writes as text (for a form's hidden field or a phone's queue):

    >>> Tap.envido(Side.B, 5).text(), Tap.parse("C:no_quiero"), Tap.paso().text()
    ('B:envido:5', Tap(kind=<TapKind.NO_QUIERO: 'no_quiero'>, side=<Side.C: 'C'>, n=None), ':paso')
    """

    kind: TapKind
    side: Side | None = None
    n: int | None = None

    @classmethod
    def paso(cls, side: Side | None = None) -> Tap:
        """``side`` passes; without a side, everybody (who has not spoken) passes: nobody
        bets in the lance."""
        return cls(TapKind.PASO, None if side is None else Side(side))

    @classmethod
    def envido(cls, side: Side, n: int = 2) -> Tap:
        """``side`` bets ``n`` (envido = 2); after another side's bet, raises by ``n``."""
        return cls(TapKind.ENVIDO, Side(side), n)

    @classmethod
    def ordago(cls, side: Side) -> Tap:
        """``side`` bets the whole juego."""
        return cls(TapKind.ORDAGO, Side(side))

    @classmethod
    def quiero(cls, side: Side) -> Tap:
        """``side`` accepts the last bet."""
        return cls(TapKind.QUIERO, Side(side))

    @classmethod
    def no_quiero(cls, side: Side) -> Tap:
        """``side`` rejects the last bet (in individual play he leaves the lance)."""
        return cls(TapKind.NO_QUIERO, Side(side))

    def text(self) -> str:
        """The tap as text: ``"B:envido:5"``, ``"A:quiero"``, ``":paso"`` (everybody)."""
        side = "" if self.side is None else self.side.value
        amount = "" if self.n is None or self.kind is not TapKind.ENVIDO else f":{self.n}"
        return f"{side}:{self.kind.value}{amount}"

    @classmethod
    def parse(cls, text: str) -> Tap:
        """A tap from :meth:`text`; :class:`RecordError` (``tap_text``) when it is not one."""
        parts = text.split(":") if isinstance(text, str) else []
        try:
            side = Side(parts[0]) if parts[0] else None
            kind = TapKind(parts[1])
            n = int(parts[2]) if len(parts) == 3 and kind is TapKind.ENVIDO else None
            if len(parts) != (3 if n is not None else 2) or (side is None) != (
                    kind is TapKind.PASO and side is None) or (n is not None and n < 1):
                raise ValueError(text)
        except (IndexError, ValueError):
            raise RecordError("tap_text", got=show(text)) from None
        return cls(kind, side, n)


@dataclass(frozen=True, slots=True)
class Talk:
    """A lance's talk followed: the betting it made, and what comes next.

    ``players`` are the sides that play the lance in speaking order; ``bets`` the bets as
    the record writes them; ``out`` the players who left (in the order they left);
    ``end`` "quiero", "no_quiero" or None while open; ``passed`` when nobody bet and
    every player passed; ``turn`` the player who speaks next and ``answering`` those who
    must still answer the standing bet, in order (``turn`` first; empty with no bet).
    """

    lance: str
    players: tuple[Side, ...]
    taps: tuple[Tap, ...]
    bets: tuple[dict[str, str | int], ...]
    out: tuple[Side, ...]
    end: str | None
    passed: bool
    turn: Side | None
    answering: tuple[Side, ...]
    ordago: bool  #: the standing bet is an órdago (only quiero or no quiero answer it)

    @property
    def closed(self) -> bool:
        """Whether the lance's talk is over (passed by all, or its last bet answered)."""
        return self.turn is None

    @property
    def still_in(self) -> tuple[Side, ...]:
        """The players still in the lance (every player but those who left)."""
        return tuple(side for side in self.players if side not in self.out)

    def legal(self) -> tuple[Tap, ...]:
        """What the player whose turn it is may say (an envido's ``n`` left as any)."""
        turn = self.turn
        if turn is None:
            return ()
        if not self.bets:
            return (Tap.paso(turn), Tap(TapKind.ENVIDO, turn), Tap.ordago(turn), Tap.paso())
        answers = (Tap.quiero(turn), Tap.no_quiero(turn))
        if self.ordago:
            return answers
        return (*answers, Tap(TapKind.ENVIDO, turn), Tap.ordago(turn))

    def record(self) -> dict[str, object]:
        """The record's ``lances.<lance>``: the bets, the answer, and (when held on) the
        players who left."""
        data: dict[str, object] = {"bets": [dict(bet) for bet in self.bets]}
        if self.end is not None:
            data["end"] = self.end
        if self.out and self.end != "no_quiero":
            data["out"] = [side.value for side in self.out]
        return data


def _illegal(lance: str, tap: Tap) -> BettingError:
    return BettingError("tap_illegal", lance=lance, tap=tap.kind.value,
                        side=None if tap.side is None else tap.side.value, player=True)


def follow(lance: str, players: Sequence[int], taps: Sequence[Tap]) -> Talk:
    """Follow a lance's talk among ``players`` (side indices, speaking order from the
    mano), tap by tap. Raises :class:`BettingError`: ``tap_turn`` for a player speaking
    out of turn, ``tap_illegal`` for what cannot be said then (a raise of an órdago,
    anything once the lance closed), ``first_bet`` for an envido under 2."""
    order = tuple(LETTERS[i] for i in players)
    if len(order) < 2:  # nobody can bet in a lance played by one player, or by nobody
        if taps:
            raise _illegal(lance, taps[0])
        return Talk(lance, order, (), (), (), None, False, None, (), False)
    table = _Table(lance, order)
    for tap in taps:
        table.say(tap)
    return table.talk()


class _Table:
    """A lance's talk as it goes (see :func:`follow`)."""

    def __init__(self, lance: str, order: tuple[Side, ...]) -> None:
        self.lance = lance
        self.order = order
        self.bets: list[dict[str, str | int]] = []
        self.out: list[Side] = []
        self.spoken = 0  # before a bet: how many players passed
        self.answering: list[Side] = []
        self.held = False  # somebody said quiero to the standing bet
        self.end: str | None = None
        self.passed = False
        self.ordago = False
        self.taps: list[Tap] = []

    def turn(self) -> Side | None:
        if self.end is not None or self.passed:
            return None
        return self.order[self.spoken] if not self.bets else self.answering[0]

    def say(self, tap: Tap) -> None:
        turn = self.turn()
        if turn is None:
            raise _illegal(self.lance, tap)
        if tap.kind is TapKind.PASO and tap.side is None and not self.bets:
            self.passed = True  # everybody (still to speak) passes
            self.taps.append(tap)
            return
        if tap.side != turn:
            if tap.side is None or tap.side not in self.order:
                raise _illegal(self.lance, tap)
            raise BettingError("tap_turn", lance=self.lance, side=tap.side.value,
                               turn=turn.value)
        if tap.kind is TapKind.PASO and not self.bets:
            self.spoken += 1
            self.passed = self.spoken == len(self.order)
        elif tap.kind in (TapKind.ENVIDO, TapKind.ORDAGO) and not self.ordago:
            tap = self.bet(tap, turn)
        elif tap.kind in (TapKind.QUIERO, TapKind.NO_QUIERO) and self.bets:
            self.answering.pop(0)
            if tap.kind is TapKind.QUIERO:
                self.held = True
            else:
                self.out.append(turn)
        else:
            raise _illegal(self.lance, tap)
        self.taps.append(tap)
        if self.bets and not self.answering:
            self.end = "quiero" if self.held else "no_quiero"

    def bet(self, tap: Tap, turn: Side) -> Tap:
        """A bet or a raise: every other player still in answers it, in turn from the
        bettor's right; the tap as kept (an envido with its amount)."""
        if tap.kind is TapKind.ENVIDO:
            n = 2 if tap.n is None else tap.n
            if type(n) is not int or n < 1:
                raise _illegal(self.lance, tap)
            if not self.bets and n < 2:
                raise BettingError("first_bet", lance=self.lance, got=n)
            self.bets.append({"side": turn.value, "n": n})
            tap = Tap.envido(turn, n)
        else:
            self.ordago = True
            self.bets.append({"side": turn.value, "n": "ordago"})
        order = self.order
        k = order.index(turn)
        self.answering = [s for s in order[k + 1:] + order[:k] if s not in self.out]
        self.held = False
        return tap

    def talk(self) -> Talk:
        return Talk(self.lance, self.order, tuple(self.taps), tuple(self.bets),
                    tuple(self.out), self.end, self.passed, self.turn(),
                    tuple(self.answering) if self.end is None else (), self.ordago)


def recount(lance: str, players: Sequence[int], data: Any) -> tuple[Tap, ...]:
    """A talk that makes a lance's betting as a record holds it (``bets``, ``out``,
    ``end``), for a record entered without its talk: the players before the first
    bettor pass, those who left leave at their first answer after their last bet, the
    others hold on (or, for a ``"no_quiero"``, all reject the last bet). Where the
    record has no ``end`` yet, the talk stops at the first answer it cannot know.
    Raises :class:`BettingError` when no talk among ``players`` makes that betting (a
    bettor who does not play the lance)."""
    order = tuple(LETTERS[i] for i in players)
    bets = list(data.get("bets") or ())
    out = {Side(s) for s in data.get("out") or () if s in order}
    end = data.get("end")
    if not bets:
        return (Tap.paso(),) if end is None and data.get("passed") else ()
    taps: list[Tap] = []
    sides = [Side(bet["side"]) for bet in bets]
    for i, side in enumerate(sides, 1):
        if side not in order:
            raise BettingError("bet_not_playing", lance=lance, side=side.value, i=i,
                               players=tuple(s.value for s in order))
    last_bet = {side: i for i, side in enumerate(sides)}
    taps.extend(Tap.paso(side) for side in order[:order.index(sides[0])])
    left: set[Side] = set()
    for i, (side, bet) in enumerate(zip(sides, bets, strict=True)):
        taps.append(Tap.ordago(side) if bet["n"] == "ordago" else Tap.envido(side, bet["n"]))
        k = order.index(side)
        following = sides[i + 1] if i + 1 < len(sides) else None
        for other in order[k + 1:] + order[:k]:
            if other in left:
                continue
            if other == following:
                break
            if other in out and last_bet.get(other, -1) <= i:
                taps.append(Tap.no_quiero(other))
                left.add(other)
            elif following is not None or end == "quiero":
                taps.append(Tap.quiero(other))
            elif end == "no_quiero":
                taps.append(Tap.no_quiero(other))
                left.add(other)
            else:
                return tuple(taps)  # not answered yet: the talk goes on from here
    return tuple(taps)


__all__ = ["Talk", "Tap", "TapKind", "follow", "recount"]
