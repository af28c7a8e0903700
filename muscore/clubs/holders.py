"""What holds a club's pair outside the club (issue 27): a championship's draw placed it
(its heat's or its phase's pair). Such a pair's players and name are its entry's: the club's
own doors (the pair's form, retiring it) refuse to change it, naming what holds it.

What placed it writes its name on the pair when it makes it (``Pair.placed_by``: the
championships, muscore.championships.pairs), so the clubs read it from their own rows
and never ask the apps above them.
"""

from __future__ import annotations

from muscore.clubs.models import Pair


def of_pair(pair: Pair) -> list[str]:
    """What holds ``pair``, named for people ([] for a pair of the club's own)."""
    return [pair.placed_by] if pair.pk is not None and pair.placed_by else []
