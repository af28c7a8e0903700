"""A club's people found by their names as Spanish reads them.

A name typed at a table, a substitute's, an imported record's is the same person as the
club's player when the two read the same to a Spanish eye: case and accents aside (Íñigo,
ÍÑIGO and Iñigo; Álvaro and Alvaro), ñ still its own letter (Iñigo is not Inigo), spaces
as one; and whatever Unicode says reads the same (a soft hyphen, a dotless ı, fullwidth
letters, "Etxeberria, Iñaki."). The key is :func:`muscore.text.person_key` (the accents
folded as the first level of :func:`muscore.text.spanish_key` orders them), worked out in
Python: SQL's LOWER() leaves Í and Á as they are on SQLite (and lowercases them on
PostgreSQL), so a lookup in the database found a rated Íñigo on one and not on the other.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from muscore.clubs.models import Player
from muscore.text import person_key


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The key two names of one person share: :func:`muscore.text.person_key`, which
    reads them as Spanish does (case and accents aside, ñ its own letter: the first level
    of :func:`muscore.text.spanish_key`'s order) and also folds what Unicode says is the
    same to a reader (compatibility forms, invisible characters, look-alike letters of
    another alphabet, punctuation, the order of the names)."""
    return person_key(name)


def same_person(one: str, other: str) -> bool:
    return name_key(one) == name_key(other)


def player_ids(club_id: int, names: Iterable[str]) -> dict[str, int]:
    """The ids of the club's players of `names`, by each name as given (a name the club
    has no player for is left out). Two players of the club whose names share a key (the
    club's own rows: "Angel" and "Ángel" both entered): the one written exactly so (case
    aside), else the first made. One query of the club's players' names."""
    wanted = {name: name_key(name) for name in names}
    if not wanted:
        return {}
    keys = set(wanted.values())
    by_key: dict[str, list[tuple[int, str]]] = {}
    for pk, name in Player.objects.filter(club_id=club_id).order_by("pk").values_list(
            "pk", "name"):
        key = name_key(name)
        if key in keys:
            by_key.setdefault(key, []).append((pk, name))
    found: dict[str, int] = {}
    for name, key in wanted.items():
        candidates = by_key.get(key)
        if candidates:
            exact = [pk for pk, known in candidates if known.casefold() == name.casefold()]
            found[name] = (exact or [pk for pk, _known in candidates])[0]
    return found


def player_named(club_id: int, name: str) -> Player | None:
    """The club's player of `name` (:func:`player_ids`), or None."""
    pk = player_ids(club_id, [name]).get(name)
    return Player.objects.get(pk=pk) if pk is not None else None
