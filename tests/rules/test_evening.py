"""A table's whole evening: entries split into vacas, checkpoints, piedras entries."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import (
    Checkpoint,
    RecordError,
    Rules,
    VacaError,
    checkpoints,
    replay,
    replay_evening,
)
from tests.examples import examples
from tests.rules.strategies import records

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
# Grande goes to A (seat 0's R R 5 4), so an accepted órdago in grande wins A the juego.
A_WINS = {"hands": SEED, "lances": {"grande": {"bets": [{"side": "B", "n": "ordago"}],
                                               "end": "quiero"}}}
PLAIN = {"hands": SEED}  # A 2, B 8


def tap(side: str, n: int) -> dict[str, Any]:
    return {"piedras": {"side": side, "n": n}}


def test_a_vaca_ends_when_won_and_the_next_starts_at_0_0_with_the_next_mano() -> None:
    entries = [PLAIN, A_WINS, A_WINS, PLAIN, A_WINS]
    evening = replay_evening({"juegos": 2}, entries, Checkpoint(0, 3))
    (first,) = evening["finished"]
    assert first["winner"] == "A" and first["juegos"] == {"A": 2, "B": 0}
    assert (first["first_hand"], first["mano"]) == (1, 3)
    assert [h["mano"] for h in first["hands"]] == [3, 0, 1]
    current = evening["current"]
    assert (current["first_hand"], current["mano"]) == (4, 2)
    assert current["juegos"] == {"A": 1, "B": 0} and current["score"] == {"A": 0, "B": 0}
    assert [h["score"] for h in current["hands"]] == [{"A": 2, "B": 8}, {"A": 2, "B": 8}]
    assert evening["vacas"] == {"A": 1, "B": 0}
    assert checkpoints(evening) == [Checkpoint(0, 3), Checkpoint(3, 2)]


def test_when_the_last_entry_wins_a_vaca_the_current_one_is_empty() -> None:
    evening = replay_evening(None, [A_WINS, A_WINS])
    assert evening["vacas"] == {"A": 1, "B": 0}
    assert evening["current"] == {
        "hands": [], "juegos": {"A": 0, "B": 0}, "winner": None, "score": {"A": 0, "B": 0},
        "next_mano": 2, "first_hand": 3, "mano": 2,
    }


def test_an_error_names_the_table_wide_number_of_the_entry_and_its_cause() -> None:
    bad = {"hands": {**SEED, "0": "R R 5"}}
    with pytest.raises(VacaError) as raised:
        replay_evening(None, [A_WINS, A_WINS, PLAIN, bad], Checkpoint(10, 0))
    assert raised.value.number == 14
    assert raised.value.cause is not None and raised.value.cause.code == "card_count"
    assert "Hand 14" in str(raised.value)


@st.composite
def evenings(draw: Any) -> tuple[Rules, int, list[dict[str, Any]]]:
    """A table's rules, first mano and entries: random hands, some won by an órdago."""
    n = draw(st.sampled_from([4, 4, 6]))
    rules = Rules(players=n, target=draw(st.sampled_from([10, 40])),
                  juegos=draw(st.integers(1, 3)))
    entries: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            entries.append(tap(draw(st.sampled_from("AB")), draw(st.sampled_from([1, 5, -1, 40]))))
            continue
        record = draw(records(players=n, reyes=8))
        entry = {k: v for k, v in record.items() if k in ("hands", "lances")}
        if kind == 1:
            entry["lances"] = {"grande": {"bets": [{"side": "A", "n": "ordago"}],
                                          "end": "quiero"}}
        entries.append(entry)
    return rules, draw(st.integers(0, n - 1)), entries


def split_by_replay(rules: Rules, mano: int, entries: list[dict[str, Any]]) -> list[Any]:
    """The vacas found with the contract's replay alone: cut where it says "vaca_over"."""
    vacas = []
    rest = entries
    while True:
        vaca = {"rules": rules.to_json(), "mano": mano, "hands": rest}
        try:
            whole = replay(vaca)
        except VacaError as error:
            assert error.code == "vaca_over", error
            cut = error.params["n"] - 1
            vacas.append(replay({**vaca, "hands": rest[:cut]}))
            rest, mano = rest[cut:], vacas[-1]["next_mano"]
            continue
        vacas.append(whole)
        if whole["winner"] is not None:  # won by the last entry: a new vaca, empty
            vacas.append(replay({**vaca, "hands": [], "mano": whole["next_mano"]}))
        return vacas


@settings(max_examples=examples(60), deadline=None)
@given(evenings())
def test_the_evening_is_the_contracts_vacas_one_after_another(
    evening_input: tuple[Rules, int, list[dict[str, Any]]],
) -> None:
    rules, mano, entries = evening_input
    evening = replay_evening(rules, copy.deepcopy(entries), Checkpoint(0, mano))
    vacas = [*evening["finished"], evening["current"]]
    expected = split_by_replay(rules, mano, entries)
    assert [{k: v for k, v in vaca.items() if k not in ("first_hand", "mano")}
            for vaca in vacas] == expected
    assert evening["vacas"] == {
        side: sum(v["winner"] == side for v in evening["finished"]) for side in "AB"
    }
    # Resuming at any vaca's checkpoint replays the rest exactly.
    for i, point in enumerate(checkpoints(evening)):
        resumed = replay_evening(rules, entries[point.index:], point)
        assert [*resumed["finished"], resumed["current"]] == vacas[i:]


def test_piedras_taps_carry_the_score_and_do_not_move_the_mano() -> None:
    evening = replay_evening(None, [tap("A", 5), tap("B", 1), tap("A", -1), PLAIN],
                             Checkpoint(0, 1))
    hands = evening["current"]["hands"]
    assert [h["score"] for h in hands] == [
        {"A": 5, "B": 0}, {"A": 5, "B": 1}, {"A": 4, "B": 1}, {"A": 6, "B": 9},
    ]
    assert [h["mano"] for h in hands] == [1, 1, 1, 1]  # the dealt hand is the first
    assert evening["current"]["next_mano"] == 2
    assert hands[0]["piedras"] == {"side": "A", "n": 5}
    assert hands[0]["result"]["recuento"][0]["why"] == "piedras"


def test_a_tap_never_takes_the_score_below_0() -> None:
    (row,) = replay({"hands": [tap("B", -1)]})["hands"]
    assert row["score"] == {"A": 0, "B": 0}
    assert row["result"]["recuento"][0]["points"] == 0


def test_taps_end_the_juego_and_the_vaca_at_the_target_as_a_hand_does() -> None:
    entries = [tap("A", 5)] * 8 + [tap("B", 5)] + [tap("A", 5)] * 8 + [PLAIN]
    evening = replay_evening({"juegos": 2}, entries)
    (vaca,) = evening["finished"]
    assert vaca["winner"] == "A" and vaca["juegos"] == {"A": 2, "B": 0}
    eighth = vaca["hands"][7]
    assert eighth["winner"] == "A" and eighth["result"]["ended_by"] == "piedras"
    assert vaca["hands"][8]["score"] == {"A": 0, "B": 5}  # the second juego starts at 0-0
    assert evening["current"]["first_hand"] == 18
    assert evening["current"]["mano"] == 0  # no hand was dealt in the first vaca
    with pytest.raises(VacaError) as raised:  # the contract's replay: one vaca only
        replay({"hands": entries})
    assert raised.value.code == "vaca_over" and raised.value.number == 18


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (tap("C", 1), ['"C"', "side"]),
        (tap("A", 0), ["not 0"]),
        (tap("A", "5"), ['"5"']),
        (tap("A", 500), ["500"]),
        ({"piedras": {"side": "A", "n": 1}, "hands": SEED}, ["'hands'", "only 'piedras'"]),
        ({"piedras": {"side": "A", "n": 1, "why": "x"}}, ["'why'"]),
        ({"piedras": [1]}, ["piedras", "an object"]),
    ],
)
def test_a_wrong_piedras_entry_is_refused_naming_it(entry: Any, words: list[str]) -> None:
    with pytest.raises(VacaError) as raised:
        replay({"hands": [PLAIN, entry]})
    assert raised.value.number == 2
    assert isinstance(raised.value.cause, RecordError)
    for word in words:
        assert word in str(raised.value)
    assert str(raised.value).startswith("Hand 2:")
