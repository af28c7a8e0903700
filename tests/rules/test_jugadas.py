"""Entering without cards (docs/contract.md): what the jugadas settle, and what they refuse.

"pares: the best kind wins (duples > medias > par); when the best kind is held on both
sides, the cards of those seats decide, else `winners`; juego: the best total wins
(31 > 32 > 40 > 37 > 36 > 35 > 34 > 33); equal totals go to the seat nearest the mano,
except a 31 against a 31 when the table plays 31 real and a card is missing (then
`winners`) ... A winner given where the cards or jugadas settle the lance must agree
with them (a contradiction is an error naming both); one that agrees is accepted."
"""

from __future__ import annotations

from typing import Any

import pytest

from muscore.rules import RecordError, score

NO = {"pares": "no", "juego": "no"}


def jugadas(**seats: dict[str, Any]) -> dict[str, Any]:
    """Jugadas for seats 0-3 (keyword s0..s3), every other seat with nothing."""
    return {str(s): seats.get(f"s{s}", NO) for s in range(4)}


def test_duples_beat_par_so_pares_needs_no_winner() -> None:
    """"the best kind wins (duples > medias > par)"."""
    record = {"jugadas": jugadas(s0={"pares": "par", "juego": "no"},
                                 s1={"pares": "duples", "juego": "no"}),
              "winners": {"grande": "A", "chica": "A", "punto": "A"}}
    result = score(record)
    assert result["lances"]["pares"] == {"side": "B", "points": 3}
    record["winners"]["pares"] = "B"  # a winner that agrees is accepted
    assert score(record) == result


def test_medias_beat_par_and_every_holder_of_the_side_collects() -> None:
    """"the best kind wins"; premiums "for every player of the collecting side"."""
    record = {"jugadas": jugadas(s0={"pares": "medias", "juego": "no"},
                                 s1={"pares": "par", "juego": "no"},
                                 s2={"pares": "par", "juego": "no"}),
              "winners": {"grande": "A", "chica": "A", "punto": "B"}}
    assert score(record)["lances"]["pares"] == {"side": "A", "points": 3}


def test_the_same_kind_on_both_sides_needs_the_cards_or_a_winner() -> None:
    """"when the best kind is held on both sides, the cards of those seats decide, else
    `winners`"."""
    record: dict[str, Any] = {
        "jugadas": jugadas(s0={"pares": "par", "juego": "no"}, s1={"pares": "par", "juego": "no"}),
        "winners": {"grande": "A", "chica": "A", "punto": "A"},
    }
    with pytest.raises(RecordError) as raised:
        score(record)
    assert "pares" in str(raised.value) and "winners" in str(raised.value)
    record["winners"]["pares"] = "B"
    assert score(record)["lances"]["pares"] == {"side": "B", "points": 1}


def test_the_cards_of_the_best_kinds_holders_decide_when_shown() -> None:
    """"the cards of those seats decide": both duples shown, the par left as a jugada."""
    record = {"hands": {"0": "R R 5 5", "1": "C C 4 4"},
              "jugadas": {"2": {"pares": "par", "juego": "no"}, "3": NO},
              "winners": {"grande": "A", "chica": "B", "punto": "A"}}
    assert score(record)["lances"]["pares"] == {"side": "A", "points": 4}
    with pytest.raises(RecordError) as raised:
        score({**record, "winners": {**record["winners"], "pares": "B"}})
    assert "side A" in str(raised.value) and "says B" in str(raised.value)


@pytest.mark.parametrize(("mano", "side"), [(0, "A"), (1, "B"), (2, "A"), (3, "A")])
def test_equal_juego_totals_go_to_the_seat_nearest_the_mano(mano: int, side: str) -> None:
    """"equal totals go to the seat nearest the mano": seats 0 and 1 both hold 33."""
    record = {"mano": mano,
              "jugadas": jugadas(s0={"pares": "no", "juego": 33}, s1={"pares": "no", "juego": 33}),
              "winners": {"grande": "A", "chica": "A"}}
    assert score(record)["lances"]["juego"] == {"side": side, "points": 2}


def test_the_best_total_wins_juego_31_over_40() -> None:
    """"the best total wins (31 > 32 > 40 > ...)"."""
    record = {"jugadas": jugadas(s0={"pares": "no", "juego": 40}, s3={"pares": "no", "juego": 31},
                                 s2={"pares": "no", "juego": 32}),
              "winners": {"grande": "A", "chica": "A"}}
    assert score(record)["lances"]["juego"] == {"side": "B", "points": 3}


def test_31_against_31_under_31_real_with_a_card_missing_needs_the_winner() -> None:
    """"except a 31 against a 31 when the table plays 31 real and a card is missing (then
    `winners`)": even when the one shown is the 31 real, as the contract says."""
    record: dict[str, Any] = {
        "rules": {"real31": "rey"},
        "jugadas": jugadas(s0={"pares": "no", "juego": 31}, s1={"pares": "no", "juego": 31}),
        "winners": {"grande": "A", "chica": "A"},
    }
    with pytest.raises(RecordError) as raised:
        score(record)
    assert "juego" in str(raised.value) and "winners" in str(raised.value)
    record["winners"]["juego"] = "B"
    assert score(record)["lances"]["juego"] == {"side": "B", "points": 3}
    shown = {"rules": {"real31": "rey"}, "hands": {"1": "7 7 7 R"},
             "jugadas": {"0": {"pares": "no", "juego": 31}, "2": NO, "3": NO},
             "winners": {"grande": "A", "chica": "A"}}
    with pytest.raises(RecordError):
        score(shown)
    without_real31 = {**record, "rules": {}, "winners": {"grande": "A", "chica": "A"}}
    assert score(without_real31)["lances"]["juego"] == {"side": "A", "points": 3}


@pytest.mark.parametrize(
    ("seats", "winners", "words"),
    [
        ({"s0": {"pares": "duples", "juego": "no"}, "s1": {"pares": "par", "juego": "no"}},
         {"pares": "B", "punto": "A"},
         ["pares", "side A", "seat 0 has duples", "seat 1 par", "'winners' says B"]),
        ({"s0": {"pares": "no", "juego": 31}, "s1": {"pares": "no", "juego": 33}},
         {"juego": "B"},
         ["juego", "side A", "seat 0 has 31", "seat 1 33", "'winners' says B"]),
        ({"s3": {"pares": "no", "juego": 34}, "s0": {"pares": "no", "juego": 34}},
         {"juego": "B"},
         ["juego", "side A", "seat 0 has 34", "seat 3 34", "'winners' says B"]),
    ],
)
def test_a_winner_contradicting_the_jugadas_is_refused_naming_both(
    seats: dict[str, Any], winners: dict[str, str], words: list[str]
) -> None:
    """"a contradiction is an error naming both": what the jugadas give, and the winner."""
    record = {"jugadas": jugadas(**seats), "winners": {"grande": "A", "chica": "A", **winners}}
    with pytest.raises(RecordError) as raised:
        score(record)
    for word in words:
        assert word in str(raised.value)
    assert raised.value.code == "winner_contradicts_jugadas"
