"""Reading a hand: what each seat holds, who plays each lance, who lied, who wins.

The first of the three phases of scoring (reading, betting, counting). It reads the
cards shown, the jugadas of the seats that showed none and what each seat declared,
and answers what the table knows before any bet is counted: who holds pares and
juego, which sides play them, which is the fourth lance, who lied, and which side the
cards, the jugadas or a lie give each lance.

A **partial** reading (the hand draft's) accepts seats whose cards or jugadas are not
entered yet: what they hold is then unknown, and every answer that depends on them
says so (``None`` where a side, a lance or a yes/no is expected).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.cards import (
    CARD_TEXT,
    CHICA,
    GRANDE,
    HAND_CACHES,
    JUEGO,
    JUEGO_ORDER,
    LETTERS,
    PACKED_EIGHTS,
    PACKED_PLUS_3,
    PARES,
    PARES_ORDER,
    PUNTO,
    SEATS_FROM,
    Evaluation,
    Lance,
    Rules,
    Side,
    check_deck,
    hand_cache,
    read_hand,
    show,
)
from muscore.rules.errors import RecordError

#: The lances in the order they are played and counted (the fourth is one of the last two).
LANCE_NAMES = (GRANDE, CHICA, PARES, JUEGO, PUNTO)
JUGADA_LANCES = (PARES, JUEGO)
PARES_KINDS = ("no", "par", "medias", "duples")
JUEGO_TOTALS = frozenset(JUEGO_ORDER)
_JUGADA_KEYS = frozenset(JUGADA_LANCES)
SEAT_KEYS = {str(i): i for i in range(6)}

#: What a seat holds in pares: its kind and a key that compares (from cards), or
#: the kind alone (from jugadas).
ParesHeld = tuple[str, tuple[int, ...]]


def seat_of(key: object, n: int) -> int:
    """A seat from a record's key ("0".."5" or an int), checked against the table."""
    seat = SEAT_KEYS.get(key) if type(key) is str else (key if type(key) is int else None)
    if seat is None or not 0 <= seat < n:
        raise RecordError("seat", key=show(key).strip('"'), players=n, last=n - 1)
    return seat


class Reading:
    """What the table holds, read from a record: the result of the reading phase.

    Seats are indices into the lists. ``pares[seat]`` and ``juego[seat]`` are what a
    seat really holds *and plays*: a seat that denied its jugada has None there; a
    liar (who said "sí" without it) too, but it is in ``lied``. ``sides[lance]`` are
    the sides (0 for A, 1 for B) that play pares or juego as the table believed it,
    liars included. In a partial reading ``unsure[lance]`` are the seats whose holding
    is not known yet and ``maybe[lance]`` the sides that may still turn out to play.
    """

    __slots__ = (
        "rules", "n", "k", "ix", "mano", "order", "evals", "pares", "juego", "shown",
        "declared", "lied", "denied_juego", "sides", "maybe", "unsure", "fourth",
    )

    rules: Rules
    n: int
    k: int  #: how many sides: 2 in pairs, one a player in individual play
    ix: tuple[int, ...]  #: each seat's side, an index into LETTERS
    mano: int
    order: tuple[int, ...]  #: the seats from the mano round the table: the tie order
    evals: list[Evaluation | None]  #: what each seat's shown cards hold; None unshown
    pares: list[ParesHeld | None]
    juego: list[int | None]
    shown: dict[int, tuple[int, ...]]
    declared: dict[int, dict[str, bool]]
    lied: dict[str, list[int]]  #: the liars of each lance, by seat
    denied_juego: frozenset[int]  #: seats that denied a juego they hold: no punto either
    sides: dict[str, set[int]]  #: the sides that play pares / juego
    maybe: dict[str, set[int]]  #: partial: sides that may yet play pares / juego
    unsure: dict[str, frozenset[int]]  #: partial: seats whose pares / juego are unknown
    fourth: Lance | None  #: juego or punto; None while a partial reading cannot tell

    def plays(self, lance: str) -> bool | None:
        """Whether the lance is played at all: True, False, or None (cannot know yet).

        Grande and chica always are; pares and juego when a side plays them; punto
        when nobody plays juego.
        """
        if lance in (PARES, JUEGO):
            if self.sides[lance]:
                return True
            if lance == JUEGO:
                return None if self.maybe[JUEGO] else False
            return None if self.maybe[PARES] else False
        if lance == PUNTO:
            return None if self.fourth is None else self.fourth == PUNTO
        return True

    def bettable(self, lance: str) -> bool | None:
        """Whether bets are possible in the lance: pares and juego only when two sides
        (two players, in individual play) play them; punto when it is the fourth lance;
        None while that is unknown."""
        if lance in (PARES, JUEGO):
            known = self.sides[lance]
            if len(known) >= 2:
                return True
            if len(known | self.maybe[lance]) < 2:
                return False
            return None
        if lance == PUNTO:
            if self.fourth is None:
                return None
            return self.fourth == PUNTO and len(self.denied_juego) < self.n
        return True

    def players_of(self, lance: str) -> frozenset[int]:
        """The sides that play a lance (as far as known): every side in grande and chica;
        those holding pares or juego as the table believed it; in punto every side with a
        seat that did not deny its juego."""
        if lance in (PARES, JUEGO):
            return frozenset(self.sides[lance])
        if lance == PUNTO and self.denied_juego:
            ix = self.ix
            return frozenset(ix[s] for s in range(self.n) if s not in self.denied_juego)
        return ALL_SIDES[self.k]

    def lie_known(self, lance: str) -> bool:
        """Whether every seat's truthfulness in the lance is known (always, with cards)."""
        unsure = self.unsure.get(lance)
        if not unsure:
            return True
        return not any(self.declared.get(seat, {}).get(lance) is True for seat in unsure)

    def liar_sides(self, lance: str) -> frozenset[int]:
        """The sides with a seat that lied in the lance (empty when nobody did)."""
        liars = self.lied.get(lance) if self.lied else None
        if not liars:
            return NO_SIDES
        ix = self.ix
        return frozenset(ix[seat] for seat in liars)

    def liar_side(self, lance: str) -> int | None:
        """The side that lied in the lance, or None; -1 when more than one side did."""
        liars = self.liar_sides(lance)
        if not liars:
            return None
        return -1 if len(liars) > 1 else next(iter(liars))

    def best_holders(self, lance: str, side: str, other: str | None = None) -> dict[str, object]:
        """For a message: the winning side's best jugada and the best of ``other`` (in pairs
        the other side; no ``other_*`` keys when nobody of it holds the lance)."""
        held: list[Any] = self.pares if lance == PARES else self.juego

        def rank(seat: int) -> int:
            return PARES_ORDER[held[seat][0]] if lance == PARES else JUEGO_ORDER[held[seat]]

        def said(seat: int) -> object:
            return held[seat][0] if lance == PARES else held[seat]

        best: dict[int, int] = {}
        ix = self.ix
        for seat in self.order:
            if held[seat] is not None and (
                ix[seat] not in best or rank(seat) > rank(best[ix[seat]])
            ):
                best[ix[seat]] = seat
        win = LETTERS.index(Side(side))
        lose = LETTERS.index(Side(other)) if other is not None else 1 - win
        out: dict[str, object] = {"seat": best[win], "held": said(best[win])}
        if lose in best:
            out.update(other_seat=best[lose], other_held=said(best[lose]))
        return out

    def first_juego_seat(self) -> int:
        """The first seat from the mano that plays juego (for a message)."""
        return next(
            s for s in self.order if self.juego[s] is not None or s in self.lied.get(JUEGO, ())
        )


#: Every side of a table of k sides, by index.
ALL_SIDES: dict[int, frozenset[int]] = {k: frozenset(range(k)) for k in range(2, 7)}
NO_SIDES: frozenset[int] = frozenset()
_NOBODY: dict[Any, Any] = {}
_NO_SEATS: frozenset[int] = frozenset()
_NO_MAYBE: dict[str, set[int]] = {PARES: set(), JUEGO: set()}


def read_table(
    record: Mapping[str, object], rules: Rules, mano: int, *, partial: bool = False
) -> Reading:
    """The reading phase: cards, jugadas and declarations into a :class:`Reading`."""
    hands = record.get("hands")
    if hands is None:
        hands = {}
    elif type(hands) is not dict and not isinstance(hands, Mapping):
        raise RecordError("not_a", field="hands", what="object", got=show(hands))
    reading = _read_hands(hands, rules, mano)
    jugadas = record.get("jugadas")
    declared = record.get("declared")
    if jugadas is not None or len(reading.shown) < rules.players or declared is not None:
        _read_unshown(jugadas, declared, reading, partial)
    if reading.sides[JUEGO]:
        reading.fourth = JUEGO
    else:
        reading.fourth = PUNTO if not reading.maybe[JUEGO] else None
    return reading


def _read_hands(hands: Mapping[Any, Any], rules: Rules, mano: int) -> Reading:
    """The cards shown, read and evaluated: a :class:`Reading` as if every seat had shown
    and declared nothing (:func:`_read_unshown` then adds what the others said)."""
    n = rules.players
    ix = rules.seat_sides
    # This loop runs for every hand of every replay: the memo gives each spelling of
    # four cards already read and evaluated, and anything unusual takes the slow path.
    shown: dict[int, tuple[int, ...]] = {}
    evals: list[Evaluation | None] = [None] * n
    pares: list[ParesHeld | None] = [None] * n
    juego: list[int | None] = [None] * n
    packed = 0
    pares_sides: set[int] = set()
    juego_sides: set[int] = set()
    known = HAND_CACHES.get((rules.reyes, rules.real31)) or hand_cache(rules)
    for key, text in hands.items():
        try:
            seat = SEAT_KEYS[key]
            cards, ev, counts = known[text]
        except (KeyError, TypeError):
            seat = seat_of(key, n)
            cards, ev, counts = read_hand(text, rules, seat)
        if seat >= n:
            seat_of(key, n)  # raises: no such seat at this table
        shown[seat] = cards
        evals[seat] = ev
        packed += counts
        if ev.pares is not None:
            pares[seat] = ev.pares
            pares_sides.add(ix[seat])
        if ev.total >= 31:
            juego[seat] = ev.total
            juego_sides.add(ix[seat])
    if (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        check_deck(shown, packed)

    reading = Reading()
    reading.rules = rules
    reading.n = n
    reading.k = rules.sides
    reading.ix = ix
    reading.mano = mano
    reading.order = SEATS_FROM[n][mano]
    reading.evals = evals
    reading.pares = pares
    reading.juego = juego
    reading.shown = shown
    # Every seat shown, nothing declared (the common case): nothing is unknown, nobody
    # lied; these empties are shared and never written (the slow path makes its own).
    reading.declared = _NOBODY
    reading.lied = _NOBODY
    reading.denied_juego = _NO_SEATS
    reading.unsure = _NOBODY
    reading.maybe = _NO_MAYBE
    reading.sides = {PARES: pares_sides, JUEGO: juego_sides}
    return reading


def _read_unshown(
    jugadas: object, declared: object, reading: Reading, partial: bool
) -> None:
    """The slow path of the reading: the jugadas of the seats without cards, what each
    seat declared, the liars, and (partial) the sides that may yet play pares or juego;
    the sides of :func:`_read_hands` are read again from all of it."""
    n, pares, juego, ix = reading.n, reading.pares, reading.juego, reading.ix
    reading.maybe = {PARES: set(), JUEGO: set()}
    unknown = _read_jugadas(jugadas, reading, partial)
    if declared is not None:
        _read_declared(declared, reading, unknown)
    elif unknown:
        reading.unsure = {lance: frozenset(unknown[lance]) for lance in JUGADA_LANCES}
    pares_sides = {ix[s] for s in range(n) if pares[s] is not None}
    juego_sides = {ix[s] for s in range(n) if juego[s] is not None}
    # A liar plays the lance (the table believed him); his cards never win or collect.
    for seat in reading.lied.get(PARES, ()):
        pares_sides.add(ix[seat])
    for seat in reading.lied.get(JUEGO, ()):
        juego_sides.add(ix[seat])
    if reading.unsure:
        for lance, sides in ((PARES, pares_sides), (JUEGO, juego_sides)):
            for seat in reading.unsure[lance]:
                said = reading.declared.get(seat, {}).get(lance)
                if said is True:
                    sides.add(ix[seat])
                elif said is None:
                    reading.maybe[lance].add(ix[seat])
            reading.maybe[lance] -= sides
    reading.sides = {PARES: pares_sides, JUEGO: juego_sides}


def _cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards)


def _read_jugadas(
    jugadas: object, reading: Reading, partial: bool
) -> dict[str, set[int]] | None:
    """Fill pares/juego of the seats that showed no cards from their jugadas.

    Returns, in a partial reading, the seats whose pares / juego are not known yet.
    """
    n = reading.n
    evals, pares, juego, shown = reading.evals, reading.pares, reading.juego, reading.shown
    given = _given_jugadas(jugadas, n)
    unknown: dict[str, set[int]] = {PARES: set(), JUEGO: set()}
    for seat in range(n):
        value = given.get(seat)
        ev = evals[seat]
        if value is None:
            if ev is None:
                if not partial:
                    raise RecordError("no_cards_no_jugadas", seat=seat)
                unknown[PARES].add(seat)
                unknown[JUEGO].add(seat)
            continue
        for field in JUGADA_LANCES:
            if field not in value and ev is None:
                if not partial:
                    raise RecordError("jugada_missing", seat=seat, field=field)
                unknown[field].add(seat)
        said_pares = value.get(PARES)
        said_juego = value.get(JUEGO)
        _check_jugada_words(seat, said_pares, said_juego)
        if ev is not None:
            _check_jugadas_against_cards(seat, ev, shown[seat], said_pares, said_juego)
            continue
        if isinstance(said_pares, str) and said_pares != "no":
            # Without cards the kind is all we know; who wins among holders of the same
            # kind then comes from `winners`, so the key holds the kind alone.
            pares[seat] = (said_pares, (PARES_ORDER[said_pares],))
        if type(said_juego) is int:
            juego[seat] = said_juego
    return unknown if unknown[PARES] or unknown[JUEGO] else None


def _given_jugadas(jugadas: object, n: int) -> dict[int, Mapping[str, object]]:
    """The record's ``jugadas`` by seat, each an object of pares and juego at most."""
    if jugadas is None:
        return {}
    if not isinstance(jugadas, Mapping):
        raise RecordError("not_a", field="jugadas", what="object", got=show(jugadas))
    given: dict[int, Mapping[str, object]] = {}
    for key, value in jugadas.items():
        seat = seat_of(key, n)
        if not isinstance(value, Mapping):
            raise RecordError(
                "not_a", field=f"jugadas.{seat}", what="object", got=show(value)
            )
        for k in value:
            if k not in _JUGADA_KEYS:
                raise RecordError("unknown_key", key=str(k)[:40], where=f"jugadas.{seat}")
        given[seat] = value
    return given


def _check_jugada_words(seat: int, said_pares: object, said_juego: object) -> None:
    """A seat's jugadas are words of the contract: a kind of pares, a juego's total, "no"."""
    if said_pares is not None and said_pares not in PARES_KINDS:
        raise RecordError("jugada_pares", seat=seat, got=show(said_pares))
    if said_juego is not None and said_juego != "no" and (
        type(said_juego) is not int or said_juego not in JUEGO_TOTALS
    ):
        raise RecordError("jugada_juego", seat=seat, got=show(said_juego))


def _check_jugadas_against_cards(
    seat: int, ev: Evaluation, cards: tuple[int, ...], said_pares: object, said_juego: object
) -> None:
    """Cards and jugadas both given: they must tell the same story."""
    has_pares = ev.pares.kind if ev.pares else "no"
    if said_pares is not None and said_pares != has_pares:
        raise RecordError(
            "jugada_contradicts", seat=seat, cards=_cards_text(cards),
            has=has_pares, lance=PARES, said=show(said_pares),
        )
    has_juego: int | str = ev.total if ev.total >= 31 else "no"
    if said_juego is not None and said_juego != has_juego:
        raise RecordError(
            "jugada_contradicts", seat=seat, cards=_cards_text(cards),
            has=has_juego, lance=JUEGO, said=show(said_juego),
        )


def _read_declared(
    data: object, reading: Reading, unknown: dict[str, set[int]] | None
) -> None:
    """Read what each seat declared for pares and juego: the liars, the denials.

    A seat that said it had the jugada but shows none is a liar (its side loses the
    lance); one that said it had none while holding it did not play the lance, so its
    jugada is dropped here (and a denied juego plays no punto either). Declarations
    of seats without cards must agree with their jugadas: without cards a lie cannot
    be seen. A seat whose holding is unknown (partial) keeps its word until it is.
    """
    n = reading.n
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field="declared", what="object", got=show(data))
    lied: dict[str, list[int]] = {}
    denied: set[int] = set()
    declared: dict[int, dict[str, bool]] = {}
    for key, value in data.items():
        seat = seat_of(key, n)
        if type(value) is not dict and not isinstance(value, Mapping):
            raise RecordError(
                "not_a", field=f"declared.{seat}", what="object", got=show(value)
            )
        for lance, said in value.items():
            if lance not in _JUGADA_KEYS:
                raise RecordError("unknown_key", key=str(lance)[:40], where=f"declared.{seat}")
            if type(said) is not bool:
                raise RecordError("declared_value", seat=seat, lance=lance, got=show(said))
            declared.setdefault(seat, {})[lance] = said
            if unknown is not None and seat in unknown[lance]:
                continue
            held_by: list[Any] = reading.pares if lance == PARES else reading.juego
            has = held_by[seat] is not None
            if said == has:
                continue
            if reading.evals[seat] is None:
                raise RecordError("declared_no_cards", seat=seat, lance=lance)
            if said:
                lied.setdefault(lance, []).append(seat)
            else:
                held_by[seat] = None  # said "no": did not play the lance
                if lance == JUEGO:
                    denied.add(seat)
    for seats in lied.values():
        seats.sort()
    reading.declared = declared
    reading.lied = lied
    reading.denied_juego = frozenset(denied)
    if unknown is not None:
        reading.unsure = {lance: frozenset(unknown[lance]) for lance in JUGADA_LANCES}
