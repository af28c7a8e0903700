"""Which pair starts a match as mano: in turn, so every pair starts about half its matches.

The fixtures put a pair first or second as the circle turns, and a table always gave the
first pair the mano: in an 8-pair liguilla "Bar Txoko B" was second in all 7 of its matches
and never started as mano (issue 29). Here each match, in the order they are numbered,
gives the mano to whichever of its two pairs has started as mano the smaller share of its
matches so far (the first pair when they are level).

>>> mano_sides([(1, 2), (3, 2), (2, 4), (1, 3)])
[0, 1, 0, 1]

An 8-pair liguilla (the circle method's fixtures): every pair starts 2 to 5 of its 7.

>>> from muscore.leagues.compute.fixtures import fixtures
>>> matches = [m for r in fixtures(8) for m in r.matches]
>>> starts = {}
>>> for match, side in zip(matches, mano_sides(matches)):
...     starts[match[side]] = starts.get(match[side], 0) + 1
>>> len(starts), min(starts.values()), max(starts.values())
(8, 2, 5)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def mano_sides(matches: Sequence[tuple[Hashable, Hashable]]) -> list[int]:
    """For each match (first pair, second pair) in order, 0 when the first pair starts as
    mano, 1 when the second does: the pair that has started as mano the smaller share of
    its matches so far (twice its mano starts less its matches), the first when level
    (a match with an unknown pair, None, gives it the first)."""
    started: dict[Hashable, int] = {}
    played: dict[Hashable, int] = {}

    def lag(pair: Hashable) -> int:
        return 2 * started.get(pair, 0) - played.get(pair, 0)

    sides = []
    for first, second in matches:
        side = 1 if first is not None and second is not None and lag(second) < lag(first) \
            else 0
        for pair in (first, second):
            if pair is not None:
                played[pair] = played.get(pair, 0) + 1
        chosen = (first, second)[side]
        if chosen is not None:
            started[chosen] = started.get(chosen, 0) + 1
        sides.append(side)
    return sides
