"""What holds a club's pair outside the club (issue 27): a championship's draw placed it
(its heat's or its phase's pair). Such a pair's players and name are its entry's: the club's
own doors (the pair's form, retiring it) refuse to change it, naming what holds it.

The apps above the clubs register an answer (``muscore.championships`` in its
``AppConfig.ready``): the clubs do not import them.
"""

from __future__ import annotations

from collections.abc import Callable

from muscore.clubs.models import Pair

Holder = Callable[[Pair], list[str]]

_holders: dict[str, Holder] = {}


def register(name: str, holder: Holder) -> None:
    """Register (or replace, by ``name``) an answer to "what holds this pair?"."""
    _holders[name] = holder


def of_pair(pair: Pair) -> list[str]:
    """What holds ``pair``, named for people ([] for a pair of the club's own)."""
    if pair.pk is None:
        return []
    return [name for holder in _holders.values() for name in holder(pair)]
