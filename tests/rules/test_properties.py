"""Properties of the scorer over random deals from a real 40-card deck."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import Hand, Rules, VacaError, replay, score
from tests.examples import examples
from tests.rules.strategies import records

PROPERTY = settings(max_examples=examples(300), deadline=None)


# An independent, deliberately plain oracle for who wins a lance on the cards: the
# engine's own comparison is not reused, so a mistake in either shows up here.
def rank(card: int, reyes: int) -> int:
    if reyes == 8 and card == 3:
        return 12
    if reyes == 8 and card == 2:
        return 1
    return card


def value(card: int, reyes: int) -> int:
    if card >= 10 or (reyes == 8 and card == 3):
        return 10
    if reyes == 8 and card == 2:
        return 1
    return card


def pares_of(cards: list[int]) -> tuple[int, ...] | None:
    groups = sorted(((cards.count(r), r) for r in set(cards) if cards.count(r) >= 2), reverse=True)
    if not groups:
        return None
    if groups[0][0] == 4:
        return (3, groups[0][1], groups[0][1])
    if len(groups) == 2:
        return (3, max(groups[0][1], groups[1][1]), min(groups[0][1], groups[1][1]))
    return (2, groups[0][1]) if groups[0][0] == 3 else (1, groups[0][1])


JUEGO_BEST = [31, 32, 40, 37, 36, 35, 34, 33]


def oracle_key(lance: str, text: str, rules: Rules) -> Any:
    cards = [int(c) for c in str(Hand.parse(text)).replace("A", "1").replace("S", "10")
             .replace("C", "11").replace("R", "12").split()]
    ranks = sorted((rank(c, rules.reyes) for c in cards), reverse=True)
    total = sum(value(c, rules.reyes) for c in cards)
    if lance == "grande":
        return ranks
    if lance == "chica":
        return [-r for r in sorted(ranks)]
    if lance == "pares":
        return pares_of(ranks)
    if lance == "juego":
        if total < 31:
            return None
        real = 0
        if total == 31 and rules.real31 != "no" and sorted(cards)[:3] == [7, 7, 7]:
            fourth = sorted(cards)[3]
            real = int(fourth in {"rey": [12], "figura": [10, 11, 12], "sota": [10]}[rules.real31])
        return (10 - JUEGO_BEST.index(total), real)
    return total  # punto


def oracle_winner(lance: str, record: dict[str, Any]) -> str | None:
    rules = Rules(**record["rules"])
    n = rules.players
    best = None
    best_seat = None
    for i in range(n):
        seat = (record["mano"] + i) % n
        key = oracle_key(lance, record["hands"][str(seat)], rules)
        if key is None:
            continue
        if best is None or key > best:
            best, best_seat = key, seat
    return None if best_seat is None else "AB"[best_seat % 2]


def fourth_lance(record: dict[str, Any]) -> str:
    rules = Rules(**record["rules"])
    has = any(Hand.parse(t).has_juego(rules) for t in record["hands"].values())
    return "juego" if has else "punto"


@PROPERTY
@given(records(), st.data())
def test_hiding_cards_behind_jugadas_and_winners_scores_the_same(
    record: dict[str, Any], data: Any
) -> None:
    full = score(record)
    rules = Rules(**record["rules"])
    n = rules.players
    hidden = data.draw(st.sets(st.integers(0, n - 1), min_size=1))
    partial = copy.deepcopy(record)
    partial["jugadas"] = {}
    for seat in hidden:
        hand = Hand.parse(partial["hands"].pop(str(seat)))
        partial["jugadas"][str(seat)] = {
            "pares": hand.pares(rules) or "no",
            "juego": hand.juego_total(rules) if hand.has_juego(rules) else "no",
        }
    partial["winners"] = {}
    for lance in ("grande", "chica", "pares", fourth_lance(record)):
        winner = oracle_winner(lance, record)
        holders = {
            s % 2 for s in range(n) if oracle_key(lance, record["hands"][str(s)], rules) is not None
        }
        if winner is not None and len(holders) != 1:
            partial["winners"][lance] = winner
    assert score(partial) == full


@PROPERTY
@given(records())
def test_the_oracle_agrees_on_every_lance_won_at_the_count(record: dict[str, Any]) -> None:
    result = score(record)
    for step in result["recuento"]:
        if step["why"] in ("paso", "quiero"):
            assert step["side"] == oracle_winner(step["lance"], record), step
    if "ordago" in result:
        assert result["winner"] == oracle_winner(result["ordago"]["lance"], record)


@PROPERTY
@given(records())
def test_scores_never_go_down_and_the_count_stops_at_the_target(record: dict[str, Any]) -> None:
    result = score(record)
    target = record["rules"]["target"]
    before = record["score"]
    for i, step in enumerate(result["recuento"]):
        after = step["score"]
        assert step["points"] > 0
        assert after[step["side"]] == before[step["side"]] + step["points"]
        other = "B" if step["side"] == "A" else "A"
        assert after[other] == before[other]
        if i < len(result["recuento"]) - 1:
            assert max(after.values()) < target  # nothing counted past the target
        before = after
    assert result["score"] == before
    reached = [s for s in "AB" if result["score"][s] >= target]
    if result["ended_by"] in ("deje", "recuento"):
        assert reached == [result["winner"]]
    elif result["ended_by"] == "ordago":
        assert result["score"] == (result["recuento"][-1]["score"] if result["recuento"]
                                   else record["score"])
    else:
        assert result["winner"] is None and not reached
    lance_total = sum(v["points"] for v in result["lances"].values())
    assert lance_total == sum(s["points"] for s in result["recuento"])


def swap(side: str) -> str:
    return {"A": "B", "B": "A"}.get(side, side)


@PROPERTY
@given(records())
def test_moving_everyone_one_seat_on_swaps_the_sides(record: dict[str, Any]) -> None:
    n = record["rules"]["players"]
    moved = copy.deepcopy(record)
    moved["hands"] = {str((int(s) + 1) % n): t for s, t in record["hands"].items()}
    moved["mano"] = (record["mano"] + 1) % n
    moved["score"] = {"A": record["score"]["B"], "B": record["score"]["A"]}
    for lance in moved.get("lances", {}).values():
        for bet in lance["bets"]:
            bet["side"] = swap(bet["side"])
    original, result = score(record), score(moved)
    assert result["score"] == {"A": original["score"]["B"], "B": original["score"]["A"]}
    assert result["winner"] == swap(original["winner"])
    assert result["ended_by"] == original["ended_by"]
    for lance, got in original["lances"].items():
        assert result["lances"][lance] == {"side": swap(got["side"]), "points": got["points"]}
    assert [(s["lance"], swap(s["side"]), s["points"]) for s in original["recuento"]] == [
        (s["lance"], s["side"], s["points"]) for s in result["recuento"]
    ]


@PROPERTY
@given(records(reyes=8))
def test_8_and_4_reyes_agree_without_2s_and_3s(record: dict[str, Any]) -> None:
    if any(c in ("2", "3") for t in record["hands"].values() for c in t.split()):
        return
    four = copy.deepcopy(record)
    four["rules"]["reyes"] = 4
    assert score(four) == score(record)


@PROPERTY
@given(st.lists(records(players=4, reyes=8), min_size=1, max_size=12),
       st.integers(0, 3), st.integers(1, 3))
def test_replay_carries_the_score_and_rotates_the_mano(
    hands: list[dict[str, Any]], mano: int, juegos: int
) -> None:
    rules = {"players": 4, "reyes": 8, "target": 40, "juegos": juegos}
    vaca = {"rules": rules, "mano": mano,
            "hands": [{"hands": h["hands"], **({"lances": h["lances"]} if "lances" in h else {})}
                      for h in hands]}
    try:
        result = replay(vaca)
    except VacaError as error:
        # The only way these hands fail: one comes after the vaca was won.
        assert error.code == "vaca_over", error
        vaca["hands"] = vaca["hands"][: error.params["n"] - 1]
        result = replay(vaca)
        assert result["winner"] is not None
    a = b = 0
    won = {"A": 0, "B": 0}
    for i, entry in enumerate(result["hands"]):
        assert entry["mano"] == (mano + i) % 4
        alone = score({"rules": rules, "mano": entry["mano"], "score": {"A": a, "B": b},
                       **vaca["hands"][i]})
        assert alone == entry["result"]
        if alone["winner"]:
            won[alone["winner"]] += 1
            a = b = 0
        else:
            a, b = alone["score"]["A"], alone["score"]["B"]
    assert result["juegos"] == won
    assert result["next_mano"] == (mano + len(result["hands"])) % 4
    assert result["winner"] == next((s for s in "AB" if won[s] >= juegos), None)
