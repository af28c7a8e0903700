"""Cards, table options and what a hand of four cards holds in each lance.

A card is its index on the Spanish deck: 1-7, 10 (sota), 11 (caballo),
12 (rey). Suits never matter in Mus, so a card is just an ``int``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from muscore.rules.errors import CardError, RecordError

#: The indices of the Spanish deck of 40, four cards each.
INDICES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)

#: The names a table gives each index (used in messages).
CARD_NAMES: dict[int, str] = {
    1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
    10: "sota", 11: "caballo", 12: "rey",
}

#: The plural a table says for several cards of an index (in messages: "cinco reyes").
CARD_PLURALS: dict[int, str] = {
    1: "ases", 2: "doses", 3: "treses", 4: "cuatros", 5: "cincos", 6: "seises", 7: "sietes",
    10: "sotas", 11: "caballos", 12: "reyes",
}

#: How each index is written back ("R R 5 4"): letters for the figures, and the as as
#: 1, as the keypad says it ("A" is a side: A and B). "A" is still read as an as.
CARD_TEXT: dict[int, str] = {
    1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 10: "S", 11: "C", 12: "R",
}

_TOKENS: dict[str, int] = {str(i): i for i in INDICES}
_TOKENS.update({"A": 1, "S": 10, "C": 11, "R": 12, "a": 1, "s": 10, "c": 11, "r": 12})


class Side(enum.StrEnum):
    """A side of the table: a partnership (A and B: even seats A, odd seats B) or, in
    individual play, one player (seat 0 A, 1 B, 2 C, 3 D, 4 E, 5 F)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"

    @property
    def other(self) -> Side:
        """The opposing side of a game of two sides (A and B)."""
        if self is Side.A:
            return Side.B
        if self is Side.B:
            return Side.A
        raise ValueError(f"side {self.value} has no single opponent")


class Lance(enum.StrEnum):
    """The lances, in the order they are played and counted."""

    GRANDE = "grande"
    CHICA = "chica"
    PARES = "pares"
    JUEGO = "juego"
    PUNTO = "punto"


#: The sides by a seat's parity (``SIDES[seat & 1]``); the lances as the engine names them.
SIDES: tuple[Side, Side] = (Side.A, Side.B)
A, B = SIDES
#: Every side by its index: a side's index is its seat in individual play.
LETTERS: tuple[Side, ...] = tuple(Side)
#: A side's index by its letter (a Side or the record's string).
SIDE_INDEX: dict[str, int] = {side.value: i for i, side in enumerate(LETTERS)}
#: Every side's letter as a plain str, by index: the keys of the results' score objects
#: and the sides the one pass (shown.py) writes. A dict keyed by exact strs looks up and
#: builds about twice as fast as one keyed by enum members, and every step of every hand
#: of every replay carries a score object.
SIDE_NAMES: tuple[str, ...] = tuple(side.value for side in LETTERS)


# Each side's piedras as the contract writes them, one function a table's number of sides:
# a dict display is more than twice as fast as dict(zip(...)), and every step of every
# hand of every replay carries one. The keys are literals (SIDE_NAMES), so each display
# is built from one constant tuple of keys.
def _score2(s: Sequence[int]) -> dict[str, int]:
    return {"A": s[0], "B": s[1]}


def _score3(s: Sequence[int]) -> dict[str, int]:
    return {"A": s[0], "B": s[1], "C": s[2]}


def _score4(s: Sequence[int]) -> dict[str, int]:
    return {"A": s[0], "B": s[1], "C": s[2], "D": s[3]}


def _score5(s: Sequence[int]) -> dict[str, int]:
    return {"A": s[0], "B": s[1], "C": s[2], "D": s[3], "E": s[4]}


def _score6(s: Sequence[int]) -> dict[str, int]:
    return {"A": s[0], "B": s[1], "C": s[2], "D": s[3], "E": s[4], "F": s[5]}


#: ``SCORE_OF[sides](scores)``: the contract's score object of each side's piedras.
SCORE_OF: dict[int, Callable[[Sequence[int]], dict[str, int]]] = {
    2: _score2, 3: _score3, 4: _score4, 5: _score5, 6: _score6}
GRANDE, CHICA, PARES, JUEGO, PUNTO = (
    Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO
)


class Real31(enum.StrEnum):
    """Which 31, if any, is the "31 real" that beats every other 31."""

    NO = "no"
    REY = "rey"  #: 7 7 7 and a rey of index 12 (a 3 does not count)
    FIGURA = "figura"  #: 7 7 7 and a sota, caballo or rey
    SOTA = "sota"  #: 7 7 7 and a sota


#: The fourth card that makes 7 7 7 + it the 31 real, by option.
REAL31_FOURTH: dict[Real31, tuple[int, ...]] = {
    Real31.REY: (12,), Real31.FIGURA: (10, 11, 12), Real31.SOTA: (10,),
}

_RULE_KEYS = ("players", "reyes", "target", "juegos", "real31", "perete", "individual")
REAL31_BY_NAME: dict[str, Real31] = {option.value: option for option in Real31}
#: How many players a table seats; pairs (two sides) need 4 or 6 (2 is one a side).
PLAYERS = (2, 3, 4, 5, 6)
PAIRS_PLAYERS = (4, 6)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a table chose when it was set up (see rules.md, "Options").

    >>> Rules()
    Rules(players=4, reyes=8, target=40, juegos=2, real31=<Real31.NO: 'no'>, perete=False, \
individual=False)

    ``perete`` (seed 001, "Variantes regionales": 4 5 6 7 "en algunas zonas da derecho a
    un tanto y a pedir cartas nuevas"): whether the table notes a perete, an entry of one
    piedra to the side that showed it (see :func:`muscore.rules.vaca.score_perete`).

    ``individual`` (rules.md, "Individual play"): each player for himself, a side of his
    own (seat 0 A, 1 B ... 5 F). Always so with 2, 3 or 5 players (None reads as that);
    with 4 or 6 only when asked, else two partnerships (even seats A, odd seats B).

    >>> Rules(players=3).individual, Rules(players=3).sides, Rules(players=6).sides
    (True, 3, 2)
    """

    players: int = 4
    reyes: int = 8
    target: int = 40
    juegos: int = 2
    real31: Real31 | str = Real31.NO  #: always a Real31 once made; "rey" is read as Real31.REY
    perete: bool = False  #: the table plays perete (4 5 6 7 gives a tanto); off by default
    individual: bool | None = None  #: each for himself; always a bool once made
    #: How many sides keep a score: 2 in pairs, one a player in individual play.
    sides: int = field(default=2, init=False, repr=False, compare=False)
    #: Each seat's side, by index into :data:`LETTERS`.
    seat_sides: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    #: Each side's seats, by the side's index (two or three partners, or one player).
    side_seats: tuple[tuple[int, ...], ...] = field(default=(), init=False, repr=False,
                                                    compare=False)
    #: Each seat's side as a bit (``1 << side``), for sets of sides kept as ints.
    seat_bits: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_rule("players", self.players, PLAYERS)
        _check_rule("reyes", self.reyes, (8, 4))
        _check_rule("target", self.target, range(10, 101))
        _check_rule("juegos", self.juegos, range(1, 6))
        if type(self.real31) is not Real31:
            if not isinstance(self.real31, str) or self.real31 not in REAL31_BY_NAME:
                raise RecordError(
                    "rule_value", field="real31", got=show(self.real31),
                    choices=tuple(REAL31_BY_NAME),
                )
            object.__setattr__(self, "real31", REAL31_BY_NAME[self.real31])
        if type(self.perete) is not bool:
            raise RecordError("rule_value", field="perete", got=show(self.perete),
                              choices=(True, False))
        individual = self.individual
        if individual is None:
            individual = self.players not in PAIRS_PLAYERS
        elif type(individual) is not bool:
            raise RecordError("rule_value", field="individual", got=show(individual),
                              choices=(True, False))
        elif not individual and self.players not in PAIRS_PLAYERS:
            raise RecordError("pairs_players", players=self.players)
        object.__setattr__(self, "individual", individual)
        sides = self.players if individual and self.players > 2 else 2
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "seat_sides", SEAT_SIDES[self.players, sides])
        object.__setattr__(self, "side_seats", tuple(
            tuple(range(side, self.players, sides)) for side in range(sides)))
        object.__setattr__(self, "seat_bits", tuple(1 << side for side in self.seat_sides))

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from the contract's ``rules`` object; every key is optional."""
        if data is None:
            return DEFAULT_RULES
        if type(data) is not dict and not isinstance(data, Mapping):
            raise RecordError("not_a", field="rules", what="object", got=show(data))
        if not data:
            return DEFAULT_RULES
        # Tables repeat the same options over and over: memoise by the keys, the values
        # and the values' types, in one flat tuple. True == 1 == 1.0 hash alike, and a
        # value must be an exact int (or bool): the types keep another type from a hit.
        values = data.values()
        key: object = (*data, *values, *map(type, values))
        try:
            cached = _RULES_CACHE.get(key)
        except TypeError:  # an unhashable value: let the checks below name it
            cached = None
            key = None
        if cached is not None:
            return cached  # only options read once, every key known, are memoised
        for name in data:
            if name not in _RULE_KEYS:
                raise RecordError("unknown_key", key=name, where="rules")
        rules = cls(**{k: data[k] for k in _RULE_KEYS if k in data})
        if key is not None and len(_RULES_CACHE) < 1024:
            _RULES_CACHE[key] = rules
        return rules

    def to_json(self) -> dict[str, Any]:
        """The ``rules`` object of the contract, every option spelled out.

        ``perete`` is written only when it is on, and ``individual`` only for individual
        play of 3 or more: absent means off (and two players are always each for
        himself), so the records, tables and league documents of a table without them
        stay exactly as they were.
        """
        data: dict[str, Any] = {
            "players": self.players, "reyes": self.reyes, "target": self.target,
            "juegos": self.juegos, "real31": str(self.real31),
        }
        if self.perete:
            data["perete"] = True
        if self.sides > 2:
            data["individual"] = True
        return data

    @property
    def letters(self) -> tuple[Side, ...]:
        """The sides of the table in seat order: A, B (pairs, two players), or one a player
        (A, B, C... in individual play of 3 or more)."""
        return LETTERS[:self.sides]

    def side_of(self, seat: int) -> Side:
        """The side of a seat: in pairs even seats A and odd seats B; in individual play
        the seat's own letter."""
        return LETTERS[self.seat_sides[seat]]

    def seats_from(self, mano: int) -> tuple[int, ...]:
        """The seats in speaking order starting at the mano: the order of priority in a tie."""
        return SEATS_FROM[self.players][mano]

    def dentro(self) -> int:
        """The score from which a side is "dentro": 36 of 40.

        rules.md: dentro when fewer than five piedras are missing to the target (seed
        000 section 6, "cuando faltan menos de cinco piedras para terminar el juego").

        >>> Rules().dentro(), Rules(target=30).dentro()
        (36, 26)
        """
        return self.target - 4

    def is_dentro(self, piedras: int) -> bool:
        """Whether a side with these piedras in the juego being played is "dentro".

        >>> [Rules().is_dentro(n) for n in (35, 36, 39, 40)]
        [False, True, True, False]
        """
        return self.target - 4 <= piedras < self.target


def _check_rule(field: str, value: object, allowed: tuple[int, ...] | range) -> None:
    if type(value) is not int or value not in allowed:
        if isinstance(allowed, range):
            raise RecordError("rule_value", field=field, got=show(value),
                              low=allowed.start, high=allowed.stop - 1)
        raise RecordError("rule_value", field=field, got=show(value), choices=allowed)


_RULES_CACHE: dict[object, Rules] = {}
SEATS_FROM = {
    n: [tuple((mano + i) % n for i in range(n)) for mano in range(n)] for n in PLAYERS
}
#: Each seat's side index by (players, sides): parity in pairs, the seat itself alone.
SEAT_SIDES: dict[tuple[int, int], tuple[int, ...]] = {
    (n, k): tuple(seat % k for seat in range(n)) for n in PLAYERS for k in {2, n}
}
DEFAULT_RULES = Rules()


def show(value: object) -> str:
    """A value as a player would read it in a message: JSON-like, and short."""
    if isinstance(value, str):
        text = '"' + value + '"'
    elif value is None:
        text = "null"
    elif value is True:
        text = "true"
    elif value is False:
        text = "false"
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Pares(NamedTuple):
    """A hand's pares: its kind and the ranks that compare it."""

    kind: str  #: "par", "medias" or "duples"
    key: tuple[int, ...]  #: comparable: higher is better

    @property
    def premium(self) -> int:
        """What a holder collects: par 1, medias 2, duples 3."""
        return PARES_PREMIUM[self.kind]


PARES_PREMIUM = {"par": 1, "medias": 2, "duples": 3}
PARES_ORDER = {"par": 1, "medias": 2, "duples": 3}
#: Juego totals, best to worst: 31, 32, 40, 37, 36, 35, 34, 33.
JUEGO_ORDER = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}


class Evaluation(NamedTuple):
    """What four cards hold in every lance, as comparable keys (higher is better)."""

    grande: tuple[int, ...]
    chica: tuple[int, ...]
    pares: Pares | None
    total: int  #: the sum of the values: juego from 31, else the punto
    real31: bool
    #: Compares juegos: a 31 real above every 31, then 31, 32, 40, 37...33; 0 without juego.
    juego_rank: int
    #: The showdown's keys as plain ints, higher is better: grande, chica, punto
    #: (the total), pares (0 without), juego (0 without). Every hand of every replay
    #: is compared, and ints compare faster than tuples.
    keys: tuple[int, int, int, int, int]

    @property
    def juego(self) -> int | None:
        """The juego total (31 or more), or None without juego."""
        return self.total if self.total >= 31 else None

    @property
    def juego_premium(self) -> int:
        """A 31 pays 3, any other juego 2."""
        return 3 if self.total == 31 else 2


def _rank(index: int, reyes: int) -> int:
    # In 8 reyes every 3 is a rey and every 2 an as, in every lance.
    if reyes == 8:
        if index == 3:
            return 12
        if index == 2:
            return 1
    return index


def _value(index: int, reyes: int) -> int:
    if index >= 10:
        return 10
    if reyes == 8 and index == 3:
        return 10
    if reyes == 8 and index == 2:
        return 1
    return index


def _evaluate(cards: tuple[int, ...], reyes: int, real31: Real31) -> Evaluation:
    ranks = sorted((_rank(c, reyes) for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    pares: Pares | None
    groups = sorted(((n, r) for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        pares = None
    elif groups[0][0] == 4:
        pares = Pares("duples", (3, groups[0][1], groups[0][1]))
    elif len(groups) == 2:
        hi, lo = sorted((groups[0][1], groups[1][1]), reverse=True)
        pares = Pares("duples", (3, hi, lo))
    elif groups[0][0] == 3:
        pares = Pares("medias", (2, groups[0][1]))
    else:
        pares = Pares("par", (1, groups[0][1]))
    total = sum(_value(c, reyes) for c in cards)
    is_real = False
    if total == 31 and real31 is not Real31.NO and sorted(cards).count(7) == 3:
        fourth = next(c for c in cards if c != 7)
        allowed = REAL31_FOURTH[real31]
        is_real = fourth in allowed
    juego_rank = JUEGO_ORDER[total] * 2 + (1 if is_real else 0) if total >= 31 else 0
    ascending = ranks[::-1]
    return Evaluation(
        grande=tuple(ranks),
        chica=tuple(-r for r in ascending),
        pares=pares,
        total=total,
        real31=is_real,
        juego_rank=juego_rank,
        keys=(
            _digits(ranks),
            -_digits(ascending),  # the lower the cards from the lowest up, the better
            total,
            _digits(pares.key) if pares else 0,
            juego_rank,
        ),
    )


def _digits(ranks: tuple[int, ...] | list[int]) -> int:
    """Ranks (each under 16) as one int that compares like the tuple: base 16 digits."""
    value = 0
    for r in ranks:
        value = value * 16 + r
    return value


_EVAL_CACHE: dict[tuple[tuple[int, ...], int, str], Evaluation] = {}


def evaluate(cards: tuple[int, ...], rules: Rules = DEFAULT_RULES) -> Evaluation:
    """What four cards hold in each lance under the table's options (memoised)."""
    key = (cards, rules.reyes, rules.real31)
    found = _EVAL_CACHE.get(key)
    if found is None:
        found = _evaluate(cards, rules.reyes, REAL31_BY_NAME[rules.real31])
        if len(_EVAL_CACHE) > 20_000:  # at most a few thousand distinct hands exist
            _EVAL_CACHE.clear()
        _EVAL_CACHE[key] = found
    return found


_PARSE_CACHE: dict[str, tuple[int, ...]] = {}


def parse_cards(text: object, seat: int | str = "?") -> tuple[int, ...]:
    """Four cards from text such as ``"R R 5 4"`` or ``"12 12 5 4"``, sorted high to low.

    Raises :class:`CardError` naming the seat and the card at fault.
    """
    if type(text) is str:
        found = _PARSE_CACHE.get(text)
        if found is not None:
            return found
    else:
        raise RecordError(
            "not_a", field=f"hands.{seat}", what="cards", got=show(text)
        )
    tokens = text.replace(",", " ").split()
    cards = []
    for token in tokens:
        index = _TOKENS.get(token)
        if index is None:
            raise CardError("card", seat=seat, token=token[:20])
        cards.append(index)
    if len(cards) != 4:
        raise CardError("card_count", seat=seat, count=len(cards), cards=" ".join(tokens)[:40])
    result = tuple(sorted(cards, reverse=True))
    if len(_PARSE_CACHE) > 50_000:
        _PARSE_CACHE.clear()
    _PARSE_CACHE[text] = result
    return result


HAND_CACHES: dict[tuple[int, str], dict[str, tuple[tuple[int, ...], Evaluation, int]]] = {}


def hand_cache(rules: Rules) -> dict[str, tuple[tuple[int, ...], Evaluation, int]]:
    """The memo of :func:`read_hand` for the table's options (text -> what it holds)."""
    cache = HAND_CACHES.get((rules.reyes, rules.real31))
    if cache is None:
        cache = HAND_CACHES[(rules.reyes, rules.real31)] = {}
    return cache


def read_hand(
    text: object, rules: Rules, seat: int | str = "?"
) -> tuple[tuple[int, ...], Evaluation, int]:
    """A seat's cards, what they hold, and their packed counts, memoised per table option."""
    cache = hand_cache(rules)
    if type(text) is not str:
        parse_cards(text, seat)  # raises the error naming the seat
        raise AssertionError("unreachable")
    found = cache.get(text)
    if found is None:
        cards = parse_cards(text, seat)
        found = (cards, evaluate(cards, rules), packed_counts(cards))
        if len(cache) > 50_000:  # only valid spellings get here, but bound it all the same
            cache.clear()
        cache[text] = found
    return found


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's four cards, high to low.

    >>> Hand.parse("4 r 5 R")
    Hand.parse('R R 5 4')
    """

    cards: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read four cards written as indices (1-7, 10-12) or letters (A, S, C, R)."""
        return cls(parse_cards(text))

    def __str__(self) -> str:
        return " ".join(CARD_TEXT[c] for c in self.cards)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def evaluate(self, rules: Rules = DEFAULT_RULES) -> Evaluation:
        """What this hand holds in each lance."""
        return evaluate(self.cards, rules)

    def pares(self, rules: Rules = DEFAULT_RULES) -> str | None:
        """``"par"``, ``"medias"``, ``"duples"``, or None without pares."""
        found = evaluate(self.cards, rules).pares
        return found.kind if found else None

    def juego_total(self, rules: Rules = DEFAULT_RULES) -> int:
        """The sum of the cards' values (R, C, S = 10; in 8 reyes 3 = 10 and 2 = 1)."""
        return evaluate(self.cards, rules).total

    def has_juego(self, rules: Rules = DEFAULT_RULES) -> bool:
        """Whether the cards add to 31 or more."""
        return evaluate(self.cards, rules).total >= 31

    def is_perete(self) -> bool:
        """Whether these are 4 5 6 7, the perete (a tanto where the table plays it).

        >>> Hand.parse("7 5 4 6").is_perete(), Hand.parse("7 5 4 4").is_perete()
        (True, False)
        """
        return self.cards == (7, 6, 5, 4)

    def is_real31(self, rules: Rules) -> bool:
        """Whether this is the table's 31 real (only with that option)."""
        return evaluate(self.cards, rules).real31


# The deck check runs on every hand of every replay, so each hand's cards are also
# kept as a packed count: 5 bits per index. Adding the hands' packed counts adds
# the counts slot by slot (at most 24 of an index among 6 hands, under 32), and
# adding 3 to every slot sets a slot's 8-bit exactly when its count is 5 or more.
_SLOT = {index: 5 * i for i, index in enumerate(INDICES)}
PACKED_PLUS_3 = sum(3 << shift for shift in _SLOT.values())
PACKED_EIGHTS = sum(8 << shift for shift in _SLOT.values())


def packed_counts(cards: tuple[int, ...]) -> int:
    """The cards' counts by index packed 5 bits a slot (see check_deck)."""
    return sum(1 << _SLOT[c] for c in cards)


def check_deck(hands: Mapping[int, tuple[int, ...]], packed: int | None = None) -> None:
    """Raise :class:`CardError` if the shown hands hold more than four of an index.

    ``packed`` is the sum of the hands' :func:`packed_counts`, when the caller has it.
    """
    if packed is None:
        packed = sum(packed_counts(cards) for cards in hands.values())
    if not (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        return
    for index, shift in _SLOT.items():
        count = (packed >> shift) & 31
        if count > 4:
            raise CardError("too_many", count=count, index=index, name=CARD_PLURALS[index])
