"""The game's words and the sides, as every screen of a hand says them.

The game's words stay Spanish in English (issue 3, point 6) and are the Basque tables'
own in Basque (handia, txikia...): the catalogues say which.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.rules import Rules, Side

#: The longest name of a seat at a table (the table's own names; a club's are longer).
NAME_MAX = 40

LANCE_NAMES: dict[str, str | Promise] = {
    "grande": gettext_lazy("Grande"),
    "chica": gettext_lazy("Chica"),
    "pares": gettext_lazy("Pares"),
    "juego": gettext_lazy("Juego"),
    "punto": gettext_lazy("Punto"),
}
# The same names inside a sentence ("Nadie tiene pares.").
LANCE_WORDS: dict[str, str | Promise] = {
    "grande": gettext_lazy("grande"),
    "chica": gettext_lazy("chica"),
    "pares": gettext_lazy("pares"),
    "juego": gettext_lazy("juego"),
    "punto": gettext_lazy("punto"),
}
# The pares jugadas as the recuento names them ("Ana medias: 2"); juego is a number.
JUGADA_WORDS: dict[str, str | Promise] = {
    "par": gettext_lazy("par"),
    "medias": gettext_lazy("medias"),
    "duples": gettext_lazy("duples"),
}


def lance_word(lance: str) -> str:
    """A lance's name inside a sentence, in the reader's language ("pares", "pareak")."""
    return str(LANCE_WORDS.get(lance, lance))


def jugada_word(jugada: object) -> str:
    """A jugada as the recuento names it: "medias" (translated) or a juego's total."""
    return str(JUGADA_WORDS.get(str(jugada), jugada))


def other(side: str) -> str:
    """The other side: "B" for "A", "A" for "B"."""
    return "B" if side == "A" else "A"


def side_of(seat: int) -> str:
    """A seat's side: the even seats (0, 2, 4) are A, the odd ones B."""
    return "AB"[seat % 2]


def side_seats(side: str, players: int) -> list[int]:
    """The seats of a side at a table of `players`, in speaking order from seat 0."""
    first = 0 if side == "A" else 1
    return list(range(first, players, 2))


def seat_label(seat: int, *, individual: bool = False) -> str:
    """A seat named by its side and its place in the side: A1, B1, A2, B2 (A3, B3); in
    individual play (each for himself) by its own letter, A to F."""
    if individual:
        return "ABCDEF"[seat]
    return f"{side_of(seat)}{seat // 2 + 1}"


def default_names(players: int, *, individual: bool = False) -> list[str]:
    """The names of a table whose players gave none: each seat's :func:`seat_label`."""
    return [seat_label(seat, individual=individual) for seat in range(players)]


def side_names(players: Sequence[str], side: str) -> str:
    """'Ana y Carla': how a table names a partnership."""
    names = [players[seat] for seat in side_seats(side, len(players))]
    return get_text_list(names, _("y"))


@dataclass(frozen=True)
class Seating(Sequence[str]):
    """Who sits where and which side each seat plays for, as every screen names them.

    In pairs (4 or 6 players) two sides, A the even seats and B the odd ones; at a table
    of two, and in individual play of 3 to 6 (each for himself, rules.md), every seat is
    a side of its own, A for seat 0 to F for seat 5. The engine's `Rules.sides` says
    which: nothing here decides a rule, it only names the sides. It is also the names
    by seat (a sequence), so it goes wherever the names went.
    """

    players: tuple[str, ...]
    sides: int = 2

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self.players[index]

    def __len__(self) -> int:
        return len(self.players)

    @classmethod
    def of(cls, players: Sequence[str], rules: Mapping[str, object] | None) -> Seating:
        """The seating of a table's names under its rules (the engine reads them)."""
        return cls(tuple(players), Rules.from_json(rules or {"players": len(players)}).sides)

    @classmethod
    def scored(cls, players: Sequence[str], score: Mapping[str, object] | None) -> Seating:
        """The seating of `players` (itself when it is one), else the names with as many
        sides as a result's `score` names (A and B in pairs, one a player alone)."""
        if isinstance(players, Seating):
            return players
        return cls(tuple(players), max(2, len(score or ())))

    @property
    def individual(self) -> bool:
        """Each player for himself among 3 to 6 (not two sides)."""
        return self.sides > 2

    @property
    def alone(self) -> bool:
        """Every side is one player (a table of two, or individual play): "gana", "él"."""
        return self.sides == len(self.players) or len(self.players) <= 2

    @property
    def letters(self) -> tuple[str, ...]:
        """The sides in order: ("A", "B"), or one letter a player."""
        return tuple(side.value for side in Side)[: self.sides]

    def side_of(self, seat: int) -> str:
        """A seat's side: its own letter in individual play, else A (even) or B (odd)."""
        return self.letters[seat] if self.individual else side_of(seat)

    def seats(self, side: str) -> list[int]:
        """The seats of a side, in speaking order from seat 0."""
        if self.individual:
            return [self.letters.index(side)] if side in self.letters else []
        return side_seats(side, len(self.players))

    def names(self, side: str) -> str:
        """A side as a sentence names it: "Ana y Carla", or "Ana" alone."""
        return get_text_list([self.players[seat] for seat in self.seats(side)], _("y"))

    def names_all(self) -> str:
        """Every side in a sentence: "Ana y Carla contra Bruno y Diego" in pairs, "Ana,
        Bruno y Carla" each for himself."""
        if self.individual:
            return join_words(list(self.players))
        return _("%(a)s contra %(b)s") % {"a": self.names("A"), "b": self.names("B")}

    def label(self, side: str) -> str:
        """A side on a button: the names joined short, "Ana·Carla" (or "Ana")."""
        return "·".join(self.players[seat] for seat in self.seats(side))

    def zero(self) -> dict[str, int]:
        """Every side at 0: the score a juego starts from."""
        return dict.fromkeys(self.letters, 0)


def join_words(words: Sequence[str]) -> str:
    """Words in a sentence's list: "grande, chica y pares"."""
    return get_text_list(list(words), _("y"))
