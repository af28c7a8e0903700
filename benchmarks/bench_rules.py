"""Benchmark: scoring hand records through muscore.rules against a JSON round trip.

    .venv/bin/python benchmarks/bench_rules.py [--records 20000] [--seed 1]

Deals 20,000 random valid records from a real 40-card deck (random options,
mano, score and bets), then times, in the same run:
  - json round trip: json.loads + json.dumps of each record (the baseline);
  - score: muscore.rules.score() of each already-parsed record;
  - CLI path: json.loads + score + json.dumps of the result, as the CLI does.
Prints each rate and its ratio to the baseline. Target: score <= 1.8x the round trip
(issue 20). Times are CPU time of this process (time.process_time): on a shared machine
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


def random_record(rng: random.Random) -> dict[str, Any]:
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

    def round_trip() -> None:
        for text in texts:
            dumps(loads(text))

    def scoring() -> None:
        for record in records:
            score(record)

    def cli_path() -> None:
        for text in texts:
            dumps(score(loads(text)))

    scoring()  # first pass: warm the engine's caches of parsed cards, as a long run would
    baseline, scored, cli = best_of_interleaved(args.repeats, round_trip, scoring, cli_path)
    n = len(records)
    print(f"records: {n}, mean record {sum(map(len, texts)) / n:.0f} bytes, "
          f"best of {args.repeats}, Python {sys.version.split()[0]}")
    print(f"{'':28}{'records/s':>12}{'us/record':>11}{'x round trip':>14}")
    for name, seconds in (("json loads+dumps (baseline)", baseline),
                          ("muscore.rules.score", scored),
                          ("loads + score + dumps", cli)):
        print(f"{name:28}{n / seconds:12,.0f}{seconds / n * 1e6:11.2f}{seconds / baseline:14.2f}")
    ratio = scored / baseline
    print(f"target: score <= 1.8x the round trip: {'met' if ratio <= 1.8 else 'NOT met'} "
          f"({ratio:.2f}x)")


if __name__ == "__main__":
    main()
