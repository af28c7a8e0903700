"""What a hand in progress asks the table: the winners its cards leave open.

:class:`Asking` is the part of :class:`muscore.rules.HandDraft` that answers about a
lance's winner: which side (or player) the cards, the jugadas or a lie already give it,
which winners the table must still say, and which of those it said contradict what is
known. It asks the same code the count does (:mod:`muscore.rules.winners`): in pairs and
en paso among every side that plays the lance, and in individual play, for a lance held
on, among the players still in it (rules.md, "Individual play").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Self

from muscore.rules.cards import LETTERS, Lance, Rules, Side
from muscore.rules.errors import BettingError, RecordError, RuleError
from muscore.rules.reading import Reading
from muscore.rules.winners import best_seat, read_winners, settled

#: The lances in the order they are bet and counted; the fourth is juego or punto.
ORDER: tuple[Lance, ...] = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO)
LANCE_NAMES = frozenset(lance.value for lance in Lance)


def lance_of(name: object) -> Lance:
    """A lance from its name, or the record's error."""
    if isinstance(name, str) and name in LANCE_NAMES:
        return Lance(name)
    raise RecordError("lance_name", key=str(name)[:40])


class Asking:
    """The winners' questions of a :class:`~muscore.rules.HandDraft` (a mixin: the draft
    gives it its reading, its winners and answers, and what the betting decided)."""

    if TYPE_CHECKING:
        rules: Rules
        winners: Mapping[Lance, Side]
        ends: Mapping[Lance, str]
        bets: Mapping[Lance, tuple[dict[str, str | int], ...]]

        @property
        def _reading(self) -> Reading: ...

        @property
        def _ended_in(self) -> Lance | None: ...

        @property
        def _counted_to(self) -> Lance | None: ...

        def played(self, lance: Lance | str) -> bool | None: ...

        def bettable(self, lance: Lance | str) -> bool | None: ...

        def with_winner(self, lance: Lance | str, side: Side | str | None) -> Self: ...

        def _among(self, lance: Lance) -> frozenset[int] | None: ...

        def _held_on(self) -> dict[str, frozenset[int]]: ...

    def settled(self, lance: Lance | str) -> Side | None:
        """The side the cards, the jugadas or a lie already give the lance (None: they do
        not settle it, or not yet). In individual play, the player who collects it: the
        best of those still in a lance held on, the best honest player where one lied."""
        name = lance_of(lance)
        if self.played(name) is False:
            return None
        side = settled(self._reading, name.value, self._among(name))
        return None if side is None else Side(side)

    def settled_winners(self) -> dict[Lance, Side]:
        """Every lance the cards, jugadas or lies already settle."""
        out = {}
        for state_lance in ORDER:
            side = self.settled(state_lance)
            if side is not None:
                out[state_lance] = side
        return out

    def lance_winner_seat(self, lance: Lance | str) -> int | None:
        """The seat whose cards win the lance, once the cards that decide it are shown: the
        best hand among the seats that play it (not a seat that said "no" to pares or
        juego, nor in punto one that denied its juego; in individual play, of a lance held
        on, among those still in), equal hands to the seat nearest the mano. None while a
        seat's cards are missing (in pairs: any seat's), when the lance is not played,
        or when a lie gives it in pairs (the cards do not decide it then). Its side is
        :meth:`settled`'s."""
        name = lance_of(lance)
        if self.played(name) is False:
            return None
        return best_seat(self._reading, name.value, self._among(name))

    def winners_needed(self) -> tuple[Lance, ...]:
        """The lances whose winner the table must still give: played (or maybe played),
        not settled by cards, jugadas or a lie, no winner entered, and counted. Once the
        betting won the juego (an accepted órdago, a deje reaching the target) nothing is
        counted but that lance: the lances before and after it need no winner; once the
        count reached the target in a lance, the lances after it need none either."""
        reading = self._reading
        ended = self._ended_in
        counted = self._counted_to
        alone = reading.k > 2
        out = []
        for lance in ORDER:
            if lance in self.winners or self.played(lance) is False:
                continue
            if self.ends.get(lance) == "no_quiero" and not (alone and self._liar_bet(lance)):
                continue  # a rejected bet is paid without a winner
            if ended not in (None, lance):
                continue  # an unplayed lance neither
            if counted is not None and ORDER.index(lance) > ORDER.index(counted):
                continue  # the count reached the target before this lance: it never counts
            name = lance.value
            if lance in (Lance.PARES, Lance.JUEGO):
                if not (reading.sides[name] or reading.maybe[name]):
                    continue
                if not alone and reading.liar_side(name) is not None:
                    continue
                sides = reading.sides[name] | reading.maybe[name]
                if len(sides) < 2:
                    continue  # one side only: it collects, nobody needs to win
            if lance is Lance.PUNTO and len(reading.denied_juego) == reading.n:
                continue
            if settled(reading, name, self._among(lance)) is None and not (
                    alone and self._nobody_honest(lance)):
                out.append(lance)
        return tuple(out)

    def _liar_bet(self, lance: Lance) -> bool:
        """Individual play: the last bet of the lance was a liar's (its deje goes to the
        best honest player, whom the table may have to name)."""
        bets = self.bets.get(lance)
        if not bets:
            return False
        reading = self._reading
        index = LETTERS.index(Side(str(bets[-1]["side"])))
        return index in reading.liar_sides(lance.value)

    def _nobody_honest(self, lance: Lance) -> bool:
        """Individual play: a liar plays the lance and nobody honest can collect it."""
        reading = self._reading
        liars = reading.liar_sides(lance.value)
        if not liars or not reading.lie_known(lance.value):
            return False
        among = self._among(lance)
        players = reading.players_of(lance.value) if among is None else among
        return not players - liars

    def asking_winners(
        self, given: Mapping[str, str | None]
    ) -> tuple[Self, tuple[Lance, ...]]:
        """The lances whose winner the table is asked, given the winners it said
        (``{"grande": "A", ...}``), and the draft with those winners entered. A lance is
        asked when it needs a winner with every other given winner in: once grande's
        winner ends the juego at the count, chica's is not asked, and a winner given for
        a lance that is not asked is left out of the draft (it could not count)."""
        named = {Lance(k): v for k, v in given.items() if v and k in LANCE_NAMES}
        needed = self.winners_needed()
        full = self
        for lance in needed:
            if lance in named:
                full = full.with_winner(lance, named[lance])
        asked = tuple(lance for lance in needed
                      if lance in full.with_winner(lance, None).winners_needed())
        draft = self
        for lance in asked:
            if lance in named:
                draft = draft.with_winner(lance, named[lance])
        return draft, asked

    def problems(self) -> tuple[RuleError, ...]:
        """What is entered that cannot stand: a winner contradicting the cards, jugadas or
        a lie (the error names both), a bet where nobody can bet."""
        reading = self._reading
        out: list[RuleError] = (self._alone_winner_problems() if reading.k > 2
                                else self._winner_problems())
        for lance, bets in self.bets.items():
            if not bets or self.bettable(lance) is not False:
                continue
            if lance is Lance.JUEGO and reading.fourth == "punto":
                out.append(BettingError("juego_not_punto"))
            elif lance is Lance.PUNTO and reading.fourth == "juego":
                seat = reading.first_juego_seat()
                out.append(BettingError("punto_not_juego", seat=seat))
            elif len(reading.sides.get(lance.value, ())) == 1:
                only = LETTERS[next(iter(reading.sides[lance.value]))]
                out.append(BettingError("bet_one_side" if reading.k == 2 else "bet_one_player",
                                        lance=lance.value, side=only))
            else:
                out.append(BettingError("bet_nobody", lance=lance.value))
        return tuple(out)

    def _winner_problems(self) -> list[RuleError]:
        """Pairs: each winner given that contradicts the cards, the jugadas or a lie."""
        out: list[RuleError] = []
        reading = self._reading
        for lance, side in self.winners.items():
            by_rules = self.settled(lance)
            if by_rules is None or by_rules is side:
                continue
            liar = reading.liar_side(lance.value)
            if liar is not None and liar >= 0:
                out.append(RecordError("winner_contradicts_lie", lance=lance.value,
                                       side=by_rules.value, got=side.value,
                                       seat=reading.lied[lance.value][0]))
            elif len(reading.shown) == reading.n:
                out.append(RecordError("winner_contradicts", lance=lance.value,
                                       side=by_rules.value, got=side.value))
            else:
                holders = reading.best_holders(lance.value, by_rules.value)
                if "other_seat" not in holders:
                    # The side given the lance holds nothing in it (its bets were dropped
                    # as nobody could bet): said so, rather than comparing with nothing.
                    out.append(RecordError("winner_not_holder", lance=lance.value,
                                           side=by_rules.value, got=side.value))
                else:
                    out.append(RecordError("winner_contradicts_jugadas", lance=lance.value,
                                           side=by_rules.value, got=side.value, **holders))
        return out

    def _alone_winner_problems(self) -> list[RuleError]:
        """Individual play: each winner given that the count would refuse (a player who
        does not play the lance, who left it, who lied, or whom the cards contradict)."""
        out: list[RuleError] = []
        held_on = self._held_on()
        for lance, side in self.winners.items():
            try:
                read_winners({lance.value: side.value}, self._reading, held_on)
            except RuleError as error:
                if error.code not in ("juego_not_punto", "punto_not_juego"):
                    out.append(error)
        return out


__all__ = ["ORDER", "Asking", "lance_of"]
