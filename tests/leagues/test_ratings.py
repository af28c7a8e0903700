"""Ratings equal openskill's own computation, with substitutes and no-shows."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from openskill.models import ThurstoneMostellerFull

from muscore.leagues import rate, ratings_json, read_league

from .helpers import VACA_A_3_1, league, won


def reference(doc: dict[str, Any]) -> dict[str, tuple[float, float, int]]:
    """Ratings computed straight with openskill, the way its documentation shows."""
    model = ThurstoneMostellerFull()
    players = {i: pair["players"] for i, pair in enumerate(doc["pairs"])}
    current: dict[str, Any] = {}
    played: dict[str, int] = {}
    target = doc.get("rules", {}).get("juegos", 3)
    for match in doc["matches"]:
        first, second = match["pairs"]
        if "forfeit" in match:
            continue
        if "juegos" in match:
            first_won = match["juegos"][0] == target
        elif "vaca" in match:
            first_won = True  # VACA_A_3_1: the first pair wins
        else:
            continue
        sat = match.get("players") or [None, None]
        teams = [sat[0] or players[first], sat[1] or players[second]]
        winners, losers = (teams[0], teams[1]) if first_won else (teams[1], teams[0])
        before = [[current.setdefault(p, model.rating(name=p)) for p in team]
                  for team in (winners, losers)]
        after = model.rate(before)  # listed winner first: ranked by order
        for team in after:
            for rating in team:
                current[rating.name] = rating
                played[rating.name] = played.get(rating.name, 0) + 1
    return {name: (r.mu, r.sigma, played[name]) for name, r in current.items()}


def check(doc: dict[str, Any]) -> list[dict[str, Any]]:
    out = ratings_json(read_league(doc))["ratings"]
    expected = reference(doc)
    assert {row["player"] for row in out} == set(expected)
    for row in out:
        mu, sigma, matches = expected[row["player"]]
        assert row["mu"] == pytest.approx(mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(sigma, abs=1e-9)
        assert row["nivel"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
        assert row["matches"] == matches
    nivels = [row["nivel"] for row in out]
    assert nivels == sorted(nivels, reverse=True)
    return out


def test_substitutes_and_no_shows() -> None:
    doc = league(4, [
        {"round": 1, **won(0, 1, 3, 1)},
        {"round": 1, "pairs": [2, 3], "forfeit": 3},
        {"round": 2, **won(0, 2, 1, 3), "players": [["p0-a", "Iñaki"], None]},
        {"round": 2, "pairs": [1, 3], "vaca": VACA_A_3_1},
        {"round": 3, "pairs": [0, 3], "forfeit": "both"},
        {"round": 3, **won(1, 2, 3, 2), "players": [None, ["Iñaki", "p2-b"]]},
    ])
    out = {row["player"]: row for row in check(doc)}
    # The substitute is rated for the two matches he sat in, for two different pairs;
    # the player he replaced only for the match she played; no-shows rate nobody.
    assert out["Iñaki"]["matches"] == 2
    assert out["p0-b"]["matches"] == 1
    assert out["p2-a"]["matches"] == 1
    assert out["p3-a"]["matches"] == 1


def test_random_leagues_match_openskill() -> None:
    rng = random.Random(7)
    for _ in range(5):
        n = rng.randint(2, 7)
        matches: list[dict[str, Any]] = []
        for a in range(n):
            for b in range(a + 1, n):
                roll = rng.random()
                if roll < 0.1:
                    matches.append({"pairs": [a, b], "forfeit": rng.choice([a, b, "both"])})
                elif roll < 0.2:
                    matches.append({"pairs": [a, b]})
                else:
                    m = won(a, b, *rng.choice([(3, 0), (3, 2), (1, 3), (2, 3)]))
                    if rng.random() < 0.3:
                        m["players"] = [[f"p{a}-a", f"sub{rng.randint(0, 3)}"], None]
                    matches.append(m)
        rng.shuffle(matches)
        check(league(n, matches))


def test_a_corrected_result_rerates_everything_after_it() -> None:
    matches = [won(0, 1, 3, 0), won(2, 3, 3, 1), won(0, 2, 3, 2), won(1, 3, 0, 3)]
    doc = league(4, matches)
    before = ratings_json(read_league(doc))
    corrected = copy.deepcopy(doc)
    corrected["matches"][0]["juegos"] = [2, 3]
    after = ratings_json(read_league(corrected))
    assert after != before
    assert after == ratings_json(read_league(copy.deepcopy(corrected)))
    check(corrected)


def test_history_and_nobody_unplayed() -> None:
    out = rate([])
    assert out == []
    doc = read_league(league(3, [won(0, 1, 3, 0), won(0, 2, 3, 0)]))
    from muscore.leagues import ratings
    by_name = {r.player: r for r in ratings(doc)}
    assert len(by_name["p0-a"].history) == 2 and by_name["p0-a"].history[-1] == by_name[
        "p0-a"].nivel
