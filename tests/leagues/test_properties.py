"""Properties: the order of the matches and the names of the pairs never change the standings."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muscore import text
from muscore.leagues import read_league, standings_json
from tests.examples import examples

RESULTS = [("juegos", (3, 0)), ("juegos", (3, 1)), ("juegos", (3, 2)), ("juegos", (0, 3)),
           ("juegos", (1, 3)), ("juegos", (2, 3)), ("forfeit", 0), ("forfeit", 1),
           ("forfeit", "both"), ("none", None)]


def shows(name: str) -> bool:
    """A name a league accepts: text a page shows (muscore.text), not only blanks."""
    return bool(name.strip()) and not text.problem(name) and not text.is_invisible(name) and (
        not text.has_bidi_control(name))


@st.composite
def leagues(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(2, 7))
    legs = draw(st.sampled_from([1, 2]))
    matches = []
    for a in range(n):
        for b in range(a + 1, n):
            for _ in range(draw(st.integers(0, legs))):
                first, second = (a, b) if draw(st.booleans()) else (b, a)
                kind, value = draw(st.sampled_from(RESULTS))
                match: dict[str, Any] = {"pairs": [first, second]}
                if kind == "juegos":
                    match["juegos"] = list(value)
                    if draw(st.booleans()):
                        # Few tanto values, so that ties on everything but the draw happen.
                        match["tantos"] = [draw(st.sampled_from([120, 130])),
                                           draw(st.sampled_from([40, 60]))][:: 1 if value[0] == 3
                                                                              else -1]
                elif kind == "forfeit":
                    match["forfeit"] = value if value == "both" else (first, second)[value]
                matches.append(match)
    return {
        "name": "Liga", "legs": legs,
        "points": {"win": draw(st.integers(1, 3)), "loss": draw(st.integers(0, 1)),
                   "forfeit": draw(st.integers(-1, 0))},
        "draw": draw(st.permutations(list(range(n)))),
        "pairs": [{"name": f"P{i}", "players": [f"a{i}", f"b{i}"]} for i in range(n)],
        "matches": matches,
    }


@settings(max_examples=examples(150), deadline=None)
@given(leagues(), st.randoms(use_true_random=False))
def test_shuffling_matches_changes_nothing(doc: dict[str, Any], rng: Any) -> None:
    expected = standings_json(read_league(doc))
    shuffled = dict(doc, matches=list(doc["matches"]))
    rng.shuffle(shuffled["matches"])
    assert standings_json(read_league(shuffled)) == expected


@settings(max_examples=examples(150), deadline=None)
@given(leagues(), st.data())
def test_renaming_pairs_changes_nothing_but_the_names(doc: dict[str, Any], data: Any) -> None:
    n = len(doc["pairs"])
    new = data.draw(st.permutations(list(range(n))))  # old index -> new index
    names = data.draw(st.lists(st.text(min_size=1, max_size=8).filter(shows), min_size=n,
                               max_size=n, unique=True))
    pairs: list[Any] = [None] * n
    for old, pair in enumerate(doc["pairs"]):
        pairs[new[old]] = {"name": names[old], "players": pair["players"]}
    matches = []
    for match in doc["matches"]:
        moved = dict(match, pairs=[new[i] for i in match["pairs"]])
        if isinstance(match.get("forfeit"), int):
            moved["forfeit"] = new[match["forfeit"]]
        matches.append(moved)
    renamed = dict(doc, pairs=pairs, matches=matches, draw=[new[i] for i in doc["draw"]])
    before = standings_json(read_league(doc))["standings"]
    after = standings_json(read_league(renamed))["standings"]
    assert len(before) == len(after)
    for old_row, new_row in zip(before, after, strict=True):
        assert new_row["pair"] == new[old_row["pair"]]
        assert new_row["name"] == names[old_row["pair"]]
        assert {k: v for k, v in new_row.items() if k not in ("pair", "name")} == {
            k: v for k, v in old_row.items() if k not in ("pair", "name")}
