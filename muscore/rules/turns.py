"""Whose turn it is in a lance of a hand in progress: the talk of individual play.

:class:`Turns` is the part of :class:`muscore.rules.HandDraft` that follows each lance's
talk in individual play (rules.md, "Individual play"; :mod:`muscore.rules.talk`): who
plays the lance, who speaks next, who must still answer the standing bet, who left it,
and the words said so far; a tap is one player's word, in turn. In pairs the draft keeps
each lance's bets and its answer only, and these answer from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar

from muscore.rules.asking import lance_of
from muscore.rules.betting import Betting
from muscore.rules.cards import LETTERS, Lance, Rules, Side
from muscore.rules.errors import BettingError
from muscore.rules.reading import Reading
from muscore.rules.talk import Talk, Tap, follow

T = TypeVar("T")


def _with_lance(held: Mapping[Lance, T], lance: Lance, value: T | None) -> dict[Lance, T]:
    """A copy of ``held`` with ``value`` as the lance's (in the place the lance had), or
    without the lance when ``value`` is empty or None."""
    out = dict(held)
    if value:
        out[lance] = value
    else:
        out.pop(lance, None)
    return out


class Turns:
    """The turns of a :class:`~muscore.rules.HandDraft`'s lances (a mixin: the draft gives
    it its reading and each lance's betting)."""

    if TYPE_CHECKING:
        rules: Rules
        bets: Mapping[Lance, tuple[dict[str, str | int], ...]]
        ends: Mapping[Lance, str]
        outs: Mapping[Lance, tuple[Side, ...]]
        passed: frozenset[Lance]
        talks: Mapping[Lance, tuple[Tap, ...]]

        @property
        def alone(self) -> bool: ...

        @property
        def _reading(self) -> Reading: ...

        def played(self, lance: Lance | str) -> bool | None: ...

        def bettable(self, lance: Lance | str) -> bool | None: ...

        def tap(self, lance: Lance | str, tap: Tap) -> Self: ...

        def _over_before(self, lance: Lance) -> bool: ...

        def _pass_before(self, lance: Lance) -> set[Lance]: ...

        def _possible_taps(self, lance: Lance) -> tuple[Tap, ...]: ...

        def _betting(self, lance: Lance) -> Betting: ...

        def _with(self, **changes: Any) -> Self: ...

    def _tap_alone(self, lance: Lance, tap: Tap) -> Self:
        """:meth:`tap` in individual play: the word of the player whose turn it is."""
        if self._over_before(lance) or self.bettable(lance) is False or lance in self.passed:
            raise BettingError("tap_illegal", lance=lance.value, tap=tap.kind.value,
                               side=None if tap.side is None else tap.side.value)
        players = self._players(lance)
        if players is None:
            raise BettingError("tap_players", lance=lance.value)
        passed = self._pass_before(lance)
        talk = follow(lance.value, players, (*self.talk(lance), tap))
        return self._with_talk(lance, talk, passed)

    def _with_talk(self, lance: Lance, talk: Talk, passed: set[Lance]) -> Self:
        """The draft with a lance's talk and the betting it makes."""
        passed.discard(lance)
        if talk.passed:
            passed.add(lance)
        return self._with(bets=_with_lance(self.bets, lance, talk.bets),
                          ends=_with_lance(self.ends, lance, talk.end),
                          outs=_with_lance(self.outs, lance, talk.out),
                          talks=_with_lance(self.talks, lance, talk.taps),
                          passed=frozenset(passed))

    def _undo_talk(self, lance: Lance) -> Self:
        """The lance's talk without its last word."""
        talk = follow(lance.value, self._players(lance) or (), self.talk(lance)[:-1])
        return self._with_talk(lance, talk, set(self.passed))

    def with_talk(self, lance: Lance | str, taps: Sequence[Tap | str]) -> Self:
        """Individual play: the lance's talk replaced by ``taps`` (each a :class:`Tap` or
        its :meth:`Tap.text`), followed from the start: how a screen rebuilds a lance
        from its own list of words. An empty list forgets the lance's talk."""
        name = lance_of(lance)
        draft = self._with(talks={k: v for k, v in self.talks.items() if k != name})
        draft = draft._with_talk(name, follow(name.value, (), ()), set(self.passed))
        for tap in taps:
            draft = draft.tap(name, tap if isinstance(tap, Tap) else Tap.parse(tap))
        return draft

    def _players(self, lance: Lance) -> tuple[int, ...] | None:
        """The sides (by index) that play the lance in speaking order from the mano; None
        while the draft cannot know (who holds pares or juego, whether punto is played)."""
        reading = self._reading
        name = lance.value
        if lance in (Lance.PARES, Lance.JUEGO):
            if reading.maybe[name] or self.played(lance) is None:
                return None
        elif lance is Lance.PUNTO and reading.fourth is None:
            return None
        players = reading.players_of(name)
        ix = reading.ix
        seen: list[int] = []
        for seat in reading.order:
            if ix[seat] in players and ix[seat] not in seen:
                seen.append(ix[seat])
        return tuple(seen)

    def players(self, lance: Lance | str) -> tuple[Side, ...] | None:
        """Who plays the lance, in speaking order from the mano: every side in grande and
        chica; who holds pares or juego as the table believed it; in punto who did not
        deny a juego. None while the draft cannot know yet."""
        players = self._players(lance_of(lance))
        return None if players is None else tuple(LETTERS[i] for i in players)

    def talk(self, lance: Lance | str) -> tuple[Tap, ...]:
        """Individual play: what was said in the lance, word by word (empty in pairs,
        where the draft keeps the bets and the answer only)."""
        return self.talks.get(lance_of(lance), ())

    def talk_text(self, lance: Lance | str) -> str:
        """:meth:`talk` as text, each tap's :meth:`Tap.text` separated by spaces
        (``"A:paso B:envido:2 C:no_quiero A:quiero"``): what :meth:`with_talk` reads back."""
        return " ".join(tap.text() for tap in self.talk(lance))

    def _talk(self, lance: Lance) -> Talk | None:
        """Individual play: the lance's talk followed (None: who plays it is not known)."""
        players = self._players(lance)
        if players is None:
            return None
        return follow(lance.value, players, self.talk(lance))

    def to_speak(self, lance: Lance | str) -> Side | None:
        """Who speaks next in the lance: in individual play the player whose turn it is
        (from the mano before a bet, then each player still in answering in turn); in
        pairs the side that must answer the standing bet. None when nobody is to speak:
        the lance is closed, nobody can bet in it, or (individual play) who plays it is
        not known yet."""
        name = lance_of(lance)
        if not self._possible_taps(name):
            return None
        if self.alone:
            talk = self._talk(name)
            return None if talk is None else talk.turn
        last = self._betting(name).last_side
        return None if last is None or name in self.ends else last.other

    def answering(self, lance: Lance | str) -> tuple[Side, ...]:
        """Who must still answer the standing bet, in the order they speak (the first is
        :meth:`to_speak`); empty with no bet standing."""
        name = lance_of(lance)
        turn = self.to_speak(name)
        if turn is None or not self.bets.get(name):
            return ()
        if not self.alone:
            return (turn,)
        talk = self._talk(name)
        return () if talk is None else talk.answering

    def out(self, lance: Lance | str) -> tuple[Side, ...]:
        """Individual play: the players who left the lance (said no quiero), in the order
        they left; empty in pairs."""
        return self.outs.get(lance_of(lance), ())

    def still_in(self, lance: Lance | str) -> tuple[Side, ...] | None:
        """The players (sides) still in the lance: those who play it but left; None while
        who plays it is not known."""
        players = self.players(lance)
        if players is None:
            return None
        out = self.out(lance)
        return tuple(side for side in players if side not in out)

    def _among(self, lance: Lance) -> frozenset[int] | None:
        """Individual play: the sides that compete for a lance held on, or being bet (those
        still in); None when every player of it competes (pairs, en paso)."""
        if not self.alone or not self.bets.get(lance) or self.ends.get(lance) == "no_quiero":
            return None
        players = self._players(lance)
        if players is None:
            return None
        out = {LETTERS.index(side) for side in self.outs.get(lance, ())}
        return frozenset(players) - out

    def _held_on(self) -> dict[str, frozenset[int]]:
        """Individual play: each lance held on (quiero) and the sides still in it."""
        out: dict[str, frozenset[int]] = {}
        for lance in self.ends:
            among = self._among(lance)
            if among is not None:
                out[lance.value] = among
        return out


__all__ = ["Turns"]
