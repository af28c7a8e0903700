"""Reading league documents: the contract's errors, each clear, and the normal form."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from muscore.leagues import LeagueError, read_league

from .helpers import ORDAGO_A, PLAIN, VACA_A_3_1, league, won


def error(doc: Any) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        read_league(doc)
    return caught.value


@pytest.mark.parametrize(("doc", "code", "words"), [
    (league(3, [{"pairs": [0, 3], "juegos": [3, 0]}]), "unknown_pair", "no pair 3"),
    (league(3, [{"pairs": [0, -1]}]), "unknown_pair", "no pair -1"),
    (league(3, [{"pairs": [1, 1]}]), "plays_itself", "cannot play itself"),
    (league(3, [{"pairs": [0, 1], "vaca": {"mano": 0, "hands": [PLAIN, ORDAGO_A]}}]),
     "vaca_unfinished", "not finished (juegos 1-0; 3 win it)"),
    (league(3, [{"pairs": [0, 1], "vaca": {"mano": 0, "hands": [{"hands": {"0": "R"}}]}}]),
     "vaca_invalid", "cannot be replayed"),
    (league(3, [won(0, 1, 2, 1)]), "juegos_end", "do not end the match"),
    (league(3, [won(0, 1, 3, 3)]), "juegos_end", "do not end the match"),
    (league(3, [won(0, 1, 4, 1)]), "juegos_end", "exactly 3"),
    ({"pairs": league(2, [])["pairs"]}, "name_missing", "the league needs a name"),
    ({**league(2, []), "name": "  "}, "name_missing", "needs a name"),
    ({**league(2, []), "pairs": [{"players": ["a", "b"]}, {"name": "X", "players": ["c", "d"]}]},
     "name_missing", "Pair 0 needs a name"),
    (league(2, [won(0, 1, 3, 0), won(1, 0, 3, 2)]), "meets_too_often", "meet 2 times"),
    (league(2, [won(0, 1, 3, 0), won(1, 0, 3, 2), {"pairs": [0, 1]}], legs=2),
     "meets_too_often", "meet 3 times"),
    (league(2, [{"pairs": [0, 1], "forfeit": 2}]), "forfeit_pair", "did not show up"),
    (league(2, [{"pairs": [0, 1], "juegos": [3, 0], "forfeit": 1}]), "two_results", "more than"),
    (league(2, [{"pairs": [0, 1], "tantos": [3, 0]}]), "tantos_alone", "no juegos"),
    (league(2, [], legs=3), "legs", "ida y vuelta"),
    (league(2, [], draw=[0, 0]), "draw", "0 appears 2 times"),
    (league(2, [], draw=[0]), "draw", "1 is missing"),
    (league(2, [], rules={"juegos": 9}), "rules", "juegos"),
    (league(1, []), "too_few_pairs", "at least 2"),
    ({**league(2, []), "pairs": [{"name": "A", "players": ["a"]},
                                 {"name": "B", "players": ["b", "c"]}]},
     "players_count", "has 1 players"),
    (league(2, [{"pairs": [0, 1], "juegos": [3, 0], "players": [["p1-a", "x"], None]}]),
     "player_both_sides", "both pairs"),
    (league(2, [{"pairs": [0, 1], "vaca": {**VACA_A_3_1, "rules": {"juegos": 3}}}]),
     "vaca_rules", "league's rules"),
    (league(2, [{"pairs": [0, 1], "forfiet": 1}]), "unknown_key", "forfiet"),
    ([], "not_object", "must be a JSON object"),
])
def test_errors(doc: Any, code: str, words: str) -> None:
    problem = error(doc)
    assert problem.code == code
    assert words in str(problem)
    # Every message is worded in each of the app's languages: tests/leagues/test_messages.py.


def test_defaults() -> None:
    doc = read_league(league(2, []))
    assert doc.rules.juegos == 3 and doc.rules.target == 40
    assert (doc.points.win, doc.points.loss, doc.points.forfeit) == (2, 0, 0)
    assert doc.legs == 1 and doc.draw == (0, 1)


def test_normal_form_round_trip() -> None:
    doc = league(4, [
        {"round": 1, "pairs": [0, 1], "juegos": [3, 2], "tantos": [140, 130]},
        {"round": 1, "pairs": [2, 3], "vaca": VACA_A_3_1, "players": [None, ["z", "p3-b"]]},
        {"round": 2, "pairs": [0, 2], "forfeit": 2},
        {"round": 2, "pairs": [1, 3], "forfeit": "both"},
        {"round": 3, "pairs": [0, 3], "juegos": [0, 3]},
        {"round": 3, "pairs": [1, 2]},
    ], draw=[3, 1, 0, 2], points={"win": 3})
    original = copy.deepcopy(doc)
    written = read_league(doc).to_json()
    assert doc == original
    assert read_league(written).to_json() == written
    assert written["matches"][1]["vaca"] == VACA_A_3_1
    assert written["matches"] == doc["matches"]
    assert written["points"] == {"win": 3, "loss": 0, "forfeit": 0}
    assert written["rules"]["juegos"] == 3


def test_six_player_league() -> None:
    doc = {"name": "Seis", "rules": {"players": 6},
           "pairs": [{"name": "A", "players": ["a", "b", "c"]},
                     {"name": "B", "players": ["d", "e", "f"]}],
           "matches": [won(0, 1, 3, 2)]}
    assert read_league(doc).matches[0].result is not None
    doc["pairs"][0]["players"] = ["a", "b"]
    assert error(doc).code == "players_count"
