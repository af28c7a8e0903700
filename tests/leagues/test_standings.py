"""Standings on hand-made leagues: every tie-break, forfeits, vaca results, substitutes."""

from __future__ import annotations

from typing import Any

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


def test_head_to_head_is_computed_once_for_all_the_level_pairs() -> None:
    # A, B, C, D (P0..P3) all on 4 points. Their mini-league gives A and D 4, B and C 2.
    # D beat A and B beat C, but head to head is not repeated for the smaller groups:
    # A above D and C above B on juego difference.
    doc = league(6, [
        won(0, 1, 3, 0), won(0, 2, 3, 0), won(3, 0, 3, 2), won(1, 2, 3, 2),
        won(3, 1, 3, 2), won(2, 3, 3, 0), won(1, 4, 3, 2), won(2, 5, 3, 0),
    ])
    rows = standings(read_league(doc))
    assert [(r.name, r.points, r.head_to_head, r.juego_difference, r.decided_by)
            for r in rows] == [
        ("P0", 4, 4, 5, None), ("P3", 4, 4, -1, "juego_difference"),
        ("P2", 4, 2, 2, "head_to_head"), ("P1", 4, 2, -2, "juego_difference"),
        ("P4", 0, 0, -1, "points"), ("P5", 0, 0, -3, "juego_difference"),
    ]


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
