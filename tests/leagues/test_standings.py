"""Standings on hand-made leagues: every tie-break, forfeits, vaca results, substitutes."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.leagues import read_league, standings, standings_json

from .helpers import VACA_A_3_1, league, won


def order(doc: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(row.name, row.decided_by) for row in standings(read_league(doc))]


def test_points_first() -> None:
    doc = league(3, [won(0, 1, 3, 0), won(2, 0, 3, 2), won(2, 1, 3, 1)])
    assert order(doc) == [("P2", None), ("P0", "points"), ("P1", "points")]


def test_two_way_tie_head_to_head_beats_juego_difference() -> None:
    doc = league(4, [
        won(0, 1, 3, 2), won(0, 2, 2, 3), won(0, 3, 3, 2),
        won(1, 2, 3, 0), won(1, 3, 3, 0), won(3, 2, 3, 0),
    ])
    rows = standings(read_league(doc))
    assert [(r.name, r.points, r.decided_by) for r in rows] == [
        ("P0", 4, None), ("P1", 4, "head_to_head"), ("P3", 2, "points"),
        ("P2", 2, "head_to_head"),
    ]
    # P1 has the better juego difference (+5 against +1): head to head comes first.
    assert rows[1].juego_difference == 5 and rows[0].juego_difference == 1


def test_three_way_cycle_goes_to_juego_difference_then_juegos_for() -> None:
    doc = league(4, [won(0, 1, 3, 0), won(1, 2, 3, 1), won(2, 0, 3, 2)])
    rows = standings(read_league(doc))
    assert [(r.name, r.head_to_head, r.juego_difference, r.juegos_for, r.decided_by)
            for r in rows] == [
        ("P0", 2, 2, 5, None), ("P2", 2, -1, 4, "juego_difference"),
        ("P1", 2, -1, 3, "juegos_for"), ("P3", 0, 0, 0, "points"),
    ]


def test_head_to_head_is_applied_again_among_the_smaller_groups_still_level() -> None:
    # A, B, C, D (P0..P3) all on 4 points. Their mini-league gives A and D 4, B and C 2.
    # D beat A and B beat C: head to head again among {A, D}, then among {B, C}, puts D
    # above A and B above C (league.md criterion 2), whatever the juego difference says.
    doc = league(6, [
        won(0, 1, 3, 0), won(0, 2, 3, 0), won(3, 0, 3, 2), won(1, 2, 3, 2),
        won(3, 1, 3, 2), won(2, 3, 3, 0), won(1, 4, 3, 2), won(2, 5, 3, 0),
    ])
    rows = standings(read_league(doc))
    assert [(r.name, r.points, r.head_to_head_rounds, r.juego_difference, r.decided_by)
            for r in rows] == [
        ("P3", 4, (4, 2), -1, None), ("P0", 4, (4, 0), 5, "head_to_head"),
        ("P1", 4, (2, 2), -2, "head_to_head"), ("P2", 4, (2, 0), 2, "head_to_head"),
        ("P4", 0, (0,), -1, "points"), ("P5", 0, (0,), -3, "juego_difference"),
    ]
    # Among whom each was decided: P0 and P2 in the second mini-league of two, P1 in
    # the first, of all four.
    by_name = {r.name: r for r in rows}
    assert by_name["P0"].head_to_head_decider(by_name["P3"]) == (1, (0, 3))
    assert by_name["P1"].head_to_head_decider(by_name["P0"]) == (0, (0, 1, 2, 3))
    assert by_name["P2"].head_to_head_decider(by_name["P1"]) == (1, (1, 2))


# Hand-worked cases of criterion 2, each: the matches, then the order with what decided
# each place. Pairs P0..P4 (P3 and P4 are outsiders that only give points).
HEAD_TO_HEAD_CASES = [
    pytest.param(
        # P0, P1, P2 on 2 points. Mini-league of three: P0 beat P1 (2), P1 beat P2 (2),
        # P0-P2 not played yet: P0 2, P1 2, P2 0. Again among P0 and P1: P0 beat P1.
        # (P1's juego difference, +2 against +1, would have put it first.)
        [won(0, 1, 3, 2), won(1, 2, 3, 0), won(2, 3, 3, 0)],
        [("P0", None), ("P1", "head_to_head"), ("P2", "head_to_head"), ("P4", "points"),
         ("P3", "juego_difference")],
        id="three-level-mini-league-leaves-two-the-one-that-beat-the-other-first",
    ),
    pytest.param(
        # A cycle among three: each 2 in the mini-league, none separated, so head to head
        # is not re-applied (it would give the same) and juego difference decides.
        [won(0, 1, 3, 0), won(1, 2, 3, 1), won(2, 0, 3, 2)],
        [("P0", None), ("P2", "juego_difference"), ("P1", "juegos_for"), ("P3", "points"),
         ("P4", "draw")],
        id="a-cycle-goes-to-juego-difference",
    ),
    pytest.param(
        # P0, P1, P2 on 2 points; P0 beat P2, P1 beat an outsider, P2 beat an outsider.
        # Mini-league: P0 2, P1 0, P2 0. Among P1 and P2 (they have not met): 0 each, so
        # juego difference (P2 +1, P1 +3) decides between them.
        [won(0, 2, 3, 1), won(1, 3, 3, 0), won(2, 4, 3, 1)],
        [("P0", None), ("P1", "head_to_head"), ("P2", "juego_difference"),
         ("P4", "points"), ("P3", "juego_difference")],
        id="two-left-level-who-never-met-go-to-juego-difference",
    ),
    pytest.param(
        # Two legs: P0 and P1 level on 4 points, one win each against the other: their
        # mini-league is 2-2 and juego difference decides.
        [won(0, 1, 3, 0), won(1, 0, 3, 2), won(0, 3, 3, 0), won(1, 4, 3, 0)],
        [("P0", None), ("P1", "juego_difference"), ("P2", "points"),
         ("P3", "juego_difference"), ("P4", "draw")],
        id="ida-y-vuelta-split-goes-to-juego-difference",
    ),
]


@pytest.mark.parametrize(("matches", "expected"), HEAD_TO_HEAD_CASES)
def test_head_to_head_cases(matches: list[dict[str, Any]],
                            expected: list[tuple[str, str | None]]) -> None:
    assert order(league(5, matches, legs=2)) == expected


def test_the_command_line_follows_head_to_head_again(tmp_path: Any) -> None:
    """``python -m muscore.leagues standings`` gives the re-applied order."""
    import json
    import subprocess
    import sys

    doc = league(5, [won(0, 1, 3, 2), won(1, 2, 3, 0), won(2, 3, 3, 0)])
    out = subprocess.run([sys.executable, "-m", "muscore.leagues", "standings"],
                         input=json.dumps(doc), capture_output=True, text=True, check=True)
    assert [row["name"] for row in json.loads(out.stdout)["standings"]] == [
        "P0", "P1", "P2", "P4", "P3"]


def test_juegos_for_after_equal_juego_difference() -> None:
    doc = league(6, [won(0, 2, 3, 1), won(4, 0, 3, 1), won(1, 3, 3, 0), won(5, 1, 3, 0)])
    assert order(doc) == [
        ("P5", None), ("P4", "juego_difference"), ("P0", "head_to_head"),
        ("P1", "juegos_for"), ("P2", "points"), ("P3", "juego_difference"),
    ]


def test_tanto_difference() -> None:
    doc = league(4, [won(0, 2, 3, 1, 150, 100), won(1, 3, 3, 1, 140, 120)], draw=[1, 0, 3, 2])
    rows = standings(read_league(doc))
    assert [(r.name, r.tanto_difference, r.decided_by) for r in rows] == [
        ("P0", 50, None), ("P1", 20, "tanto_difference"), ("P3", -20, "points"),
        ("P2", -50, "tanto_difference"),
    ]


def test_the_draw_last() -> None:
    doc = league(4, [won(0, 2, 3, 1, 150, 100), won(1, 3, 3, 1, 150, 100)], draw=[1, 0, 3, 2])
    assert order(doc) == [("P1", None), ("P0", "draw"), ("P3", "points"), ("P2", "draw")]
    assert order(league(3, [], draw=[2, 0, 1])) == [("P2", None), ("P0", "draw"),
                                                     ("P1", "draw")]


def test_unplayed_matches_count_nowhere() -> None:
    doc = league(2, [{"round": 1, "pairs": [0, 1]}])
    rows = standings_json(read_league(doc))["standings"]
    assert rows == [
        {"position": 1, "pair": 0, "name": "P0", "played": 0, "won": 0, "lost": 0,
         "forfeits": 0, "points": 0, "juegos_for": 0, "juegos_against": 0, "tantos_for": 0,
         "tantos_against": 0},
        {"position": 2, "pair": 1, "name": "P1", "played": 0, "won": 0, "lost": 0,
         "forfeits": 0, "points": 0, "juegos_for": 0, "juegos_against": 0, "tantos_for": 0,
         "tantos_against": 0},
    ]


def test_forfeit_of_one_pair() -> None:
    doc = league(3, [{"pairs": [0, 1], "forfeit": 1}, won(2, 1, 3, 2, 130, 111)],
                 points={"win": 3, "loss": 1, "forfeit": -1}, rules={"target": 30})
    rows = {r["name"]: r for r in standings_json(read_league(doc))["standings"]}
    assert rows["P0"] == {"position": 1, "pair": 0, "name": "P0", "played": 1, "won": 1,
                          "lost": 0, "forfeits": 0, "points": 3, "juegos_for": 3,
                          "juegos_against": 0, "tantos_for": 90, "tantos_against": 0}
    assert rows["P1"] == {"position": 3, "pair": 1, "name": "P1", "played": 2, "won": 0,
                          "lost": 2, "forfeits": 1, "points": 0, "juegos_for": 2,
                          "juegos_against": 6, "tantos_for": 111, "tantos_against": 220}
    assert rows["P2"]["points"] == 3 and rows["P2"]["position"] == 2


def test_forfeit_of_both_pairs() -> None:
    doc = league(3, [{"pairs": [0, 1], "forfeit": "both"}, won(0, 2, 3, 0)])
    rows = {r["name"]: r for r in standings_json(read_league(doc))["standings"]}
    for name in ("P0", "P1"):
        assert rows[name]["forfeits"] == 1 and rows[name]["lost"] >= 1
    assert rows["P1"] == {"position": 2, "pair": 1, "name": "P1", "played": 1, "won": 0,
                          "lost": 1, "forfeits": 1, "points": 0, "juegos_for": 0,
                          "juegos_against": 0, "tantos_for": 0, "tantos_against": 0}
    assert rows["P0"]["played"] == 2 and rows["P0"]["won"] == 1 and rows["P0"]["points"] == 2
    assert rows["P0"]["juegos_for"] == 3 and rows["P0"]["juegos_against"] == 0


def test_vaca_result() -> None:
    doc = league(3, [{"round": 1, "pairs": [2, 0], "vaca": VACA_A_3_1}])
    rows = {r["name"]: r for r in standings_json(read_league(doc))["standings"]}
    # The first pair sits at seats 0 and 2 (side A): 3 juegos to 1, 120 tantos to 56.
    assert (rows["P2"]["won"], rows["P2"]["juegos_for"], rows["P2"]["juegos_against"],
            rows["P2"]["tantos_for"], rows["P2"]["tantos_against"]) == (1, 3, 1, 120, 56)
    assert (rows["P0"]["lost"], rows["P0"]["tantos_for"]) == (1, 56)


def test_substitutes_do_not_change_the_standings() -> None:
    plain = league(2, [won(0, 1, 3, 1)])
    with_sub = league(2, [{**won(0, 1, 3, 1), "players": [["p0-a", "Iñaki"], None]}])
    assert standings_json(read_league(plain)) == standings_json(read_league(with_sub))


def test_example_of_the_contract() -> None:
    doc = {
        "name": "Liga de invierno",
        "rules": {"reyes": 8, "target": 40, "juegos": 3},
        "points": {"win": 2, "loss": 0, "forfeit": 0},
        "legs": 1,
        "draw": [2, 0, 1, 3],
        "pairs": [
            {"name": "Ana y Bea", "players": ["Ana", "Bea"]},
            {"name": "Carlos y Dani", "players": ["Carlos", "Dani"]},
            {"name": "Eva y Fermín", "players": ["Eva", "Fermín"]},
            {"name": "Gorka y Hugo", "players": ["Gorka", "Hugo"]},
        ],
        "matches": [
            {"round": 1, "pairs": [0, 3], "juegos": [3, 1], "tantos": [150, 97]},
            {"round": 1, "pairs": [1, 2], "vaca": VACA_A_3_1},
            {"round": 2, "pairs": [0, 1], "forfeit": 1},
            {"round": 2, "pairs": [2, 3], "players": [["Eva", "Iñaki"], None]},
            {"round": 3, "pairs": [0, 2]},
        ],
    }
    rows = standings_json(read_league(doc))["standings"]
    assert [(r["name"], r["points"]) for r in rows] == [
        ("Ana y Bea", 4), ("Carlos y Dani", 2), ("Gorka y Hugo", 0), ("Eva y Fermín", 0)]
    # Eva y Fermín and Gorka y Hugo: level on points, never met, juego difference -2 each,
    # juegos for 1 each, tanto difference -64 and -53: Gorka y Hugo above.
    assert rows[2]["tantos_for"] == 97 and rows[3]["tantos_for"] == 56
    assert [r["position"] for r in rows] == [1, 2, 3, 4]
