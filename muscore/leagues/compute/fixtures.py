"""Fixtures of a liguilla (league.md, "Fixtures"): the circle method.

With an odd count the pairs stand round a circle: each round the one at the top rests
(*exenta*) and the others play across; turning the circle one place gives the next
round, so every two pairs meet exactly once and every pair rests exactly once. With an
even count the last pair stays in the middle and plays the one that would have rested.
A second leg repeats the first in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from muscore.leagues.compute.document import MAX_PAIRS, read_legs, show
from muscore.leagues.compute.errors import FIXTURES, LeagueError


@dataclass(frozen=True)
class Round:
    """One round: its matches (first, second) and the pair resting, if any."""

    matches: tuple[tuple[int, int], ...]
    bye: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"matches": [list(match) for match in self.matches], "bye": list(self.bye)}


def _odd_rounds(count: int) -> list[Round]:
    """The rounds of an odd number of pairs 0..count-1: each rests once."""
    half = count // 2
    rounds = []
    for turn in range(count):
        circle = [(i + turn) % count for i in range(count)]
        matches = tuple((circle[i], circle[count - 1 - i]) for i in range(half))
        rounds.append(Round(matches, (circle[half],)))
    return rounds


def fixtures(count: int, legs: int = 1) -> list[Round]:
    """The rounds of a liguilla of ``count`` pairs (indices 0..count-1), ``legs`` 1 or 2."""
    if type(count) is not int or count < 2:
        raise LeagueError("too_few_pairs", count=show(count))
    if count > MAX_PAIRS:
        raise LeagueError("too_many_pairs", count=count, limit=MAX_PAIRS)
    legs = read_legs(legs)
    if count % 2:
        first_leg = _odd_rounds(count)
    else:
        last = count - 1
        # The pair that would rest in a circle of the others plays the one in the middle.
        first_leg = [Round(((r.bye[0], last), *r.matches)) for r in _odd_rounds(last)]
    return first_leg * legs


def fixtures_json(request: object) -> dict[str, Any]:
    """The answer to ``{"pairs": N, "legs": L}`` (or to a league document: its pairs and
    legs) as league.md writes it: ``{"rounds": [{"matches": [...], "bye": [...]}, ...]}``."""
    if not isinstance(request, Mapping):
        raise LeagueError("not_object", where=FIXTURES)
    pairs = request.get("pairs")
    if isinstance(pairs, list):
        count: object = len(pairs)
    elif type(pairs) is int:
        count = pairs
    else:
        raise LeagueError("not_a", field="pairs", where=FIXTURES, what="pairs",
                          got=show(pairs))
    assert isinstance(count, int)
    rounds = fixtures(count, request.get("legs", 1))
    return {"rounds": [r.to_json() for r in rounds]}
