"""The game's words and the sides, as every screen of a hand says them.

The game's words stay Spanish in English (issue 3, point 6) and are the Basque tables'
own in Basque (handia, txikia...): the catalogues say which.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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


def seat_label(seat: int) -> str:
    """A seat named by its side and its place in the side: A1, B1, A2, B2 (A3, B3)."""
    return f"{side_of(seat)}{seat // 2 + 1}"


def default_names(players: int) -> list[str]:
    """The names of a table whose players gave none: each seat's :func:`seat_label`."""
    return [seat_label(seat) for seat in range(players)]


def side_names(players: Sequence[str], side: str) -> str:
    """'Ana y Carla': how a table names a partnership."""
    names = [players[seat] for seat in side_seats(side, len(players))]
    return get_text_list(names, _("y"))


def join_words(words: Sequence[str]) -> str:
    """Words in a sentence's list: "grande, chica y pares"."""
    return get_text_list(list(words), _("y"))
