"""Individual play for the property tests: random tables talked through, and a plain oracle.

:func:`talk` plays a lance's betting as a table of N players talks it (rules.md, "Individual
play": from the mano each player passes or bets; once a bet stands every other player still
in answers it in turn, quiero, no quiero or a raise; a no quiero leaves the lance) and
gives the record's ``bets``/``out``/``end`` with the words said, tap by tap.
:func:`individual_records` deals such hands. :func:`oracle` scores a record of shown cards
from rules.md's text alone, deliberately plain and sharing no code with the engine (card
ranks and values from tests/rules/test_properties.py), so a mistake in either shows.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.rules.test_properties import JUEGO_BEST, pares_of, rank, value

LETTERS = "ABCDEF"
DECK = [index for index in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for _ in range(4)]
TEXT = {1: "A", 10: "S", 11: "C", 12: "R"}
ORDER = ("grande", "chica", "pares")

# -- a hand's cards, read plainly ---------------------------------------------------------


def cards_of(text: str) -> list[int]:
    return [{"A": 1, "S": 10, "C": 11, "R": 12}.get(t.upper(), 0) or int(t)
            for t in text.replace(",", " ").split()]


def pares_kind(cards: list[int], reyes: int) -> str | None:
    key = pares_of([rank(c, reyes) for c in cards])
    return None if key is None else {1: "par", 2: "medias", 3: "duples"}[key[0]]


def total_of(cards: list[int], reyes: int) -> int:
    return sum(value(c, reyes) for c in cards)


def key_of(lance: str, cards: list[int], rules: dict[str, Any]) -> Any:
    """What compares a hand in a lance (higher wins); None when it does not hold it."""
    reyes = rules.get("reyes", 8)
    ranks = sorted((rank(c, reyes) for c in cards), reverse=True)
    total = total_of(cards, reyes)
    if lance == "grande":
        return ranks
    if lance == "chica":
        return [-r for r in sorted(ranks)]
    if lance == "pares":
        return pares_of(ranks)
    if lance == "juego":
        if total < 31:
            return None
        real31 = rules.get("real31", "no")
        real = 0
        if total == 31 and real31 != "no" and sorted(cards)[:3] == [7, 7, 7]:
            real = int(sorted(cards)[3] in {"rey": [12], "figura": [10, 11, 12],
                                            "sota": [10]}[real31])
        return (10 - JUEGO_BEST.index(total), real)
    return total


# -- the talk of a lance -------------------------------------------------------------------


@st.composite
def talk(draw: Any, players: list[int], ordago: bool = True) -> tuple[dict[str, Any], list[Any]]:
    """A lance's betting among ``players`` (seats, in speaking order from the mano), talked
    through: the record's lance and the words, each ``(seat, word, n)`` with word one of
    "paso", "envido" (n: the piedras; a raise after a bet), "ordago", "quiero", "no_quiero"."""
    words: list[Any] = []
    bettor = None
    for seat in players:
        if draw(st.integers(0, 2)) == 0:
            bettor = seat
            break
        words.append((seat, "paso", None))
    if bettor is None:
        return {"bets": []}, words
    bets: list[dict[str, Any]] = []
    out: list[int] = []
    first = True
    while True:
        if ordago and draw(st.integers(0, 9)) == 0:
            bets.append({"side": LETTERS[bettor], "n": "ordago"})
            words.append((bettor, "ordago", None))
        else:
            n = draw(st.sampled_from([2, 2, 2, 3, 5, 10, 30])) if first else draw(
                st.integers(1, 10))
            bets.append({"side": LETTERS[bettor], "n": n})
            words.append((bettor, "envido", n))
        first = False
        k = players.index(bettor)
        answering = [s for s in players[k + 1:] + players[:k] if s not in out]
        raiser = None
        said_quiero = False
        for seat in answering:
            choice = draw(st.integers(0, 5))
            if choice <= 1 and bets[-1]["n"] != "ordago" and len(bets) < 6:
                raiser = seat
                break
            if choice <= 3:
                said_quiero = True
                words.append((seat, "quiero", None))
            else:
                out.append(seat)
                words.append((seat, "no_quiero", None))
        if raiser is None:
            lance: dict[str, Any] = {"bets": bets, "end": "quiero" if said_quiero else "no_quiero"}
            if said_quiero and out:
                lance["out"] = [LETTERS[s] for s in out]
            return lance, words
        bettor = raiser


def believed(record: dict[str, Any], lance: str) -> list[int]:
    """The seats that play pares or juego as the table believed them: a "sí" counts."""
    rules = record["rules"]
    out = []
    for seat in range(rules["players"]):
        said = record.get("declared", {}).get(str(seat), {}).get(lance)
        has = key_of(lance, cards_of(record["hands"][str(seat)]), rules) is not None
        if said is True or (said is None and has):
            out.append(seat)
    return out


@st.composite
def individual_records(draw: Any, players: int | None = None, lies: bool = True) -> dict[str, Any]:
    """A valid hand record of individual play, every seat's cards shown, its lances talked
    through (and the talk kept under ``"_talk"``: drop it before scoring)."""
    n = players or draw(st.sampled_from([2, 3, 3, 4, 5, 6]))
    rules: dict[str, Any] = {
        "players": n, "reyes": draw(st.sampled_from([8, 4])),
        "target": draw(st.sampled_from([40, 40, 30, 10])),
        "real31": draw(st.sampled_from(["no", "no", "rey", "figura"])),
    }
    if n in (4, 6) or draw(st.booleans()):
        rules["individual"] = True
    deal = draw(st.permutations(DECK))
    hands = {}
    for seat in range(n):
        hand = deal[seat * 4:seat * 4 + 4]
        hands[str(seat)] = " ".join(
            TEXT[c] if c in TEXT and draw(st.booleans()) else str(c) for c in hand)
    mano = draw(st.integers(0, n - 1))
    record: dict[str, Any] = {
        "rules": rules, "mano": mano,
        "score": {LETTERS[s]: draw(st.integers(0, rules["target"] - 1)) for s in range(n)},
        "hands": hands,
    }
    if lies and draw(st.integers(0, 3)) == 0:
        declared: dict[str, dict[str, bool]] = {}
        for seat in range(n):
            if draw(st.integers(0, 2)) == 0:
                declared[str(seat)] = {lance: draw(st.booleans()) for lance in ("pares", "juego")
                                       if draw(st.booleans())}
        declared = {s: d for s, d in declared.items() if d}
        if declared:
            record["declared"] = declared
    order = [(mano + i) % n for i in range(n)]
    juego = believed(record, "juego")
    denied = {s for s in range(n) if record.get("declared", {}).get(str(s), {}).get("juego")
              is False and key_of("juego", cards_of(hands[str(s)]), rules) is not None}
    fourth = "juego" if juego else "punto"
    lances: dict[str, Any] = {}
    talks: dict[str, Any] = {}
    for lance in (*ORDER, fourth):
        if lance in ("pares", "juego"):
            seats = [s for s in order if s in believed(record, lance)]
        elif lance == "punto":
            seats = [s for s in order if s not in denied]
        else:
            seats = order
        if len(seats) < 2:
            continue
        lances[lance], talks[lance] = draw(talk(seats))
    if lances:
        record["lances"] = lances
    record["_talk"] = talks
    return record


# -- the oracle -----------------------------------------------------------------------------


def oracle(record: dict[str, Any]) -> dict[str, Any]:
    """``score``, ``winner``, ``ended_by`` and ``lances`` of an individual record with every
    card shown, from rules.md's "Individual play" read literally."""
    rules = record["rules"]
    n, target = rules["players"], rules.get("target", 40)
    mano = record.get("mano", 0)
    order = [(mano + i) % n for i in range(n)]
    cards = {s: cards_of(record["hands"][str(s)]) for s in range(n)}
    said = {s: record.get("declared", {}).get(str(s), {}) for s in range(n)}

    def holds(seat: int, lance: str) -> bool:
        return key_of(lance, cards[seat], rules) is not None

    def liars(lance: str) -> set[int]:
        return {s for s in range(n) if said[s].get(lance) is True and not holds(s, lance)}

    def players_of(lance: str) -> set[int]:
        if lance in ("pares", "juego"):
            return {s for s in range(n) if said[s].get(lance, holds(s, lance))}
        if lance == "punto":
            return {s for s in range(n) if not (said[s].get("juego") is False
                                                and holds(s, "juego"))}
        return set(range(n))

    def best(lance: str, among: set[int]) -> int | None:
        top, top_key = None, None
        for seat in order:
            if seat not in among or (lance in ("pares", "juego") and not holds(seat, lance)):
                continue
            key = key_of(lance, cards[seat], rules)
            if top_key is None or key > top_key:
                top, top_key = seat, key
        return top

    def premium(lance: str, seat: int) -> int:
        if not holds(seat, lance):
            return 0
        if lance == "pares":
            kind = pares_kind(cards[seat], rules.get("reyes", 8))
            return {"par": 1, "medias": 2, "duples": 3}[kind or "par"]
        return 3 if total_of(cards[seat], rules.get("reyes", 8)) == 31 else 2

    fourth = "juego" if players_of("juego") else "punto"
    lances = {lance: {"side": None, "points": 0} for lance in (*ORDER, fourth)}
    score = {LETTERS[s]: record.get("score", {}).get(LETTERS[s], 0) for s in range(n)}
    bet_in = record.get("lances", {})

    def credit(lance: str, seat: int, points: int) -> bool:
        score[LETTERS[seat]] += points
        lances[lance]["side"] = LETTERS[seat]
        lances[lance]["points"] += points
        return score[LETTERS[seat]] >= target

    def done(winner: str | None, how: str | None) -> dict[str, Any]:
        return {"score": score, "winner": winner, "ended_by": how, "lances": lances}

    def about(lance: str) -> tuple[list[Any], set[int], str | None, int | None]:
        data = bet_in.get(lance, {})
        bets = data.get("bets", [])
        out = {LETTERS.index(s) for s in data.get("out", [])}
        last = LETTERS.index(bets[-1]["side"]) if bets else None
        return bets, out, data.get("end"), last

    for lance in (*ORDER, fourth):  # the betting: dejes at once, an accepted órdago
        bets, out, end, last = about(lance)
        if not bets:
            continue
        assert last is not None
        lied = liars(lance)
        if end == "no_quiero":
            deje = 1 if len(bets) == 1 else sum(b["n"] for b in bets[:-1] if b["n"] != "ordago")
            taker = last if last not in lied else best(lance, players_of(lance) - lied)
            if taker is not None and credit(lance, taker, deje):
                return done(LETTERS[taker], "deje")
        elif bets[-1]["n"] == "ordago":
            won = best(lance, ((players_of(lance) - out) | {last}) - lied)
            if won is not None:
                lances[lance] = {"side": LETTERS[won], "points": 0}
                return done(LETTERS[won], "ordago")
    for lance in (*ORDER, fourth):  # the count
        bets, out, end, last = about(lance)
        stake = sum(b["n"] for b in bets if b["n"] != "ordago")
        players = players_of(lance)
        still_in = (players - out) | ({last} if last is not None else set())
        lied = liars(lance)
        taker: int | None
        points = 0
        if lance in ("grande", "chica", "punto"):
            extra = 1 if lance == "punto" else 0
            if not players:
                continue
            if not bets:
                taker, points = best(lance, players), 1
            elif end == "quiero":
                taker, points = best(lance, still_in), stake + extra
            else:
                taker, points = last, extra
        else:
            if not players:
                continue
            if lied:
                if end == "no_quiero" and last not in lied:
                    taker = last
                elif end == "quiero":
                    taker = best(lance, still_in - lied)
                else:
                    taker = best(lance, players - lied)
            elif len(players) == 1:
                taker = next(iter(players))
            elif not bets:
                taker = best(lance, players)
            elif end == "quiero":
                taker = best(lance, still_in)
            else:
                taker = last
            if taker is not None:
                points = premium(lance, taker) + (stake if end == "quiero" else 0)
        if taker is not None and points and credit(lance, taker, points):
            return done(LETTERS[taker], "recuento")
    return done(None, None)
