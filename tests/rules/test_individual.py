"""Individual play of 2 to 6 players, each for himself (rules.md, "Individual play"; issue 37).

The shared examples run in test_examples.py; here random tables talked through lance by
lance (tests/rules/individual.py) are scored against a plain oracle written from the rule
text, two players are held to the game they always were, and every refusal the issue
names is said naming the player and the lance.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import BettingError, RecordError, RuleError, Rules, replay, score
from tests.examples import examples
from tests.rules.individual import LETTERS, individual_records, key_of, oracle
from tests.rules.strategies import records

PROPERTY = settings(max_examples=examples(400), deadline=None)
THREE = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}


def plain(record: dict[str, Any]) -> dict[str, Any]:
    """The record without the talk the strategy keeps beside it."""
    return {k: v for k, v in record.items() if k != "_talk"}


def answer(record: dict[str, Any]) -> Any:
    try:
        return score(record)
    except RuleError as error:
        return (error.code, str(error))


@PROPERTY
@given(individual_records())
def test_the_engine_agrees_with_the_oracle(record: dict[str, Any]) -> None:
    record = plain(record)
    got = score(record)
    expect = oracle(record)
    assert {k: got[k] for k in expect} == expect


@PROPERTY
@given(st.one_of(records(players=2), individual_records(players=2).map(plain)))
def test_two_players_score_alike_with_individual_true(record: dict[str, Any]) -> None:
    alone = copy.deepcopy(record)
    alone["rules"]["individual"] = True
    pairs = copy.deepcopy(record)
    pairs["rules"].pop("individual", None)
    assert answer(alone) == answer(pairs)


@PROPERTY
@given(individual_records(lies=False).map(plain))
def test_the_count_stops_at_the_first_player_to_reach_the_target(record: dict[str, Any]) -> None:
    result = score(record)
    target = record["rules"]["target"]
    before = record["score"]
    for i, step in enumerate(result["recuento"]):
        after = step["score"]
        assert step["points"] > 0
        assert after == {**before, step["side"]: before[step["side"]] + step["points"]}
        if i < len(result["recuento"]) - 1:
            assert max(after.values()) < target
        before = after
    reached = [side for side, points in result["score"].items() if points >= target]
    if result["ended_by"] in ("deje", "recuento"):
        assert reached == [result["winner"]]
    elif result["ended_by"] is None:
        assert not reached and result["winner"] is None


@PROPERTY
@given(individual_records(), st.data())
def test_moving_everyone_one_seat_on_moves_the_letters(record: dict[str, Any], data: Any) -> None:
    record = plain(record)
    n = record["rules"]["players"]

    def move(side: str | None) -> str | None:
        return None if side is None else LETTERS[(LETTERS.index(side) + 1) % n]

    moved = copy.deepcopy(record)
    moved["hands"] = {str((int(s) + 1) % n): t for s, t in record["hands"].items()}
    if "declared" in record:
        moved["declared"] = {str((int(s) + 1) % n): d for s, d in record["declared"].items()}
    moved["mano"] = (record["mano"] + 1) % n
    moved["score"] = {move(s): p for s, p in record["score"].items()}
    for lance in moved.get("lances", {}).values():
        for bet in lance["bets"]:
            bet["side"] = move(bet["side"])
        if "out" in lance:
            lance["out"] = [move(s) for s in lance["out"]]
    original, result = score(record), score(moved)
    assert result["score"] == {move(s): p for s, p in original["score"].items()}
    assert result["winner"] == move(original["winner"])
    for lance, got in original["lances"].items():
        assert result["lances"][lance] == {"side": move(got["side"]), "points": got["points"]}


@PROPERTY
@given(individual_records(lies=False), st.data())
def test_hiding_cards_behind_jugadas_and_winners_scores_the_same(
    record: dict[str, Any], data: Any
) -> None:
    """The cards of some players left out, what they declared and the player who collected
    each lance they leave open given instead: the same result."""
    record = plain(record)
    full = score(record)
    rules = record["rules"]
    n = rules["players"]
    hidden = data.draw(st.sets(st.integers(0, n - 1), min_size=1))
    partial = copy.deepcopy(record)
    partial["jugadas"] = {}
    for seat in hidden:
        cards = partial["hands"].pop(str(seat))
        from tests.rules.individual import cards_of, pares_kind, total_of

        held = cards_of(cards)
        total = total_of(held, rules["reyes"])
        partial["jugadas"][str(seat)] = {"pares": pares_kind(held, rules["reyes"]) or "no",
                                         "juego": total if total >= 31 else "no"}
    # The winner of a lance is its best hand among those who compete for it (still in, when
    # held on): the player who collected it, except where a rejected bet paid its bettor.
    rejected = {lance for lance, bets in record.get("lances", {}).items()
                if bets.get("end") == "no_quiero"}
    partial["winners"] = {lance: got["side"] for lance, got in full["lances"].items()
                          if got["side"] is not None and lance not in rejected}
    if full["ended_by"] == "ordago":
        partial["winners"] = {full["ordago"]["lance"]: full["ordago"]["side"]}
    try:
        assert score(partial) == full
    except RecordError as error:
        # A winner the count never needed may still be asked where the juego ended first.
        assert error.code == "winner_missing", error


# -- the records the issue says must be refused ----------------------------------------


def three(**more: Any) -> dict[str, Any]:
    return {"rules": {"players": 3}, "hands": dict(THREE), **more}


@pytest.mark.parametrize(("record", "code", "words"), [
    ({"rules": {"players": 3, "individual": False}, "hands": THREE}, "pairs_players",
     "A table of 3 cannot play in pairs"),
    ({"rules": {"players": 5, "individual": False}}, "pairs_players", "A table of 5"),
    (three(lances={"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero",
                              "out": ["A"]}}),
     "out_last_bettor", "grande: player A made the last bet"),
    (three(lances={"chica": {"bets": [{"side": "B", "n": 2}], "end": "quiero",
                             "out": ["A", "C"]}}),
     "quiero_nobody", "chica: nobody was left to say quiero to player B's bet (A and C left"),
    ({"hands": {**THREE, "3": "S S 7 7"},
      "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero", "out": ["B"]}}},
     "out_pairs", "grande: 'out' is for individual play"),
    ({"rules": {"players": 2}, "hands": {"0": "R R 5 4", "1": "1 1 6 7"},
      "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero", "out": []}}},
     "out_pairs", "grande: 'out' is for individual play"),
    (three(score={"D": 2}), "score_player",
     "There is no player 'D' at a table of 3: the players are A, B and C."),
    (three(lances={"grande": {"bets": [{"side": "D", "n": 2}], "end": "quiero"}}),
     "bet_player", "grande, bet 1: the player who bets must be one of A, B and C, not \"D\""),
    # Pares at this table: A (reyes) and C (ases) hold them, B (caballos) too; juego only B.
    ({"rules": {"players": 3}, "hands": {"0": "R R 5 4", "1": "R C 6 5", "2": "1 1 6 7"},
      "lances": {"pares": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 2}],
                           "end": "quiero"}}},
     "bet_not_playing", "pares: player B does not play pares, so he cannot bet in it (bet 2)"),
    ({"rules": {"players": 3}, "hands": {"0": "R R 5 4", "1": "R C 6 5", "2": "1 1 6 7"},
      "lances": {"pares": {"bets": [{"side": "A", "n": 2}], "end": "quiero", "out": ["B"]}}},
     "out_not_playing", "pares: player B does not play pares, so he cannot have left it"),
    (three(lances={"grande": {"bets": [{"side": "A", "n": 2}, {"side": "A", "n": 2}],
                              "end": "quiero"}}),
     "raise_own", "grande: player A cannot raise his own bet (bet 2)"),
    (three(lances={"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero",
                              "out": ["B", "B"]}}),
     "out_twice", "grande: player B is named twice in 'out'"),
    (three(lances={"grande": {"bets": [], "out": ["B"]}}),
     "out_without_bets", "grande: nobody bet, so player B cannot have left the lance"),
    (three(lances={"grande": {"bets": [{"side": "A", "n": 1}], "end": "quiero"}}),
     "first_bet", "grande: the first bet of a lance is an envido of 2 or more"),
    (three(winners={"grande": "F"}), "winner_player",
     "The winner of grande must be one of the players A, B and C, not \"F\""),
])
def test_a_record_that_breaks_individual_play_is_refused_in_words(
    record: dict[str, Any], code: str, words: str
) -> None:
    with pytest.raises(RuleError) as raised:
        score(record)
    assert raised.value.code == code
    assert words in str(raised.value)


def test_a_bet_from_a_player_without_pares_is_a_betting_error() -> None:
    with pytest.raises(BettingError):
        score({"rules": {"players": 3}, "hands": {"0": "R R 5 4", "1": "R C 6 5",
                                                  "2": "1 1 6 7"},
               "lances": {"pares": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}})


def test_a_winner_who_left_the_lance_is_refused() -> None:
    record = {"rules": {"players": 3}, "hands": {"0": "R R 5 4", "1": "R C C 5"},
              "jugadas": {"2": {"pares": "par", "juego": "no"}},
              "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero",
                                    "out": ["C"]}},
              "winners": {"grande": "C", "chica": "C", "pares": "A"}}
    with pytest.raises(RecordError) as raised:
        score(record)
    assert raised.value.code == "winner_out"
    assert "gives grande to player C, but he left the lance: it was held on by A and B" in str(
        raised.value)
    record["winners"]["grande"] = "A"
    assert score(record)["lances"]["grande"] == {"side": "A", "points": 2}


# -- the table, the vaca, the mano --------------------------------------------------------


@pytest.mark.parametrize(("players", "individual", "sides"), [
    (2, None, 2), (3, None, 3), (4, None, 2), (4, True, 4), (5, None, 5), (6, None, 2),
    (6, True, 6),
])
def test_who_plays_for_himself(players: int, individual: bool | None, sides: int) -> None:
    rules = Rules(players=players, individual=individual)
    assert rules.sides == sides
    assert [rules.side_of(seat) for seat in range(players)] == (
        [LETTERS[seat] for seat in range(players)] if sides == players
        else ["AB"[seat % 2] for seat in range(players)])
    assert Rules.from_json(rules.to_json()) == rules


def test_the_rules_of_a_table_of_three_say_each_for_himself() -> None:
    assert Rules(players=3).to_json()["individual"] is True
    assert "individual" not in Rules(players=4).to_json()
    assert "individual" not in Rules(players=2).to_json()


def test_a_vaca_of_three_rotates_the_mano_and_goes_to_the_first_to_win_its_juegos() -> None:
    hand = {"hands": {"0": "R R R 4", "1": "1 1 1 5", "2": "S C 6 7"}}
    vaca: dict[str, Any] = {"rules": {"players": 3, "target": 10, "juegos": 2}, "mano": 2,
                            "hands": []}
    out = replay({**vaca, "hands": [hand]})
    while out["winner"] is None:
        vaca["hands"].append(hand)
        out = replay(vaca)
    assert [h["mano"] for h in out["hands"]][:4] == [2, 0, 1, 2]
    assert out["winner"] is not None
    assert out["juegos"][out["winner"]] == 2
    assert set(out["juegos"]) == set(out["score"]) == {"A", "B", "C"}
    assert out["next_mano"] == (2 + len(out["hands"])) % 3


def test_piedras_among_a_vaca_of_five_go_to_one_player() -> None:
    out = replay({"rules": {"players": 5, "target": 10, "juegos": 1}, "hands": [
        {"piedras": {"side": "E", "n": 5}}, {"piedras": {"side": "E", "n": 5}}]})
    assert out["winner"] == "E" and out["hands"][0]["mano"] == out["hands"][1]["mano"] == 0
    assert out["hands"][0]["score"] == {"A": 0, "B": 0, "C": 0, "D": 0, "E": 5}
    with pytest.raises(RuleError) as raised:
        replay({"rules": {"players": 3}, "hands": [{"piedras": {"side": "D", "n": 5}}]})
    assert "Piedras are tapped for a player of the table (A, B and C), not \"D\"" in str(
        raised.value)


def test_the_oracle_reads_a_hand_as_the_engine_does() -> None:
    assert key_of("pares", [12, 12, 5, 4], {"reyes": 8}) == (1, 12)
    assert oracle(three())["score"] == {"A": 2, "B": 2, "C": 1}
