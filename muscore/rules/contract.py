"""The engine's JSON contract as types (docs/contract.md): a hand record, a hand's result,
a vaca and its replay, a table's evening.

These are ``typing.TypedDict`` s: plain dicts at run time, described for mypy, so a
caller reads ``result["score"]["A"]`` checked instead of a ``dict[str, Any]``. The engine
builds its result dicts directly (the benchmark holds :func:`muscore.rules.score` to a
small multiple of a JSON round trip) and gives them these types at its public functions;
tests/rules/test_contract_types.py checks the types against every shared example.

Sides are the strings "A" and "B" (the engine's :class:`~muscore.rules.Side` members are
those strings), or in individual play of 3 to 6 players one letter a player, "A" to "F";
lances are their names.

No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from
the annotations themselves at run time (the tests rely on it).
"""

from typing import Literal, NotRequired, TypedDict

SideName = Literal["A", "B", "C", "D", "E", "F"]
Why = Literal["deje", "paso", "quiero", "no_quiero", "solo", "mentira", "piedras", "perete"]
EndedBy = Literal["deje", "ordago", "recuento", "piedras", "perete"]


class Score(TypedDict):
    """Piedras (or juegos, or vacas) by side: A and B, and in individual play of 3 or more
    one a player (C, D, E, F as the table has them)."""

    A: int
    B: int
    C: NotRequired[int]
    D: NotRequired[int]
    E: NotRequired[int]
    F: NotRequired[int]


class RulesDict(TypedDict, total=False):
    """A table's options (rules.md): every key optional, defaults as Rules() has them."""

    players: int
    reyes: int
    target: int
    juegos: int
    real31: str
    perete: bool
    individual: bool


class Bet(TypedDict):
    """One bet of a lance: the side that bet and the piedras it adds, or "ordago"."""

    side: SideName
    n: int | Literal["ordago"]


class LanceBets(TypedDict):
    """A lance's betting: its bets in order and the answer to the last; in individual play
    of 3 or more, ``out``: the players who left it (no quiero) while another held on."""

    bets: list[Bet]
    end: NotRequired[Literal["quiero", "no_quiero"]]
    out: NotRequired[list[SideName]]


class Jugada(TypedDict, total=False):
    """What a seat without cards said: its pares ("no", "par", "medias", "duples") and
    its juego ("no" or the total)."""

    pares: str
    juego: int | str


class HandRecord(TypedDict, total=False):
    """A hand record (the contract's input): every key optional; seats are the keys of
    ``hands``, ``jugadas`` and ``declared`` ("0".."n-1"), lances of ``lances`` and
    ``winners``."""

    rules: RulesDict
    mano: int
    score: Score
    hands: dict[str, str]
    jugadas: dict[str, Jugada]
    declared: dict[str, dict[str, bool]]
    lances: dict[str, LanceBets]
    winners: dict[str, SideName]


class PiedrasTap(TypedDict):
    """Piedras tapped by hand for a side (+1, +5, -1), as on paper."""

    side: SideName
    n: int


class PiedrasEntry(TypedDict):
    """A vaca's entry that is a tap, not a dealt hand."""

    piedras: PiedrasTap


class PereteNoted(TypedDict):
    """A perete (4 5 6 7) shown by a player of a side: one piedra to it."""

    side: SideName


class PereteEntry(TypedDict):
    """A vaca's entry that is a perete noted (a table whose rules play it)."""

    perete: PereteNoted


class LanceResultDict(TypedDict):
    """The side credited in a lance and all it got there (None, 0: nothing credited)."""

    side: SideName | None
    points: int


class Premium(TypedDict):
    """A holder's premium in pares or juego: his seat, jugada and piedras."""

    seat: int
    jugada: str | int
    points: int


class StepDict(TypedDict):
    """One step of the recuento, with the score after it. ``lance`` is None for a tap."""

    lance: str | None
    side: SideName
    points: int
    why: Why
    score: Score
    premiums: NotRequired[list[Premium]]
    stake: NotRequired[int]
    liars: NotRequired[list[int]]


class OrdagoWon(TypedDict):
    """The accepted órdago that ended the juego: its lance, the side it won, the liars."""

    lance: str
    side: SideName
    lies: NotRequired[list[int]]


class Lie(TypedDict):
    """A declaration that was false: the seat, the lance, the seat's side."""

    seat: int
    lance: str
    side: SideName


class HandResultDict(TypedDict):
    """A hand's result (the contract's output of score())."""

    score: Score
    winner: SideName | None
    ended_by: EndedBy | None
    lances: dict[str, LanceResultDict]
    recuento: list[StepDict]
    ordago: NotRequired[OrdagoWon]
    lies: NotRequired[list[Lie]]
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]


class VacaRecord(TypedDict, total=False):
    """A vaca to replay: its rules, its first mano, its entries (hands and taps) in order.
    Each hand leaves out ``rules``, ``mano`` and ``score``: the replay carries them."""

    rules: RulesDict
    mano: int
    hands: list[HandRecord | PiedrasEntry | PereteEntry]


class ReplayedEntry(TypedDict):
    """One entry of a replayed vaca: its mano and juego, the score after it, the juego's
    winner if it won one, its full result, and for a tap the piedras tapped."""

    mano: int
    juego: int
    score: Score
    winner: SideName | None
    result: HandResultDict
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]


class VacaReplay(TypedDict):
    """replay()'s output: the entries replayed, the juegos won, the vaca's winner, the
    score now and the next mano."""

    hands: list[ReplayedEntry]
    juegos: Score
    winner: SideName | None
    score: Score
    next_mano: int


class EveningVaca(VacaReplay):
    """A vaca of an evening: replay()'s output plus the table-wide number of its first
    entry and its first mano."""

    first_hand: int
    mano: int


class Evening(TypedDict):
    """replay_evening()'s output: the finished vacas, the current one, vacas won by side."""

    finished: list[EveningVaca]
    current: EveningVaca
    vacas: Score
