"""Random hand records and vacas of every kind the pairs engine takes, for golden answers.

Issue 37 (individual play) rewrote the engine for 2 to 6 sides. What a table of 2, 4 or 6
in pairs stored before must score exactly as it did: ``tests/rules/data/golden_*.jsonl.gz``
hold records dealt by :func:`hand_records` and :func:`vaca_records` (a fixed seed) with the
answers the engine gave **before** that change (main at 045fc67), errors included, and
tests/rules/test_golden.py scores them again. The records cover what the one-pass path and
the general path each take: every card shown, seats without cards (jugadas, winners),
declarations with lies and denials, bets of every shape, and records that break a rule.

Made once with::

    .venv/bin/python -m tests.rules.golden_records   # never again: it would bless the new engine

and kept as data; regenerating them from a changed engine would hide the change.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
INDICES = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
DECK = [index for index in INDICES for _ in range(4)]
LETTERS = {1: "A", 10: "S", 11: "C", 12: "R"}
PARES_KINDS = ("no", "par", "medias", "duples")
JUEGOS = (31, 32, 33, 34, 35, 36, 37, 40)


def _value(card: int, reyes: int) -> int:
    if card >= 10 or (reyes == 8 and card == 3):
        return 10
    if reyes == 8 and card == 2:
        return 1
    return card


def _rank(card: int, reyes: int) -> int:
    if reyes == 8 and card == 3:
        return 12
    if reyes == 8 and card == 2:
        return 1
    return card


def _pares(cards: list[int], reyes: int) -> str:
    ranks = [_rank(c, reyes) for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] == 4 or counts[:2] == [2, 2]:
        return "duples"
    return {3: "medias", 2: "par"}.get(counts[0], "no")


def _bets(rng: random.Random, sides: str = "AB") -> dict[str, Any]:
    side = rng.choice(sides)
    bets: list[dict[str, Any]] = []
    for i in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        n: Any
        if rng.random() < 0.12:
            n = "ordago"
        elif i == 0:
            n = rng.choice([2, 2, 2, 3, 5, 10, 30, 40] + ([1] if rng.random() < 0.05 else []))
        else:
            n = rng.randint(1, 12)
        bets.append({"side": side, "n": n})
        if rng.random() < 0.02:  # out of turn: the same side twice
            continue
        side = "B" if side == "A" else "A"
        if n == "ordago" and rng.random() < 0.97:
            break
    data: dict[str, Any] = {"bets": bets}
    if rng.random() < 0.97:
        data["end"] = rng.choice(["quiero", "no_quiero"])
    return data


def hand_record(rng: random.Random, players: int, *, vaca: bool = False) -> dict[str, Any]:
    """One random hand record of a table of ``players`` in pairs (2: each for himself)."""
    reyes = rng.choice([8, 8, 4])
    target = rng.choice([40, 40, 30, 35, 10, 20])
    real31 = rng.choice(["no", "no", "rey", "figura", "sota"])
    deal = rng.sample(DECK, 4 * players)
    hands: dict[str, str] = {}
    jugadas: dict[str, dict[str, Any]] = {}
    declared: dict[str, dict[str, bool]] = {}
    shown_all = rng.random() < 0.6
    juego_sides: set[int] = set()
    pares_sides: set[int] = set()
    for seat in range(players):
        cards = deal[seat * 4:seat * 4 + 4]
        kind = _pares(cards, reyes)
        total = sum(_value(c, reyes) for c in cards)
        if kind != "no":
            pares_sides.add(seat % 2)
        if total >= 31:
            juego_sides.add(seat % 2)
        if shown_all or rng.random() < 0.6:
            hands[str(seat)] = " ".join(
                LETTERS[c] if c in LETTERS and rng.random() < 0.7 else str(c) for c in cards)
        else:
            jugada: dict[str, Any] = {
                "pares": kind if rng.random() < 0.93 else rng.choice(PARES_KINDS),
                "juego": (total if total >= 31 else "no") if rng.random() < 0.93
                else rng.choice(["no", *JUEGOS]),
            }
            if rng.random() < 0.04:
                del jugada[rng.choice(["pares", "juego"])]
            jugadas[str(seat)] = jugada
        if rng.random() < 0.25:
            said: dict[str, bool] = {}
            for lance, has in (("pares", kind != "no"), ("juego", total >= 31)):
                if rng.random() < 0.6:
                    said[lance] = has if rng.random() < 0.6 else not has
            if said:
                declared[str(seat)] = said
    fourth = "juego" if juego_sides or rng.random() < 0.05 else "punto"
    lances: dict[str, Any] = {}
    for lance in ("grande", "chica", "pares", fourth):
        if rng.random() < 0.12:
            lances[lance] = {"bets": []}
        elif rng.random() < 0.4:
            lances[lance] = _bets(rng)
    winners: dict[str, str] = {}
    if not shown_all or rng.random() < 0.1:
        for lance in ("grande", "chica", "pares", fourth):
            if rng.random() < 0.7:
                winners[lance] = rng.choice("AB")
    record: dict[str, Any] = {}
    if not vaca:
        record["rules"] = {"players": players, "reyes": reyes, "target": target,
                           "real31": real31}
        record["mano"] = rng.randrange(players)
        near = rng.random() < 0.3
        record["score"] = {side: (rng.randrange(max(0, target - 6), target) if near
                                  else rng.randrange(target)) for side in "AB"}
    record["hands"] = hands
    if jugadas:
        record["jugadas"] = jugadas
    if declared:
        record["declared"] = declared
    if lances:
        record["lances"] = lances
    if winners:
        record["winners"] = winners
    return record


def vaca_record(rng: random.Random, players: int) -> dict[str, Any]:
    """A random vaca: valid hands, piedras and perete taps among them, now and then a hand
    that breaks a rule or comes after the vaca was won (kept as chosen by the engine of
    the time: each entry is dealt again until the vaca so far replays, but for those)."""
    from muscore.rules import RuleError, replay

    perete = rng.random() < 0.3
    rules: dict[str, Any] = {"players": players, "target": rng.choice([10, 20, 30]),
                             "juegos": rng.choice([1, 2, 3]), "reyes": rng.choice([8, 4])}
    if perete:
        rules["perete"] = True
    vaca: dict[str, Any] = {"rules": rules, "mano": rng.randrange(players), "hands": []}
    for _ in range(rng.randint(1, 30)):
        for _attempt in range(50):
            roll = rng.random()
            entry: dict[str, Any]
            if roll < 0.12:
                entry = {"piedras": {"side": rng.choice("AB"),
                                     "n": rng.choice([1, 5, -1, 10, 40])}}
            elif roll < 0.17:
                entry = {"perete": {"side": rng.choice("AB")}}
            else:
                entry = hand_record(rng, players, vaca=True)
            try:
                done = replay({**vaca, "hands": [*vaca["hands"], entry]})
            except RuleError:
                if rng.random() < 0.01:
                    vaca["hands"].append(entry)  # a wrong entry, on purpose
                    return vaca
                continue
            vaca["hands"].append(entry)
            if done["winner"] is not None:
                if rng.random() < 0.1:  # a hand after the vaca was won
                    vaca["hands"].append(hand_record(rng, players, vaca=True))
                return vaca
            break
    return vaca


def hand_records(rng: random.Random, players: int, count: int) -> list[dict[str, Any]]:
    """``count`` random hand records, about one in five refused by the engine of the time."""
    from muscore.rules import RuleError, score

    out: list[dict[str, Any]] = []
    while len(out) < count:
        record = hand_record(rng, players)
        try:
            score(record)
        except RuleError:
            if rng.random() > 0.12:
                continue
        out.append(record)
    return out


def answer(function: Any, record: Any) -> dict[str, Any]:
    """What the engine answers: its result, or its error's code and English."""
    from muscore.rules import RuleError

    try:
        return {"result": function(record)}
    except RuleError as error:
        return {"error": str(error), "code": error.code}


def main() -> None:
    from muscore.rules import replay, score

    rng = random.Random(37)
    hands = [*hand_records(rng, 2, 1500), *hand_records(rng, 4, 400), *hand_records(rng, 6, 200)]
    vacas = [vaca_record(rng, players) for players in [2] * 100 + [4] * 30 + [6] * 20]
    for name, function, records in (("golden_hands", score, hands),
                                    ("golden_vacas", replay, vacas)):
        lines = [json.dumps({"record": r, **answer(function, r)}, ensure_ascii=False,
                            separators=(",", ":")) for r in records]
        text = ("\n".join(lines) + "\n").encode()
        (DATA / f"{name}.jsonl.gz").write_bytes(gzip.compress(text, mtime=0))


if __name__ == "__main__":
    main()
