"""The board's presentation helpers: amarracos, dentro, postre, the chart, the recuento words."""

from __future__ import annotations

import itertools

import pytest
from django.utils import translation

from muscore import rules
from muscore.handentry.words import side_names
from muscore.tables import board

NAMES = ["Ana", "Bruno", "Carla", "Diego"]


@pytest.fixture(autouse=True)
def spanish():
    # The words are the table's, in Spanish unless a request asks otherwise; a test
    # that switched the language in this thread must not leak into these.
    with translation.override("es"):
        yield
CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def make_result(**record: object) -> dict:
    return rules.score({"hands": dict(CARDS), **record})


@pytest.mark.parametrize(
    ("points", "amarracos", "piedras"),
    [(0, 0, 0), (4, 0, 4), (5, 1, 0), (17, 3, 2), (39, 7, 4), (40, 8, 0)],
)
def test_piedras_read_as_amarracos_and_loose_piedras(points, amarracos, piedras):
    shown = board.piedras(points)
    assert (shown["amarracos"], shown["piedras"], shown["points"]) == (amarracos, piedras, points)
    assert len(shown["amarraco_range"]) == amarracos and len(shown["piedra_range"]) == piedras


@pytest.mark.parametrize(
    ("points", "target", "dentro"),
    [(34, 40, False), (35, 40, False), (36, 40, True), (39, 40, True), (40, 40, False),
     (26, 30, True), (25, 30, False), (31, 35, True), (30, 35, False)],
)
def test_dentro_when_fewer_than_five_piedras_are_missing(points, target, dentro):
    assert board.is_dentro(points, target) is dentro


def test_the_postre_sits_on_the_manos_left():
    assert board.postre(0, 4) == 3
    assert board.postre(2, 4) == 1
    assert board.postre(0, 6) == 5


def test_side_names_join_partners_in_seat_order():
    assert side_names(NAMES, "A") == "Ana y Carla"
    assert side_names([*NAMES, "Eva", "Fede"], "B") == "Bruno, Diego y Fede"


def test_chart_starts_at_zero_and_ends_at_the_last_score():
    chart = board.chart([{"A": 10, "B": 0}, {"A": 20, "B": 40}], 40)
    a_points = chart["a"].split()
    b_points = chart["b"].split()
    assert len(a_points) == 3 and len(b_points) == 3
    # y grows downwards: 0 piedras at the bottom, the target at the top.
    assert float(a_points[0].split(",")[1]) > float(a_points[1].split(",")[1])
    assert b_points[-1].split(",")[1] == str(chart["target_y"])
    assert chart["hands"] == 2


def test_chart_counts_hands_not_entries():
    """22 hands and 14 piedras taps (issue 30.6): the axis reads 1 to 22, a tap moves the
    score where the last hand stands, and no two labels overlap ("35" over "36")."""
    scores, dealt = [], []
    a = b = 0
    for i in range(36):
        tapped = i % 5 in (1, 3) and len(dealt) - sum(dealt) < 14
        a, b = (a + 1, b) if i % 2 else (a, b + 1)
        scores.append({"A": a, "B": b})
        dealt.append(not tapped)
    assert sum(dealt) == 22
    chart = board.chart(scores, 40, dealt=dealt)
    assert chart["hands"] == 22
    numbers = [t["n"] for t in chart["x_ticks"]]
    assert numbers[0] == 1 and numbers[-1] == 22 and max(numbers) == 22
    xs = [t["x"] for t in chart["x_ticks"]]
    assert all(later - earlier >= board.CHART_TICK_GAP for earlier, later in itertools.pairwise(xs))
    assert xs[-1] == chart["right"] == chart["a_end"]["x"]
    points = [float(p.split(",")[0]) for p in chart["a"].split()]
    assert len(points) == 37 and points == sorted(points)
    # Each tap is drawn at its hand's place: 14 entries share an x with the one before.
    assert sum(1 for x0, x1 in itertools.pairwise(points) if x0 == x1) == 14
    # Without the flags every entry is a hand: 36 entries, labelled up to 36, "35" dropped.
    plain = board.chart(scores, 40)
    assert plain["hands"] == 36
    assert [t["n"] for t in plain["x_ticks"]][-2:] == [30, 36]


def test_recuento_words_follow_the_issue_example():
    # A 38, B 35; A wins grande and chica en paso: the count stops at 40.
    result = rules.score(
        {"score": {"A": 38, "B": 35}, "hands": {"0": "R R R 7", "1": "4 4 5 5",
                                                "2": "1 1 4 5", "3": "6 6 7 7"}}
    )
    lines = board.recuento_lines(result, NAMES)
    assert lines[0] == "Grande: Ana y Carla +1, 39."
    assert lines[1] == "Chica: Ana y Carla +1, 40: ganan el juego."
    assert lines[2] == "Pares y juego no se cuentan."


def test_recuento_names_a_side_again_when_it_changes():
    lines = board.recuento_lines(make_result(), NAMES)
    assert lines[0].startswith("Grande: Ana y Carla +1")
    assert any("Bruno y Diego" in line for line in lines[1:])


def test_recuento_of_a_deje_that_ends_the_juego_says_the_rest_is_not_played():
    result = make_result(
        score={"A": 39, "B": 0},
        lances={"grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}},
    )
    lines = board.recuento_lines(result, NAMES)
    assert lines[0] == "Grande: deje, Ana y Carla +1, 40: ganan el juego."
    assert lines[-1].endswith("no se juegan.")
    assert lines[-1].startswith("Chica, pares")


def test_recuento_of_an_accepted_ordago_names_who_wins_it():
    result = make_result(lances={"grande": {"bets": [{"side": "B", "n": "ordago"}],
                                            "end": "quiero"}})
    lines = board.recuento_lines(result, NAMES)
    assert any("Órdago a grande querido: lo ganan Ana y Carla" in line for line in lines)


def make_state(hands, *, winner=None, juegos=None, finished=()):
    return {
        "id": "t",
        "players": NAMES,
        "rules": {"players": 4, "reyes": 8, "target": 40, "juegos": 2, "real31": "no"},
        "current": {
            "hands": hands,
            "juegos": juegos or {"A": 0, "B": 0},
            "winner": winner,
            "score": hands[-1]["score"] if hands else {"A": 0, "B": 0},
            "next_mano": len(hands) % 4,
            "first_hand": 1,
            "mano": 0,
        },
        "finished": list(finished),
        "revision": 1,
    }


def make_hand(juego, a, b, winner=None, mano=0):
    return {"mano": mano, "juego": juego, "score": {"A": a, "B": b}, "winner": winner,
            "result": make_result()}


def test_board_shows_the_current_juego_and_who_deals_next():
    state = make_state([make_hand(1, 17, 36), make_hand(1, 20, 37, mano=1)])
    shown = board.board(state)
    a, b = shown["sides"]
    assert a["piedras"]["amarracos"] == 4 and a["piedras"]["piedras"] == 0
    assert b["dentro"] and not a["dentro"]
    assert shown["mano"]["name"] == "Carla"  # next_mano 2
    assert shown["postre"]["name"] == "Bruno"
    assert shown["last_hand"]["number"] == 2
    assert shown["chart"]["hands"] == 2


def test_board_after_a_juego_is_won_starts_the_next_at_zero():
    state = make_state([make_hand(1, 40, 12, winner="A")], juegos={"A": 1, "B": 0})
    shown = board.board(state)
    assert shown["juego"]["number"] == 2
    assert [s["piedras"]["points"] for s in shown["sides"]] == [0, 0]
    assert shown["sides"][0]["juegos_marks"] == [True, False]
    assert shown["juegos_results"][0]["names"] == "Ana y Carla"


def test_history_lists_newest_first_with_recuento():
    state = make_state([make_hand(1, 2, 8), make_hand(1, 4, 16, mano=1)])
    listed = board.history(state)
    assert [h["number"] for h in listed] == [2, 1]
    assert listed[0]["mano"] == "Bruno"
    assert listed[0]["lines"]
