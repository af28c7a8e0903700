"""Benchmark: scoring hand records through muscore.rules against a JSON round trip.

    .venv/bin/python benchmarks/bench_rules.py [--records 20000] [--seed 1]

Deals 20,000 random valid records from a real 40-card deck (random options,
mano, score and bets): two thirds in pairs (4 and 6 players), a third individual play of
2 to 6 players each for himself (issue 37: sides A..F, lances talked through player by
player, some of them left by players who said no quiero), then times, in the same run:
  - json round trip: json.loads + json.dumps of each record (the baseline);
  - score: muscore.rules.score() of each already-parsed record;
  - CLI path: json.loads + score + json.dumps of the result, as the CLI does.
Prints each rate and its ratio to the baseline, for all the records and for the pairs and
the individual ones apart. Target: score <= 1.5x the round trip (issue 37; it was 1.8x,
issue 20). Times are CPU time of this process (time.process_time): on a shared machine
the wall clock also counts the other processes, and the ratio swung 1.7-2.4x with it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from muscore.rules import INDICES, Hand, Rules, score  # noqa: E402

DECK = [index for index in INDICES for _ in range(4)]
LETTERS = {1: "A", 10: "S", 11: "C", 12: "R"}


def random_bets(rng: random.Random) -> dict[str, Any]:
    side = rng.choice("AB")
    bets = []
    for i in range(rng.randint(1, 3)):
        n: Any = "ordago" if rng.random() < 0.1 else (rng.choice([2, 2, 5, 10]) if i == 0
                                                       else rng.randint(1, 10))
        bets.append({"side": side, "n": n})
        side = "B" if side == "A" else "A"
        if n == "ordago":
            break
    return {"bets": bets, "end": rng.choice(["quiero", "no_quiero"])}


def talk(rng: random.Random, players: list[int]) -> dict[str, Any] | None:
    """A lance's betting among ``players`` (seats = sides, speaking order), talked through
    as a table of individual play does (docs/rules.md, "Individual play"); None: all passed."""
    letters = "ABCDEF"
    bettor = next((seat for seat in players if rng.random() < 0.35), None)
    if bettor is None:
        return None
    bets: list[dict[str, Any]] = []
    out: list[int] = []
    while True:
        n: Any = "ordago" if rng.random() < 0.08 else (
            rng.choice([2, 2, 5, 10]) if not bets else rng.randint(1, 10))
        bets.append({"side": letters[bettor], "n": n})
        k = players.index(bettor)
        raiser, held = None, False
        for seat in [s for s in players[k + 1:] + players[:k] if s not in out]:
            roll = rng.random()
            if roll < 0.2 and n != "ordago" and len(bets) < 4:
                raiser = seat
                break
            if roll < 0.6:
                held = True
            else:
                out.append(seat)
        if raiser is None:
            lance: dict[str, Any] = {"bets": bets, "end": "quiero" if held else "no_quiero"}
            if held and out:
                lance["out"] = [letters[s] for s in out]
            return lance
        bettor = raiser


def random_individual(rng: random.Random) -> dict[str, Any]:
    """A record of individual play of 2 to 6 players, every card shown."""
    n = rng.choice([2, 3, 3, 4, 5, 6])
    rules = Rules(players=n, individual=True, reyes=rng.choice([8, 8, 4]),
                  target=rng.choice([40, 40, 30]))
    deal = rng.sample(DECK, 4 * n)
    hands = {str(seat): " ".join(LETTERS[c] if c in LETTERS and rng.random() < 0.8 else str(c)
                                 for c in deal[seat * 4:seat * 4 + 4]) for seat in range(n)}
    parsed = [Hand.parse(hands[str(s)]) for s in range(n)]
    mano = rng.randrange(n)
    order = [(mano + i) % n for i in range(n)]
    holders = {"pares": [s for s in order if parsed[s].pares(rules)],
               "juego": [s for s in order if parsed[s].has_juego(rules)]}
    fourth = "juego" if holders["juego"] else "punto"
    lances = {}
    for lance in ("grande", "chica", "pares", fourth):
        players = holders.get(lance, order)
        if len(players) >= 2 and rng.random() < 0.5:
            betting = talk(rng, players)
            if betting is not None:
                lances[lance] = betting
    record: dict[str, Any] = {
        "rules": rules.to_json(), "mano": mano,
        "score": {"ABCDEF"[s]: rng.randrange(rules.target) for s in range(n)}, "hands": hands,
    }
    if lances:
        record["lances"] = lances
    return record


def random_record(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 1 / 3:
        return random_individual(rng)
    n = 6 if rng.random() < 0.2 else 4
    rules = Rules(players=n, reyes=rng.choice([8, 8, 4]), target=rng.choice([40, 40, 30]))
    deal = rng.sample(DECK, 4 * n)
    hands = {}
    for seat in range(n):
        cards = deal[seat * 4:seat * 4 + 4]
        hands[str(seat)] = " ".join(
            LETTERS[c] if c in LETTERS and rng.random() < 0.8 else str(c) for c in cards
        )
    parsed = [Hand.parse(hands[str(s)]) for s in range(n)]
    pares = {s % 2 for s in range(n) if parsed[s].pares(rules)}
    juego = {s % 2 for s in range(n) if parsed[s].has_juego(rules)}
    fourth = "juego" if juego else "punto"
    lances = {}
    for lance in ("grande", "chica", "pares", fourth):
        can_bet = {"pares": len(pares) == 2, "juego": len(juego) == 2}.get(lance, True)
        if can_bet and rng.random() < 0.3:
            lances[lance] = random_bets(rng)
    record: dict[str, Any] = {
        "rules": {"players": n, "reyes": rules.reyes, "target": rules.target},
        "mano": rng.randrange(n),
        "score": {"A": rng.randrange(rules.target), "B": rng.randrange(rules.target)},
        "hands": hands,
    }
    if lances:
        record["lances"] = lances
    return record


def best_of_interleaved(repeats: int, *works: Any) -> list[float]:
    """The best CPU time of each piece of work, run in turns so that a busy machine
    slows them alike (the ratio is what matters, not the absolute rate)."""
    best = [float("inf")] * len(works)
    for _ in range(repeats):
        for i, work in enumerate(works):
            start = time.process_time()
            work()
            best[i] = min(best[i], time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = [random_record(rng) for _ in range(args.records)]
    texts = [json.dumps(r) for r in records]
    loads, dumps = json.loads, json.dumps
    pairs = [i for i, r in enumerate(records) if not r["rules"].get("individual")
             and r["rules"]["players"] != 2]
    alone = [i for i in range(len(records)) if i not in set(pairs)]

    def round_trip(chosen: list[str]) -> Any:
        def work() -> None:
            for text in chosen:
                dumps(loads(text))
        return work

    def scoring(chosen: list[dict[str, Any]]) -> Any:
        def work() -> None:
            for record in chosen:
                score(record)
        return work

    def cli_path() -> None:
        for text in texts:
            dumps(score(loads(text)))

    scoring(records)()  # first pass: warm the engine's caches of parsed cards, as a long run would
    works = [round_trip(texts), scoring(records), cli_path,
             round_trip([texts[i] for i in pairs]), scoring([records[i] for i in pairs]),
             round_trip([texts[i] for i in alone]), scoring([records[i] for i in alone])]
    times = best_of_interleaved(args.repeats, *works)
    baseline, scored, cli, pairs_base, pairs_scored, alone_base, alone_scored = times
    n = len(records)
    print(f"records: {n} ({len(pairs)} in pairs, {len(alone)} each for himself), mean record "
          f"{sum(map(len, texts)) / n:.0f} bytes, best of {args.repeats}, "
          f"Python {sys.version.split()[0]}")
    print(f"{'':34}{'records/s':>12}{'us/record':>11}{'x round trip':>14}")
    for name, count, seconds, base in (
        ("json loads+dumps (baseline)", n, baseline, baseline),
        ("muscore.rules.score", n, scored, baseline),
        ("loads + score + dumps", n, cli, baseline),
        ("  pairs: round trip", len(pairs), pairs_base, pairs_base),
        ("  pairs: score", len(pairs), pairs_scored, pairs_base),
        ("  each for himself: round trip", len(alone), alone_base, alone_base),
        ("  each for himself: score", len(alone), alone_scored, alone_base),
    ):
        print(f"{name:34}{count / seconds:12,.0f}{seconds / count * 1e6:11.2f}"
              f"{seconds / base:14.2f}")
    ratio = scored / baseline
    print(f"target: score <= 1.5x the round trip: {'met' if ratio <= 1.5 else 'NOT met'} "
          f"({ratio:.2f}x)")


if __name__ == "__main__":
    main()
