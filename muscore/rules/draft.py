"""The hand in progress: a :class:`HandDraft` answers every question a screen asks.

A draft holds what is known of a hand being entered (the table's rules, the mano, the
score before, some seats' cards, jugadas and declarations, the bets tapped in each
lance, the winners given) and answers, like python-chess's ``Board``, from the same
three phases :func:`muscore.rules.score` runs (reading, betting, counting), in their
partial mode: which lances are played, who holds each jugada, which lances can be bet
on and which taps are legal next, the running envite and deje, which winners the cards
and jugadas settle and which the table still has to give, the recuento so far, and the
full result once complete.

A draft is an immutable value: every change returns a new draft, so a screen can keep
the previous one (undo) and two drafts compare equal when they hold the same facts.

>>> from muscore.rules import HandDraft, Lance, Side, Tap
>>> draft = HandDraft().with_cards(0, "R R 5 4").with_cards(2, "1 1 6 7")
>>> draft.has_pares(), draft.fourth() is None, draft.bettable(Lance.PARES)
(True, True, None)
>>> draft = draft.with_cards(1, "R C C 5").with_cards(3, "S S 7 7")
>>> draft.fourth(), draft.settled(Lance.PARES)
(<Lance.JUEGO: 'juego'>, <Side.B: 'B'>)
>>> draft = draft.tap(Lance.GRANDE, Tap.envido(Side.A)).tap(Lance.GRANDE, Tap.no_quiero(Side.B))
>>> draft.lance(Lance.GRANDE).deje
1
>>> [step["points"] for step in draft.preview().steps]
[1]
>>> draft.closed().result()["score"] == {"A": 2, "B": 8}
True

**Individual play** (3 to 6 players, each for himself; rules.md, "Individual play"): the
talk of each lance is entered player by player, in turn, as the table says it. The draft
says whose turn it is, what he may say, who must still answer a bet and who left:

>>> three = HandDraft(rules=Rules(players=3), score=(0, 0, 0))
>>> three.to_speak(Lance.GRANDE), [t.text() for t in three.legal_taps(Lance.GRANDE)]
(<Side.A: 'A'>, ['A:paso', 'A:envido', 'A:ordago', ':paso'])
>>> three = three.tap(Lance.GRANDE, Tap.envido(Side.A)).tap(Lance.GRANDE, Tap.no_quiero(Side.B))
>>> three.to_speak(Lance.GRANDE), three.out(Lance.GRANDE)
(<Side.C: 'C'>, (<Side.B: 'B'>,))
>>> three = three.tap(Lance.GRANDE, Tap.envido(Side.C, 3))  # C raises: A answers again
>>> three.answering(Lance.GRANDE), three.lance(Lance.GRANDE).stake
((<Side.A: 'A'>,), 5)
>>> three.tap(Lance.GRANDE, Tap.quiero(Side.A)).to_record()["lances"]["grande"]
{'bets': [{'side': 'A', 'n': 2}, {'side': 'C', 'n': 3}], 'end': 'quiero', 'out': ['B']}

Unknown is ``None`` wherever a yes/no, a side or a lance is asked: a draft never
guesses. What it answers is certain given what is entered (declarations not entered
are taken as true, as at a table where nobody lied): entering more never contradicts
it, unless the new fact contradicts an old one (see :meth:`HandDraft.problems`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NamedTuple, cast

from muscore.rules.asking import ORDER, Asking, lance_of
from muscore.rules.betting import Betting
from muscore.rules.cards import (
    CARD_TEXT,
    DEFAULT_RULES,
    Lance,
    Rules,
    Side,
    parse_cards,
    show,
)
from muscore.rules.contract import HandRecord, HandResultDict, Score, StepDict
from muscore.rules.counting import Pending, count
from muscore.rules.errors import BettingError, RecordError, RuleError
from muscore.rules.reading import JUEGO_TOTALS, PARES_KINDS, Reading, read_table
from muscore.rules.scoring import (
    RECORD_KEYS,
    held_on,
    parse_head,
    parse_mano,
    parse_score,
    read_bets,
    score,
)
from muscore.rules.talk import Tap, TapKind, recount
from muscore.rules.turns import Turns
from muscore.rules.winners import honest, player_list, read_winners


class Holding(NamedTuple):
    """What one seat holds in pares and juego, and how the draft knows it.

    ``pares``: "no", "par", "medias", "duples", or None (unknown); ``juego``: "no", the
    total (31..40), or None. ``plays_pares``/``plays_juego``: whether the seat plays the
    lance as the table believed it (its declaration first, else what it holds).
    ``source``: "cards", "jugadas", "declared" or None (nothing entered).
    """

    seat: int
    pares: str | None
    juego: int | str | None
    plays_pares: bool | None
    plays_juego: bool | None
    source: str | None


class LanceState(NamedTuple):
    """Everything a screen shows of one lance of the draft."""

    lance: Lance
    played: bool | None  #: the lance is played at all (pares: somebody has them)
    bettable: bool | None  #: bets are possible (pares, juego: two sides/players play it)
    bets: tuple[dict[str, str | int], ...]  #: the bets tapped, as the record writes them
    end: str | None  #: "quiero", "no_quiero", or None
    closed: bool  #: its betting is over (answered, passed, or nothing to bet)
    stake: int  #: the running envite: the total of the bets so far
    deje: int | None  #: what a no quiero would pay (or paid) now; None without bets
    ordago: bool  #: the last bet is an órdago
    taps: tuple[Tap, ...]  #: the taps legal next
    settled: Side | None  #: the winner the cards, jugadas or a lie already give
    winner: Side | None  #: the winner entered by the table
    needs_winner: bool  #: the table must give the winner (nothing settles it)
    #: Who plays the lance, in speaking order (None: not known yet); in pairs A and B.
    players: tuple[Side, ...] | None = None
    turn: Side | None = None  #: who speaks next (individual play; in pairs who answers)
    answering: tuple[Side, ...] = ()  #: who must still answer the standing bet, in order
    out: tuple[Side, ...] = ()  #: individual play: who left the lance (no quiero)
    talk: tuple[Tap, ...] = ()  #: individual play: what was said, tap by tap


class Preview(NamedTuple):
    """The recuento so far: its steps are the first steps of the final recuento."""

    steps: tuple[StepDict, ...]
    score: Score  #: after the steps
    waiting: Lance | None  #: the lance the count waits on (None once complete)
    result: HandResultDict | None  #: the whole result, once nothing is missing


@dataclass(frozen=True)
class HandDraft(Asking, Turns):
    """A hand being entered. Immutable: every ``with_*``/``tap`` returns a new draft.

    Seats are ints (0..players-1), lances :class:`Lance`, sides :class:`Side` (A and B in
    pairs; in individual play one a player, A for seat 0 to F for seat 5). ``score`` is
    each side's piedras before the hand, in side order. ``bets``, ``ends`` and ``outs``
    are each lance's betting as the record writes it; ``passed`` the lances closed with
    no bet ("paso"). In individual play ``talks`` keeps what each player said, in turn:
    the betting is read from it.
    """

    rules: Rules = DEFAULT_RULES
    mano: int = 0
    score: tuple[int, ...] = (0, 0)
    hands: Mapping[int, str] = field(default_factory=dict)
    jugadas: Mapping[int, Mapping[str, str | int]] = field(default_factory=dict)
    declared: Mapping[int, Mapping[str, bool]] = field(default_factory=dict)
    bets: Mapping[Lance, tuple[dict[str, str | int], ...]] = field(default_factory=dict)
    ends: Mapping[Lance, str] = field(default_factory=dict)
    passed: frozenset[Lance] = frozenset()
    winners: Mapping[Lance, Side] = field(default_factory=dict)
    outs: Mapping[Lance, tuple[Side, ...]] = field(default_factory=dict)
    talks: Mapping[Lance, tuple[Tap, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        parse_mano(self.mano, self.rules)
        if len(self.score) != self.rules.sides:
            if self.score == (0, 0):  # the default: everybody at 0
                object.__setattr__(self, "score", (0,) * self.rules.sides)
            else:
                raise RecordError("not_a", field="score", what="object", got=show(self.score))
        parse_score(self._score_dict(), self.rules)

    @property
    def alone(self) -> bool:
        """Whether each player plays for himself (individual play of 3 to 6)."""
        return self.rules.sides > 2

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_record(cls, record: Mapping[str, object], *, passed: bool = True) -> HandDraft:
        """A draft from a hand record (the contract's JSON), checked as it is read.

        With ``passed`` (a stored, finished record) the lances without bets were passed;
        without it they are still open. Raises :class:`RuleError` on what no draft can
        hold (a wrong card, a bet out of turn...). In individual play each lance's talk
        is made again from its betting where the draft knows who plays the lance (see
        :meth:`talk`): those before the first bettor passed, a player who left did at his
        first answer after his last bet, the others held on.
        """
        if not isinstance(record, Mapping):
            raise RecordError("not_object")
        rules, mano = parse_head(record, RECORD_KEYS, "record")
        scores = parse_score(record.get("score"), rules)
        draft = cls(rules=rules, mano=mano, score=scores)
        for key, text in _object(record, "hands").items():
            draft = draft.with_cards(_seat(key, rules), text)
        for key, value in _object(record, "jugadas").items():
            value = _object({"v": value}, "v", f"jugadas.{key}")
            for name in value:
                if name not in ("pares", "juego"):
                    raise RecordError("unknown_key", key=str(name)[:40], where=f"jugadas.{key}")
            draft = draft.with_jugada(_seat(key, rules), value.get("pares"), value.get("juego"))
        for key, value in _object(record, "declared").items():
            value = _object({"v": value}, "v", f"declared.{key}")
            for lance, said in value.items():
                draft = draft.with_declared(_seat(key, rules), lance, said)
        bets, ends, outs = _read_lances(record, rules)
        closed = frozenset(lance for lance in ORDER if lance not in bets) if passed else frozenset()
        winners = {
            lance_of(name): _side(side, f"winners.{name}", rules)
            for name, side in _object(record, "winners").items()
        }
        draft = replace(draft, bets=bets, ends=ends, passed=closed, winners=winners, outs=outs)
        return draft._recounted() if draft.alone else draft

    def _recounted(self) -> HandDraft:
        """Individual play: each lance's talk made again from its betting (see
        :meth:`from_record`), where who plays it is known."""
        talks: dict[Lance, tuple[Tap, ...]] = {}
        for lance in ORDER:
            players = self._players(lance)
            if players is None or lance not in self.bets:
                continue
            data = {"bets": self.bets.get(lance, ()), "end": self.ends.get(lance),
                    "out": [side.value for side in self.outs.get(lance, ())]}
            talks[lance] = recount(lance.value, players, data)
        return replace(self, talks=talks)

    def to_record(self) -> HandRecord:
        """The hand record (the contract's JSON) of what is entered so far."""
        record: dict[str, Any] = {"rules": self.rules.to_json(), "mano": self.mano,
                                  "score": self._score_dict()}
        if self.hands:
            record["hands"] = {str(seat): self.hands[seat] for seat in sorted(self.hands)}
        if self.jugadas:
            record["jugadas"] = {str(s): dict(self.jugadas[s]) for s in sorted(self.jugadas)}
        if self.declared:
            record["declared"] = {str(s): dict(self.declared[s]) for s in sorted(self.declared)}
        lances: dict[str, dict[str, object]] = {}
        for lance in ORDER:
            bets = self.bets.get(lance)
            if bets:
                lances[lance.value] = {"bets": [dict(bet) for bet in bets]}
                if lance in self.ends:
                    lances[lance.value]["end"] = self.ends[lance]
                out = self.outs.get(lance)
                if out and self.ends.get(lance) != "no_quiero":
                    lances[lance.value]["out"] = [side.value for side in out]
        if lances:
            record["lances"] = lances
        if self.winners:
            record["winners"] = {
                lance.value: self.winners[lance].value for lance in ORDER if lance in self.winners
            }
        return cast(HandRecord, record)

    def with_score(self, *scores: int) -> HandDraft:
        """The same hand with another score before it (each side's piedras in side order:
        ``a, b`` in pairs, one a player in individual play)."""
        return replace(self, score=tuple(scores))

    def _score_dict(self) -> dict[str, int]:
        return dict(zip(self.rules.letters, self.score, strict=False))
    def with_cards(self, seat: int, text: str | None) -> HandDraft:
        """A seat's four cards (None takes them away). Refuses impossible cards."""
        seat = _check_seat(seat, self.rules)
        hands = dict(self.hands)
        if text is None:
            hands.pop(seat, None)
        else:
            cards = parse_cards(text, seat)
            hands[seat] = " ".join(CARD_TEXT[c] for c in cards)
        return self._checked(replace(self, hands=hands))

    def with_jugada(
        self, seat: int, pares: str | None = None, juego: int | str | None = None
    ) -> HandDraft:
        """What a seat without cards declared: ``pares`` ("no", "par", "medias",
        "duples") and/or ``juego`` ("no" or the total); None leaves a field as it was."""
        seat = _check_seat(seat, self.rules)
        jugada = dict(self.jugadas.get(seat, {}))
        if pares is not None:
            if pares not in PARES_KINDS:
                raise RecordError("jugada_pares", seat=seat, got=str(pares)[:40])
            jugada["pares"] = pares
        if juego is not None:
            if juego != "no" and (type(juego) is not int or juego not in JUEGO_TOTALS):
                raise RecordError("jugada_juego", seat=seat, got=str(juego)[:40])
            jugada["juego"] = juego
        jugadas = dict(self.jugadas)
        jugadas[seat] = jugada
        return self._checked(replace(self, jugadas=jugadas))

    def without_jugada(self, seat: int) -> HandDraft:
        """Forget a seat's jugadas."""
        jugadas = dict(self.jugadas)
        jugadas.pop(seat, None)
        return replace(self, jugadas=jugadas)

    def with_declared(self, seat: int, lance: Lance | str, said: bool | None) -> HandDraft:
        """What a seat said before pares or juego ("sí": True, "no": False; None forgets)."""
        seat = _check_seat(seat, self.rules)
        name = lance_of(lance)
        if name not in (Lance.PARES, Lance.JUEGO):
            raise RecordError("unknown_key", key=name.value, where=f"declared.{seat}")
        if said is not None and type(said) is not bool:
            raise RecordError("declared_value", seat=seat, lance=name.value, got=str(said)[:40])
        declared = {s: dict(v) for s, v in self.declared.items()}
        mine = declared.setdefault(seat, {})
        if said is None:
            mine.pop(name.value, None)
        else:
            mine[name.value] = said
        if not mine:
            del declared[seat]
        return self._checked(replace(self, declared=declared))

    def with_winner(self, lance: Lance | str, side: Side | str | None) -> HandDraft:
        """The winner of a lance as the table gives it (None takes it away): in individual
        play the player who collected it. A winner that contradicts the cards, jugadas or
        a lie is kept and reported by :meth:`problems`."""
        name = lance_of(lance)
        winners = dict(self.winners)
        if side is None:
            winners.pop(name, None)
        else:
            winners[name] = _side(side, f"winners.{name.value}", self.rules)
        return replace(self, winners=winners)

    def tap(self, lance: Lance | str, tap: Tap) -> HandDraft:
        """The next tap of a lance's betting. Refuses a tap that cannot be legal (raises
        :class:`BettingError`); one whose legality depends on what is not entered yet is
        accepted. Tapping a lance closes every earlier lance nobody bet in (at a table
        the lances are bet in order), and needs every earlier bet answered.

        In individual play each tap is one player's word, in turn (:meth:`to_speak`):
        ``Tap.paso(side)``, ``Tap.envido(side, n)`` (after a bet: a raise of ``n``),
        ``Tap.ordago(side)``, ``Tap.quiero(side)``, ``Tap.no_quiero(side)`` (he leaves the
        lance); ``Tap.paso()`` without a side passes for everybody who has not spoken
        yet. A player out of turn is ``tap_turn``; a lance whose players are not known
        yet (pares, juego or punto before the cards or what each player said) is
        ``tap_players``."""
        name = lance_of(lance)
        tap = Tap(TapKind(tap.kind), None if tap.side is None else Side(tap.side), tap.n)
        if self.alone:
            return self._tap_alone(name, tap)
        possible = {(t.kind, t.side) for t in self._possible_taps(name)}
        if (tap.kind, tap.side) not in possible or (
            tap.kind is TapKind.ENVIDO and tap.n is not None
            and (type(tap.n) is not int or tap.n < 1)
        ):
            raise BettingError("tap_illegal", lance=name.value, tap=tap.kind.value,
                               side=None if tap.side is None else tap.side.value)
        if tap.kind is TapKind.ENVIDO and tap.n is not None and tap.n < 2 \
                and not self.bets.get(name):
            raise BettingError("first_bet", lance=name.value, got=tap.n)
        passed = self._pass_before(name)
        bets = dict(self.bets)
        ends = dict(self.ends)
        if tap.kind is TapKind.PASO:
            passed.add(name)
        elif tap.kind is TapKind.ENVIDO or tap.kind is TapKind.ORDAGO:
            n: int | str = "ordago" if tap.kind is TapKind.ORDAGO else int(tap.n or 2)
            assert tap.side is not None
            bets[name] = (*bets.get(name, ()), {"side": tap.side.value, "n": n})
        else:
            ends[name] = tap.kind.value
        return replace(self, bets=bets, ends=ends, passed=frozenset(passed))

    def _pass_before(self, lance: Lance) -> set[Lance]:
        """The lances passed once ``lance`` is tapped: every earlier one nobody bet in (the
        lances are bet in order); an earlier bet not answered yet is ``tap_unanswered``."""
        passed = set(self.passed)
        for earlier in ORDER[: ORDER.index(lance)]:
            if self.bets.get(earlier) and earlier not in self.ends:
                raise BettingError("tap_unanswered", lance=lance.value, earlier=earlier.value)
            if not self.bets.get(earlier) and earlier not in (Lance.JUEGO, Lance.PUNTO):
                passed.add(earlier)
        return passed

    def undo(self, lance: Lance | str) -> HandDraft:
        """Take back the last tap of a lance (its answer, else its last bet, else paso; in
        individual play the last word said)."""
        name = lance_of(lance)
        if self.alone and self.talk(name):
            return self._undo_talk(name)
        bets, ends, passed = dict(self.bets), dict(self.ends), set(self.passed)
        outs = dict(self.outs)
        if name in ends:
            del ends[name]
        elif bets.get(name):
            bets[name] = bets[name][:-1]
            if not bets[name]:
                del bets[name]
            outs.pop(name, None)
        else:
            passed.discard(name)
        return replace(self, bets=bets, ends=ends, passed=frozenset(passed), outs=outs)

    def closed(self) -> HandDraft:
        """The draft with every lance nobody bet in passed: the hand as it stands if
        nothing more is bet (a save, or a preview of "if everybody passes")."""
        return replace(self, passed=frozenset(ORDER))

    def preview_tap(self, lance: Lance | str, tap: Tap) -> Preview:
        """What a tap would make: the recuento so far once ``tap`` is said (this draft is
        unchanged; :meth:`tap` raises as usual for a tap that cannot be said)."""
        return self.tap(lance, tap).preview()

    def _with(self, **changes: Any) -> HandDraft:
        """The draft with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    def _checked(self, draft: HandDraft) -> HandDraft:
        draft._reading  # noqa: B018 - raises the RuleError of an impossible combination
        return draft

    # -- reading -------------------------------------------------------------------------

    @cached_property
    def _record(self) -> HandRecord:
        return self.to_record()

    @cached_property
    def _reading(self) -> Reading:
        return read_table(self._record, self.rules, self.mano, partial=True)

    def holding(self, seat: int) -> Holding:
        """What a seat holds and plays in pares and juego, as far as the draft knows."""
        seat = _check_seat(seat, self.rules)
        reading = self._reading
        said = self.declared.get(seat, {})
        source: str | None = None
        pares: str | None = None
        juego: int | str | None = None
        ev = reading.evals[seat]
        if ev is not None:
            source = "cards"
            pares = ev.pares.kind if ev.pares else "no"
            juego = ev.total if ev.total >= 31 else "no"
        else:
            jugada = self.jugadas.get(seat, {})
            pares = jugada.get("pares")  # type: ignore[assignment]
            juego = jugada.get("juego")
            if jugada:
                source = "jugadas"
            elif said:
                source = "declared"

        def plays(lance: str, held: object) -> bool | None:
            if lance in said:
                return said[lance]
            return None if held is None else held != "no"

        return Holding(seat, pares, juego, plays("pares", pares), plays("juego", juego), source)

    def has_pares(self) -> bool | None:
        """Whether somebody plays pares (None: cannot know yet)."""
        return self._reading.plays("pares")

    def fourth(self) -> Lance | None:
        """The fourth lance: juego when somebody plays it, punto when nobody; None while
        the draft cannot know ("juego o punto")."""
        fourth = self._reading.fourth
        return None if fourth is None else Lance(fourth)

    def played(self, lance: Lance | str) -> bool | None:
        """Whether the lance is played at all (pares: somebody has them; juego or punto:
        it is the fourth lance)."""
        name = lance_of(lance)
        if name is Lance.JUEGO:
            fourth = self._reading.fourth
            return None if fourth is None else fourth == "juego"
        return self._reading.plays(name.value)

    def bettable(self, lance: Lance | str) -> bool | None:
        """Whether bets are possible in the lance (None: depends on what is not entered)."""
        name = lance_of(lance)
        if name is Lance.JUEGO and self._reading.fourth == "punto":
            return False
        return self._reading.bettable(name.value)

    # -- betting -------------------------------------------------------------------------

    def _betting(self, lance: Lance) -> Betting:
        bets = self.bets.get(lance, ())
        data: dict[str, object] = {"bets": list(bets)}
        if lance in self.ends:
            data["end"] = self.ends[lance]
        return Betting(lance.value, data, answered=False, sides=self.rules.sides)

    def is_closed(self, lance: Lance | str) -> bool:
        """Whether the lance's betting is over: answered, passed, or nothing to bet."""
        name = lance_of(lance)
        if name in self.ends or name in self.passed:
            return True
        if self.bets.get(name):
            return False
        return self.bettable(name) is False or self._over_before(name)

    def _over_before(self, lance: Lance) -> bool:
        """The juego was won (a deje, an accepted órdago) in a lance before this one."""
        ended = self._ended_in
        return ended is not None and ORDER.index(ended) < ORDER.index(lance)

    def ended_in(self) -> Lance | None:
        """The lance whose betting won the juego before the recuento: an accepted órdago
        (unless nobody who could win it told the truth: both sides lied in pairs, nobody
        still in honest in individual play), or a no quiero whose deje took a side to the
        target; the earliest if several, None while the juego goes on. The lances after
        it are not played (no tap is legal there) and never counted; a count that
        reaches the target is not this (the betting of later lances still happens then,
        see :meth:`winners_needed`)."""
        return self._ended_in

    @cached_property
    def _ended_in(self) -> Lance | None:
        reading = self._reading
        found: list[Lance] = []
        for lance in ORDER:
            bets = self.bets.get(lance)
            if not bets or self.ends.get(lance) != "quiero" or bets[-1]["n"] != "ordago":
                continue
            # An accepted órdago ends the juego whoever wins it, unless nobody honest can.
            if lance in (Lance.GRANDE, Lance.CHICA, Lance.PUNTO) or (
                reading.lie_known(lance.value) and (
                    honest(reading, lance.value, self._among(lance)) if self.alone
                    else reading.liar_side(lance.value) != -1)
            ):
                found.append(lance)
                break
        preview = self.preview()
        ended = preview.result is not None and preview.result["ended_by"] in ("deje", "ordago")
        steps = preview.steps
        last = steps[-1] if steps else None
        target = self.rules.target
        if last is not None and last["why"] == "deje" and max(
                _points(last["score"])) >= target:
            found.append(Lance(str(last["lance"])))
        elif ended and preview.result is not None and preview.result.get("ordago"):
            found.append(Lance(preview.result["ordago"]["lance"]))
        return min(found, key=ORDER.index) if found else None

    @cached_property
    def _counted_to(self) -> Lance | None:
        """The lance whose count took a side to the target, once the certain steps show it
        (every bet answered and the winners up to it known); None otherwise. At 37, an
        accepted envite of 4 in grande won by that side ends the juego there: the lances
        after it never count, so nobody need say who won them (issue 19, item 4)."""
        steps = self.preview().steps
        if not steps:
            return None
        last = steps[-1]
        if last["why"] == "deje" or max(_points(last["score"])) < self.rules.target:
            return None
        return Lance(str(last["lance"]))

    def _possible_taps(self, lance: Lance) -> tuple[Tap, ...]:
        """The taps not known to be illegal (``n`` of an envido left as any)."""
        if self.bettable(lance) is False or self._over_before(lance):
            return ()
        if lance in self.ends or lance in self.passed:
            return ()
        if self.alone:
            talk = self._talk(lance)
            return () if talk is None else talk.legal()
        betting = self._betting(lance)
        if betting.last_side is None:
            return (Tap.paso(), Tap(TapKind.ENVIDO, Side.A), Tap(TapKind.ENVIDO, Side.B),
                    Tap.ordago(Side.A), Tap.ordago(Side.B))
        other = Side(betting.last_side).other
        answers = (Tap.quiero(other), Tap.no_quiero(other))
        if betting.ordago:
            return answers
        return (*answers, Tap(TapKind.ENVIDO, other), Tap.ordago(other))

    def legal_taps(self, lance: Lance | str) -> tuple[Tap, ...]:
        """The taps legal next in a lance: paso, envido (any ``n`` from 2), órdago before a
        bet; quiero, no quiero, a raise (any ``n`` from 1) or órdago by the other side
        after one; quiero or no quiero after an órdago; nothing once closed, where nobody
        can bet, or after the juego was won. While it depends on cards not entered, the
        taps are offered. In individual play, the words of the player whose turn it is
        (:meth:`to_speak`), and before a bet ``Tap.paso()``: everybody passes; nothing
        while who plays the lance is not known."""
        return self._possible_taps(lance_of(lance))

    def lance(self, lance: Lance | str) -> LanceState:
        """Everything about one lance."""
        name = lance_of(lance)
        betting = self._betting(name)
        return LanceState(
            lance=name,
            played=self.played(name),
            bettable=self.bettable(name),
            bets=self.bets.get(name, ()),
            end=self.ends.get(name),
            closed=self.is_closed(name),
            stake=betting.stake if betting.count else 0,
            deje=betting.deje if betting.count else None,
            ordago=betting.ordago,
            taps=self._possible_taps(name),
            settled=self.settled(name),
            winner=self.winners.get(name),
            needs_winner=name in self.winners_needed(),
            players=self.players(name),
            turn=self.to_speak(name),
            answering=self.answering(name),
            out=self.out(name),
            talk=self.talk(name),
        )

    def lances(self) -> tuple[LanceState, ...]:
        """The lances of this hand: grande, chica, pares, and the fourth (both juego and
        punto while the draft cannot tell which)."""
        fourth = self.fourth()
        names = [lance for lance in ORDER if fourth is None or lance not in (
            Lance.JUEGO, Lance.PUNTO) or lance is fourth]
        return tuple(self.lance(name) for name in names)

    def envite_ladder(
        self, lance: Lance | str
    ) -> tuple[tuple[dict[str, str | int], int, int], ...]:
        """Each bet tapped in a lance with the envite after it and the deje a no quiero
        would then pay: ``(bet, stake, deje)``."""
        name = lance_of(lance)
        out = []
        bets = self.bets.get(name, ())
        for i in range(1, len(bets) + 1):
            betting = Betting(name.value, {"bets": list(bets[:i])}, answered=False,
                              sides=self.rules.sides)
            out.append((dict(bets[i - 1]), betting.stake, betting.deje))
        return tuple(out)

    # -- counting ------------------------------------------------------------------------

    def preview(self) -> Preview:
        """The recuento so far: the steps already certain (the dejes of the lances whose
        betting is over, then the count while nothing it needs is missing)."""
        return self._preview

    @cached_property
    def _preview(self) -> Preview:
        reading = self._reading
        closed = {lance.value for lance in ORDER
                  if lance in self.ends or lance in self.passed
                  or (not self.bets.get(lance) and reading.bettable(lance.value) is False)}
        open_lances = {lance.value for lance in ORDER if lance.value not in closed}
        answered: dict[str, dict[str, object]] = {}
        for lance in self.bets:
            if lance in self.ends and self.bets[lance]:
                answered[lance.value] = {"bets": list(self.bets[lance]), "end": self.ends[lance]}
                if self.outs.get(lance):
                    answered[lance.value]["out"] = [side.value for side in self.outs[lance]]
        bad = self._bad_winners()
        winners = {lance.value: side.value for lance, side in self.winners.items()
                   if lance not in bad}
        try:
            bettings = read_bets({"lances": answered}, reading)
            result = count(reading, bettings, winners, self.score, partial=True,
                           open_lances=open_lances)
        except Pending as pending:
            waiting = Lance(pending.lance) if pending.lance else None
            steps = cast(list[StepDict], pending.steps)
            return Preview(tuple(steps), cast(Score, pending.score), waiting, None)
        except RuleError:
            return Preview((), cast(Score, self._score_dict()), None, None)
        # count() builds the contract's result directly (for speed); this is its type.
        typed = cast(HandResultDict, result)
        return Preview(tuple(typed["recuento"]), typed["score"].copy(), None, typed)

    def _bad_winners(self) -> set[Lance]:
        """The winners given that contradict what is known (left out of the preview)."""
        if not self.alone:
            return {lance for lance, side in self.winners.items()
                    if self.settled(lance) not in (None, side)}
        bad = set()
        held = held_on(self._reading, {})
        held.update(self._held_on())
        for lance, side in self.winners.items():
            try:
                read_winners({lance.value: side.value}, self._reading, held)
            except RuleError:
                bad.add(lance)
        return bad

    def is_complete(self) -> bool:
        """Whether the hand can be saved as it is (every lance passed where nobody bet)."""
        try:
            self.closed().result()
        except RuleError:
            return False
        return True

    def result(self) -> HandResultDict:
        """The full result: exactly :func:`muscore.rules.score` of :meth:`to_record`.
        Raises :class:`RuleError` while something is missing or wrong."""
        for lance in ORDER:
            if self.bets.get(lance) and lance not in self.ends:
                raise BettingError("no_answer", lance=lance.value)
        return score(self._record)


def _points(score: Score) -> list[int]:
    """Each side's piedras of a score."""
    return [points for points in score.values() if isinstance(points, int)]


def _read_lances(record: Mapping[str, object], rules: Rules) -> tuple[
    dict[Lance, tuple[dict[str, str | int], ...]], dict[Lance, str], dict[Lance, tuple[Side, ...]]
]:
    """A record's bets, answers and players out, lance by lance (answers may be missing)."""
    bets: dict[Lance, tuple[dict[str, str | int], ...]] = {}
    ends: dict[Lance, str] = {}
    outs: dict[Lance, tuple[Side, ...]] = {}
    for name, data in _object(record, "lances").items():
        lance = lance_of(name)
        betting = Betting(lance.value, data, answered=False, sides=rules.sides)
        if betting.count:
            bets[lance] = tuple(dict(bet) for bet in data["bets"])
            if betting.end is not None:
                ends[lance] = betting.end
            if betting.out:
                outs[lance] = tuple(Side(s) for s in data["out"])
    return bets, ends, outs


def _object(data: Mapping[str, Any], key: str, field: str | None = None) -> Mapping[str, Any]:
    """``data[key]`` when it is an object (absent: empty), else the record's error."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RecordError("not_a", field=field or key, what="object", got=show(value))
    return value


def _seat(key: object, rules: Rules) -> int:
    if type(key) is str and key.isdigit():
        key = int(key)
    return _check_seat(key, rules)


def _check_seat(seat: object, rules: Rules) -> int:
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise RecordError("seat", key=str(seat)[:20], players=rules.players,
                          last=rules.players - 1)
    return seat


def _side(side: object, where: str, rules: Rules) -> Side:
    if not isinstance(side, str) or side not in rules.letters:
        if rules.sides == 2:
            raise RecordError("winner_value", lance=where, got=str(side)[:20])
        raise RecordError("winner_player", lance=where, got=str(side)[:20],
                          letters=player_list(range(rules.sides)))
    return Side(side)


__all__ = ["HandDraft", "Holding", "LanceState", "Preview", "Tap", "TapKind"]
