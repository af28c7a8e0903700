"""Fixtures: the circle method for 2 to 30 pairs, one and two legs."""

from __future__ import annotations

from collections import Counter

import pytest

from muscore.leagues import LeagueError, fixtures, fixtures_json


@pytest.mark.parametrize("legs", [1, 2])
@pytest.mark.parametrize("count", range(2, 31))
def test_round_robin(count: int, legs: int) -> None:
    rounds = fixtures(count, legs)
    per_leg = count if count % 2 else count - 1
    assert len(rounds) == per_leg * legs
    meetings: Counter[tuple[int, int]] = Counter()
    rests: list[int] = []
    for r in rounds:
        seen = [pair for match in r.matches for pair in match]
        seen += list(r.bye)
        # Every pair exactly once in each round: playing or resting, never twice.
        assert sorted(seen) == list(range(count))
        # As full as the count allows: one resting pair when odd, none when even.
        assert len(r.bye) == count % 2
        rests += list(r.bye)
        for first, second in r.matches:
            assert first != second
            meetings[(min(first, second), max(first, second))] += 1
    assert set(meetings) == {(a, b) for a in range(count) for b in range(a + 1, count)}
    assert set(meetings.values()) == {legs}
    # No pair rests twice before all have rested once.
    for start in range(0, len(rests), count):
        block = rests[start:start + count]
        assert len(set(block)) == len(block)
    # The second leg repeats the first in the same order.
    if legs == 2:
        assert rounds[per_leg:] == rounds[:per_leg]


def test_the_contract_example() -> None:
    rounds = fixtures_json({"pairs": 5, "legs": 1})["rounds"]
    assert rounds[0] == {"matches": [[0, 4], [1, 3]], "bye": [2]}
    assert len(rounds) == 5


def test_a_league_document_gives_its_fixtures() -> None:
    doc = {"pairs": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "legs": 2}
    assert len(fixtures_json(doc)["rounds"]) == 6


@pytest.mark.parametrize("request_", [
    {"pairs": 1}, {"pairs": 0}, {"pairs": "4"}, {"pairs": 4, "legs": 3}, {"pairs": 5000}, [],
])
def test_bad_requests(request_: object) -> None:
    with pytest.raises(LeagueError):
        fixtures_json(request_)
