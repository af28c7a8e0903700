"""The league reader's quick way through a document's usual matches (round, pairs, juegos,
tantos) reads exactly what read_match reads, and leaves every other match to it: an
import reads 39,800 matches in its request (issue 28: every request under 2 s)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.leagues.compute import document
from muscore.leagues.compute.document import Pair, _plain_match, read_league, read_match
from muscore.leagues.compute.errors import LeagueError
from muscore.rules import Rules
from tests.examples import examples

PAIRS = tuple(Pair(f"Pareja {n}", (f"A{n}", f"B{n}")) for n in range(4))
counts = st.integers(-2, 6) | st.sampled_from([document.MAX_TANTOS, document.MAX_TANTOS + 1])
values = (st.none() | st.booleans() | counts | st.floats(allow_nan=False) | st.text(max_size=2)
          | st.lists(counts, max_size=3) | st.lists(st.booleans(), max_size=2))
keys = st.sampled_from(["round", "pairs", "juegos", "tantos", "players", "forfeit", "other"])
matches = st.dictionaries(keys, values, max_size=5) | st.fixed_dictionaries(
    {"round": st.integers(0, 3) | st.just(document.MAX_ROUND + 1),
     "pairs": st.lists(st.integers(-1, 4), min_size=2, max_size=2)},
    optional={"juegos": st.lists(st.integers(-1, 4), min_size=2, max_size=2),
              "tantos": st.lists(counts, min_size=2, max_size=2)}) | values


def slow(raw: Any, rules: Rules) -> Any:
    try:
        return read_match(raw, 1, PAIRS, rules)
    except LeagueError as error:
        return error.code


@settings(max_examples=examples(2000), deadline=None)
@given(matches, st.sampled_from([2, 3, 4]))
def test_the_quick_read_is_read_match_or_leaves_it_to_read_match(raw: Any, juegos: int) -> None:
    rules = Rules(juegos=juegos)
    quick = _plain_match(raw, len(PAIRS), rules)
    if quick is not None:
        assert quick == slow(raw, rules)


def test_the_usual_matches_take_the_quick_way() -> None:
    rules = Rules(juegos=3)
    for raw in ({"round": 1, "pairs": [0, 1], "juegos": [3, 1], "tantos": [120, 80]},
                {"pairs": [2, 3], "juegos": [0, 3]}, {"round": 2, "pairs": [1, 0]}):
        quick = _plain_match(raw, len(PAIRS), rules)
        assert quick is not None and quick == read_match(raw, 1, PAIRS, rules)


def test_a_document_is_refused_as_before_whichever_way_its_matches_are_read() -> None:
    base = {"name": "Liga", "pairs": [p.to_json() for p in PAIRS],
            "matches": [{"round": 1, "pairs": [0, 1], "juegos": [3, 1]}]}
    for bad, code in (({"round": 1, "pairs": [0, 0], "juegos": [3, 1]}, "plays_itself"),
                      ({"round": 1, "pairs": [0, 9], "juegos": [3, 1]}, "unknown_pair"),
                      ({"round": 1, "pairs": [0, 1], "juegos": [2, 1]}, "juegos_end"),
                      ({"round": 1, "pairs": [0, 1], "tantos": [2, 1]}, "tantos_alone")):
        try:
            read_league({**base, "matches": [*base["matches"], bad]})
        except LeagueError as error:
            assert error.code == code
        else:
            raise AssertionError(f"{bad} was read")
