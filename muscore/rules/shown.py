"""The common hand scored in one pass: every seat's cards shown, nothing else said.

Most records a scorer sees (the API, the command line, a replay) show all the cards
and carry no ``jugadas``, ``declared`` or ``winners``: nobody lied or denied, every
lance's winner is in the cards. For them :func:`score_shown` reads the cards, finds
each lance's winner and counts in one function, without the general path's reading
(:mod:`muscore.rules.reading`) and tally (:mod:`muscore.rules.counting`), which also
serve partial hands, lies and hands entered without cards. It applies the same rules
(rules.md, "The count"), and gives up (returns None) on anything unusual, which the
general path then scores or refuses with its error. tests/rules/test_shown.py holds it
equal to the general path on random records (issue 20: ``score()`` within 1.8 times a
JSON round trip of the record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.betting import Betting
from muscore.rules.cards import (
    CHICA,
    GRANDE,
    HAND_CACHES,
    JUEGO,
    PACKED_EIGHTS,
    PACKED_PLUS_3,
    PARES,
    PARES_PREMIUM,
    PUNTO,
    SEATS_FROM,
    SIDES,
    A,
    B,
    Rules,
)
from muscore.rules.counting import jugada_step
from muscore.rules.errors import RuleError

_SEAT_TEXT = tuple(str(seat) for seat in range(6))
_LANCE_KEYS = frozenset((GRANDE, CHICA, PARES, JUEGO, PUNTO))


def score_shown(
    record: Mapping[str, Any], rules: Rules, mano: int, score_a: int, score_b: int
) -> dict[str, Any] | None:
    """The contract's result of a record whose every seat shows cards already read
    (the memo of :func:`~muscore.rules.cards.read_hand`), or None when the record is
    not that simple case: the caller then scores it the general way."""
    read = _read(record, rules, mano)
    if read is None:
        return None
    wins, holders, flats, fourth = read
    bettings = _bettings(record, holders, fourth)
    if bettings is None:
        return None
    order = (GRANDE, CHICA, PARES, fourth)
    result: dict[str, Any] = {
        "score": None, "winner": None, "ended_by": None,
        "lances": {GRANDE: {"side": None, "points": 0}, CHICA: {"side": None, "points": 0},
                   PARES: {"side": None, "points": 0}, fourth: {"side": None, "points": 0}},
        "recuento": [],
    }
    a, b = score_a, score_b
    if bettings:
        a, b = _dejes(result, bettings, wins, order, a, b, rules.target)
    if result["winner"] is None:
        for lance in order:
            step = _step(lance, bettings.get(lance), wins, holders, flats, rules.players)
            if step is None:
                continue
            a, b, reached = _credit(result, step, a, b, rules.target)
            if reached:
                result["winner"], result["ended_by"] = step["side"], "recuento"
                break
    result["score"] = {A: a, B: b}
    return result


def _dejes(
    result: dict[str, Any], bettings: dict[str, Betting], wins: dict[str, Any],
    order: tuple[str, ...], a: int, b: int, target: int,
) -> tuple[int, int]:
    """The betting as played: a rejected bet's deje at once (the juego ends when it
    reaches the target), an accepted órdago ends the juego; the score after them."""
    for lance in order:
        betting = bettings.get(lance)
        if betting is None:
            continue
        if not betting.quiero:
            side = betting.last_side or ""
            step = {"lance": lance, "side": side, "points": betting.deje, "why": "deje"}
            a, b, reached = _credit(result, step, a, b, target)
            if reached:
                result["winner"], result["ended_by"] = side, "deje"
                break
        elif betting.ordago:  # accepted: whoever wins the lance wins the juego
            result["lances"][lance] = {"side": wins[lance], "points": 0}
            result["winner"], result["ended_by"] = wins[lance], "ordago"
            result["ordago"] = {"lance": lance, "side": wins[lance]}
            break
    return a, b


def _credit(
    result: dict[str, Any], step: dict[str, Any], a: int, b: int, target: int
) -> tuple[int, int, bool]:
    """Add a step to the recuento and its lance; the score after it and whether its
    side reached the target."""
    side = step["side"]
    points = step["points"]
    if side == A:
        a += points
        reached = a >= target
    else:
        b += points
        reached = b >= target
    step["score"] = {A: a, B: b}
    result["recuento"].append(step)
    credited = result["lances"][step["lance"]]
    credited["side"] = side
    credited["points"] += points
    return a, b, reached


#: Per table option, each spelling of four cards as one flat tuple: the showdown's five
#: keys, the pares kind (or None), the juego total (or None) and the packed counts. One
#: small tuple a hand, made from the memo of read_hand, keeps the loop below to one
#: lookup per seat and few trips to memory.
_FLAT: dict[tuple[int, str], dict[str, tuple[Any, ...]]] = {}


def _flat(text: str, rules: Rules) -> tuple[Any, ...] | None:
    """A spelling's flat tuple, made from the memo of read_hand; None when not read yet."""
    key = (rules.reyes, rules.real31)
    found = HAND_CACHES.get(key, {}).get(text)
    if found is None:
        return None
    _cards, ev, counts = found
    flat = (*ev.keys, ev.pares[0] if ev.pares is not None else None,
            ev.total if ev.total >= 31 else None, counts)
    cache = _FLAT.setdefault(key, {})
    if len(cache) > 50_000:  # bounded like the memo it copies
        cache.clear()
    cache[text] = flat
    return flat


def _read(
    record: Mapping[str, Any], rules: Rules, mano: int
) -> tuple[dict[str, Any], tuple[int, int], list[Any], str] | None:
    """Each lance's winning side, the sides holding pares and juego (bit 1 for A, 2 for
    B), each seat's flat tuple (what it holds), and the fourth lance; None unless every seat's
    cards are a spelling already read and the deck's counts are plainly right."""
    hands = record.get("hands")
    n = rules.players
    if type(hands) is not dict or len(hands) != n:
        return None
    known = _FLAT.get((rules.reyes, rules.real31)) or {}
    flats: list[Any] = [None] * n
    packed = pares_sides = juego_sides = 0
    # The showdown: going round from the mano, only a strictly better hand takes a lance
    # over, so the seat nearer the mano keeps it on a tie.
    g_seat = c_seat = t_seat = p_seat = j_seat = -1
    g_key = c_key = t_key = p_key = j_key = -(1 << 30)
    for seat in SEATS_FROM[n][mano]:
        try:  # subscripts, not .get: this loop runs for every seat of every hand
            flat = known[hands[_SEAT_TEXT[seat]]]
        except (KeyError, TypeError):
            text = hands.get(_SEAT_TEXT[seat])
            made = _flat(text, rules) if type(text) is str else None
            if made is None:
                return None  # a seat keyed otherwise, or cards not read yet
            flat = made
        flats[seat] = flat
        g, c, t, p, j, kind, total, counts = flat
        packed += counts
        if g > g_key:
            g_key, g_seat = g, seat
        if c > c_key:
            c_key, c_seat = c, seat
        if t > t_key:
            t_key, t_seat = t, seat
        if kind is not None:
            pares_sides |= 1 << (seat & 1)
            if p > p_key:
                p_key, p_seat = p, seat
        if total is not None:
            juego_sides |= 1 << (seat & 1)
            if j > j_key:
                j_key, j_seat = j, seat
    if (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        return None  # maybe more than four of a card: the general path says
    wins: dict[str, Any] = {GRANDE: SIDES[g_seat & 1], CHICA: SIDES[c_seat & 1],
                            PUNTO: SIDES[t_seat & 1],
                            PARES: SIDES[p_seat & 1] if p_seat >= 0 else None,
                            JUEGO: SIDES[j_seat & 1] if j_seat >= 0 else None}
    return wins, (pares_sides, juego_sides), flats, JUEGO if juego_sides else PUNTO


def _bettings(
    record: Mapping[str, Any], holders: tuple[int, int], fourth: str
) -> dict[str, Betting] | None:
    """Each lance's betting, for the lances somebody bet in; None when the record's
    lances hold anything the general path refuses (it names the error)."""
    lances_in = record.get("lances")
    if lances_in is None:
        return {}
    if type(lances_in) is not dict:
        return None
    out: dict[str, Betting] = {}
    for key, data in lances_in.items():
        if key not in _LANCE_KEYS or (key in (JUEGO, PUNTO) and key != fourth):
            return None
        try:
            betting = Betting(key, data)
        except RuleError:
            return None
        if betting.last_side is None:
            continue
        if (key == PARES and holders[0] != 3) or (key == JUEGO and holders[1] != 3):
            return None  # a bet where one side, or nobody, holds the jugada: an error
        out[key] = betting
    return out


def _step(
    lance: str, betting: Betting | None, wins: dict[str, Any], holders: tuple[int, int],
    flats: list[Any], n: int,
) -> dict[str, Any] | None:
    """One lance at the count (rules.md, "What each lance pays"), without its score."""
    if lance is GRANDE or lance is CHICA or lance is PUNTO:
        extra = 1 if lance is PUNTO else 0
        if betting is None:
            return {"lance": lance, "side": wins[lance], "points": 1, "why": "paso"}
        if betting.quiero:
            return {"lance": lance, "side": wins[lance], "points": betting.stake + extra,
                    "why": "quiero", "stake": betting.stake}
        if extra:
            return {"lance": lance, "side": betting.last_side or "", "points": 1,
                    "why": "no_quiero"}
        return None
    sides = holders[0] if lance is PARES else holders[1]
    if not sides:
        return None
    stake = 0
    if sides != 3:
        side: Any = SIDES[0] if sides == 1 else SIDES[1]
        why = "solo"
    elif betting is None:
        side, why = wins[lance], "paso"
    elif betting.quiero:
        side, why, stake = wins[lance], "quiero", betting.stake
    else:
        side, why = betting.last_side or "", "no_quiero"
    points = 0
    detail = []
    if lance is PARES:
        for seat in range(0 if side == A else 1, n, 2):
            kind = flats[seat][5]
            if kind is not None:
                worth = PARES_PREMIUM[kind]
                detail.append({"seat": seat, "jugada": kind, "points": worth})
                points += worth
    else:
        for seat in range(0 if side == A else 1, n, 2):
            total = flats[seat][6]
            if total is not None:
                worth = 3 if total == 31 else 2
                detail.append({"seat": seat, "jugada": total, "points": worth})
                points += worth
    return jugada_step(lance, side, why, points, stake, detail)
