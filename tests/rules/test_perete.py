"""Perete (4 5 6 7; seed 001: "en algunas zonas da derecho a un tanto y a pedir cartas
nuevas"): a table option, off by default, and an entry of the record that scores one
piedra to its side, exactly like a tap of 1 but named (docs/contract.md, "Perete")."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.rules import (
    RecordError,
    Rules,
    VacaError,
    replay,
    replay_evening,
    replay_vaca,
    score_perete,
)

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
PLAIN = {"hands": SEED}  # A 2, B 8
ON = {"perete": True}


def perete(side: str) -> dict[str, Any]:
    return {"perete": {"side": side}}


def test_the_option_is_off_by_default_and_absent_from_the_rules_when_off() -> None:
    assert Rules().perete is False
    assert "perete" not in Rules().to_json()
    assert Rules.from_json({"perete": False}).to_json() == Rules().to_json()
    assert Rules.from_json(ON).to_json()["perete"] is True
    assert Rules.from_json(Rules(perete=True).to_json()) == Rules(perete=True)


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_the_option_is_true_or_false(value: object) -> None:
    with pytest.raises(RecordError) as raised:
        Rules.from_json({"perete": value})
    assert raised.value.code == "rule_value"
    assert "'perete'" in str(raised.value) and "true or false" in str(raised.value)


def test_a_perete_is_one_piedra_to_its_side_and_does_not_move_the_mano() -> None:
    vaca = replay({"rules": ON, "mano": 1, "hands": [PLAIN, perete("A"), perete("B"), PLAIN]})
    rows = vaca["hands"]
    assert [r["score"] for r in rows] == [
        {"A": 2, "B": 8}, {"A": 3, "B": 8}, {"A": 3, "B": 9}, {"A": 5, "B": 17},
    ]
    assert [r["mano"] for r in rows] == [1, 2, 2, 2]  # the cards are dealt again
    assert vaca["next_mano"] == 3
    assert rows[1]["perete"] == {"side": "A"} and "piedras" not in rows[1]
    result = rows[1]["result"]
    assert result["lances"] == {} and result["perete"] == {"side": "A"}
    assert result["recuento"] == [{"lance": None, "side": "A", "points": 1, "why": "perete",
                                   "score": {"A": 3, "B": 8}}]
    assert result["winner"] is None and result["ended_by"] is None


def test_a_perete_scores_exactly_as_a_tap_of_one_piedra() -> None:
    entries: list[dict[str, Any]] = [PLAIN] * 3 + [perete("B")] * 3 + [PLAIN] * 4
    taps = [e if "perete" not in e else {"piedras": {"side": "B", "n": 1}} for e in entries]
    with_perete = replay_evening(ON, entries)
    with_taps = replay_evening(ON, taps)
    keep = ("mano", "juego", "score", "winner")
    for got, tapped in zip(with_perete["current"]["hands"], with_taps["current"]["hands"],
                           strict=True):
        assert {k: got[k] for k in keep} == {k: tapped[k] for k in keep}
    assert with_perete["vacas"] == with_taps["vacas"]


def test_a_perete_at_39_wins_the_juego_and_the_next_starts_at_0_0() -> None:
    # Four hands of A 2, B 8 leave B at 32; seven taps of B take it to 39.
    entries = [PLAIN] * 4 + [{"piedras": {"side": "B", "n": 7}}, perete("B"), PLAIN]
    vaca = replay_vaca({"rules": ON, "hands": entries})
    won = vaca.data["hands"][5]
    assert won["winner"] == "B" and won["score"] == {"A": 8, "B": 40}
    assert won["result"]["ended_by"] == "perete"
    after = vaca.data["hands"][6]
    assert after["score"] == {"A": 2, "B": 8} and after["juego"] == 2
    assert vaca.hands[5].is_perete and not vaca.hands[5].is_dealt
    assert vaca.hands[5].recuento == ()  # no lance: left out of the typed steps
    assert vaca.hands[0].is_dealt and not vaca.hands[0].is_perete


def test_a_perete_wins_the_vaca_like_any_entry() -> None:
    evening = replay_evening({"perete": True, "juegos": 1, "target": 10},
                             [{"piedras": {"side": "A", "n": 9}}, perete("A"), PLAIN])
    (vaca,) = evening["finished"]
    assert vaca["winner"] == "A" and evening["current"]["first_hand"] == 3


def test_a_perete_is_refused_when_the_table_does_not_play_it() -> None:
    for rules in (None, {}, {"perete": False}):
        with pytest.raises(VacaError) as raised:
            replay({"rules": rules, "hands": [PLAIN, perete("A")]})
        assert raised.value.number == 2
        cause = raised.value.cause
        assert isinstance(cause, RecordError) and cause.code == "perete_off"
        assert "does not play perete" in str(raised.value)
    with pytest.raises(RecordError):
        score_perete(perete("A"), Rules(), 0, 0)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (perete("C"), ['"C"', "side"]),
        ({"perete": {}}, ["null", "side"]),
        ({"perete": {"side": "A", "n": 1}}, ["'n'"]),
        ({"perete": {"side": "A"}, "hands": SEED}, ["'hands'", "only 'perete'"]),
        ({"perete": "A"}, ["perete", "an object"]),
    ],
)
def test_a_wrong_perete_entry_is_refused_naming_it(entry: Any, words: list[str]) -> None:
    with pytest.raises(VacaError) as raised:
        replay({"rules": ON, "hands": [PLAIN, entry]})
    assert raised.value.number == 2 and isinstance(raised.value.cause, RecordError)
    for word in words:
        assert word in str(raised.value)

