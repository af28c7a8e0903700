"""Declarations and lies (rules.md, "Lies"): the optional `declared` object."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.rules import BettingError, RecordError, score

# Seat 1 (B) has no pares; seat 3 (B) has par of sotas, better than seat 0's par of
# cincos; only side B has juego (32 and 33).
HANDS = {"0": "5 5 R 4", "1": "R C 7 5", "2": "1 4 6 7", "3": "S S 7 6"}


def hand(**fields: Any) -> dict[str, Any]:
    return {"hands": dict(HANDS), **fields}


def test_without_declarations_the_better_pares_win() -> None:
    result = score(hand())
    assert result["lances"]["pares"] == {"side": "B", "points": 1}
    assert "lies" not in result


def test_a_false_pares_si_loses_the_lance_to_the_other_side() -> None:
    result = score(hand(declared={"1": {"pares": True}}))
    assert result["lances"]["pares"] == {"side": "A", "points": 1}
    step = next(s for s in result["recuento"] if s["lance"] == "pares")
    assert step["why"] == "mentira" and step["liars"] == [1]
    assert result["lies"] == [{"seat": 1, "lance": "pares", "side": "B"}]
    assert result["score"] == {"A": 2, "B": 5}


def test_a_lie_costs_the_bets_of_the_lance_too() -> None:
    lances = {"pares": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}
    honest = score(hand(lances=lances))
    assert honest["lances"]["pares"] == {"side": "B", "points": 3}
    lied = score(hand(lances=lances, declared={"1": {"pares": True}}))
    assert lied["lances"]["pares"] == {"side": "A", "points": 3}  # stake 2 + A's par


def test_a_false_pares_no_just_did_not_play() -> None:
    # Seat 3 has pares but said no: side B does not play pares, A collects alone.
    result = score(hand(declared={"3": {"pares": False}}))
    step = next(s for s in result["recuento"] if s["lance"] == "pares")
    assert step["side"] == "A" and step["why"] == "solo" and step["points"] == 1


def test_a_false_juego_si_makes_the_fourth_lance_juego_and_loses_it() -> None:
    # Nobody has juego; seat 2 (A) says he has: juego is played instead of punto, A
    # alone "holds" it, and the lie hands it to B, who has no premiums to collect.
    record = {
        "hands": {"0": "R 7 6 4", "1": "R S 5 5", "2": "R 7 4 4", "3": "S 7 6 6"},
        "declared": {"2": {"juego": True}, "1": {"juego": False}},
    }
    result = score(record)
    assert "juego" in result["lances"] and "punto" not in result["lances"]
    assert result["lances"]["juego"] == {"side": None, "points": 0}
    assert result["lies"] == [{"seat": 2, "lance": "juego", "side": "A"}]
    with pytest.raises(BettingError):
        score({**record, "lances": {"punto": {"bets": []}}})


def test_liars_on_both_sides_collect_nothing() -> None:
    record = {
        "hands": {"0": "R 7 6 4", "1": "R S 5 5", "2": "R 7 4 4", "3": "S 7 6 6"},
        "declared": {"2": {"juego": True}, "1": {"juego": True}},
        "lances": {"juego": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
    }
    result = score(record)
    assert result["lances"]["juego"] == {"side": None, "points": 0}
    assert {lie["seat"] for lie in result["lies"]} == {1, 2}


def test_an_accepted_ordago_is_lost_by_the_side_that_lied() -> None:
    lances = {"pares": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}
    assert score(hand(lances=lances))["winner"] == "B"
    result = score(hand(lances=lances, declared={"1": {"pares": True}}))
    assert result["winner"] == "A" and result["ended_by"] == "ordago"


def test_true_declarations_change_nothing() -> None:
    declared = {"0": {"pares": True, "juego": False}, "1": {"pares": False, "juego": True},
                "2": {"pares": False, "juego": False}, "3": {"pares": True, "juego": True}}
    assert score(hand(declared=declared)) == score(hand())


@pytest.mark.parametrize(
    "declared, words",
    [
        ({"1": {"pares": "si"}}, ["Seat 1", "pares", '"si"']),
        ({"1": {"flor": True}}, ["'flor'", "declared.1"]),
        ({"7": {"pares": True}}, ["seat '7'"]),
        ([], ["declared"]),
    ],
)
def test_bad_declarations_name_what_is_wrong(declared: Any, words: list[str]) -> None:
    with pytest.raises(RecordError) as raised:
        score(hand(declared=declared))
    for word in words:
        assert word in str(raised.value)


def test_a_declaration_without_cards_must_match_the_jugadas() -> None:
    record = {"hands": {"0": "5 5 R 4", "1": "R C 7 5", "2": "1 4 6 7"},
              "jugadas": {"3": {"pares": "par", "juego": 33}},
              "winners": {"pares": "B"},
              "declared": {"3": {"pares": False}}}
    with pytest.raises(RecordError) as raised:
        score(record)
    assert "Seat 3" in str(raised.value)
