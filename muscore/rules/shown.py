"""The common hand scored in one pass: every seat's cards shown, nothing else said.

Most records a scorer sees (the API, the command line, a replay) show all the cards
and carry no ``jugadas``, ``declared`` or ``winners``: nobody lied or denied, every
lance's winner is in the cards. For them :func:`score_shown` reads the cards, finds
each lance's winner and counts in one pass, without the general path's reading
(:mod:`muscore.rules.reading`) and tally (:mod:`muscore.rules.counting`), which also
serve partial hands, lies and hands entered without cards. It applies the same rules
(rules.md, "The count"; in individual play "Individual play": a lance held on goes to
the best of those still in it), and gives up (returns None) on anything unusual, which
the general path then scores or refuses with its error. tests/rules/test_shown.py
holds it equal to the general path on random records, pairs and individual play
(issue 37: ``score()`` within 1.5 times a JSON round trip of the record).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from muscore.rules.betting import Betting
from muscore.rules.cards import (
    CHICA,
    GRANDE,
    HAND_CACHES,
    JUEGO,
    LETTERS,
    PACKED_EIGHTS,
    PACKED_PLUS_3,
    PARES,
    PARES_PREMIUM,
    PUNTO,
    SCORE_OF,
    SEATS_FROM,
    SIDE_INDEX,
    Rules,
)
from muscore.rules.errors import RuleError

_SEAT_TEXT = tuple(str(seat) for seat in range(6))
_LANCE_KEYS = frozenset((GRANDE, CHICA, PARES, JUEGO, PUNTO))
#: Where each lance's key sits in a seat's flat tuple (see _FLAT).
_KEY: dict[str, int] = {GRANDE: 0, CHICA: 1, PUNTO: 2, PARES: 3, JUEGO: 4}
_NO_BETS: dict[str, Any] = {}  # never written


def score_shown(
    record: Mapping[str, Any], rules: Rules, mano: int, scores: Sequence[int]
) -> dict[str, Any] | None:
    """The contract's result of a record whose every seat shows cards already read
    (the memo of :func:`~muscore.rules.cards.read_hand`), or None when the record is
    not that simple case: the caller then scores it the general way. ``scores``: each
    side's piedras before the hand, in side order."""
    read = _read(record, rules, mano)
    if read is None:
        return None
    lances_in = record.get("lances")
    bettings: dict[str, _Quick] = _NO_BETS
    if lances_in is not None:
        found = _bettings(lances_in, rules.sides, read)
        if found is None:
            return None
        bettings = found
    now = list(scores)
    steps: list[dict[str, Any]] = []
    fourth = read[4]
    lances = {GRANDE: {"side": None, "points": 0}, CHICA: {"side": None, "points": 0},
              PARES: {"side": None, "points": 0}, fourth: {"side": None, "points": 0}}
    result: dict[str, Any] = {"score": None, "winner": None, "ended_by": None,
                              "lances": lances, "recuento": steps}
    score_of = SCORE_OF[rules.sides]
    if not bettings or not _dejes(read, bettings, now, result, score_of, rules.target):
        _count(read, bettings, now, result, score_of, rules)
    result["score"] = score_of(now)
    return result


#: What the one pass reads of the cards (see _read): each lance's best side among all who
#: play it, the sides holding pares and juego (bit i for the side of index i), each seat's
#: flat tuple, the fourth lance, the speaking order and each seat's side. A plain tuple:
#: made for every hand of every replay.
_Read = tuple[dict[str, Any], int, int, list[Any], str, tuple[int, ...], tuple[int, ...]]


def _best(read: _Read, lance: str, out: int) -> Any:
    """The winning side of a lance held on: its best hand; in individual play, with
    players gone (``out``: bit i for the side of index i), the best of those still in."""
    if not out:
        return read[0][lance]
    key = _KEY[lance]
    held = 5 if lance is PARES else 6 if lance is JUEGO else -1
    _wins, _pares, _juego, flats, _fourth, order, ix = read
    best, best_key = -1, -(1 << 30)
    for seat in order:
        if out >> ix[seat] & 1:
            continue
        flat = flats[seat]
        if held >= 0 and flat[held] is None:
            continue
        if flat[key] > best_key:
            best, best_key = seat, flat[key]
    return LETTERS[ix[best]]


def _dejes(read: _Read, bettings: dict[str, _Quick], now: list[int], result: dict[str, Any],
           score_of: Callable[[Sequence[int]], dict[str, int]], target: int) -> bool:
    """The betting as played: a rejected bet's deje at once, an accepted órdago; whether
    either ended the juego."""
    lances = result["lances"]
    for lance in (GRANDE, CHICA, PARES, read[4]):
        betting = bettings.get(lance)
        if betting is None:
            continue
        last, side, _stake, points, ordago, quiero, out, _bettors = betting
        if not quiero:
            now[last] += points
            result["recuento"].append({"lance": lance, "side": side, "points": points,
                                       "why": "deje", "score": score_of(now)})
            credited = lances[lance]
            credited["side"] = side
            credited["points"] += points
            if now[last] >= target:
                result["winner"], result["ended_by"] = side, "deje"
                return True
        elif ordago:  # accepted: whoever wins the lance wins the juego
            won = _best(read, lance, out)
            lances[lance] = {"side": won, "points": 0}
            result["winner"], result["ended_by"] = won, "ordago"
            result["ordago"] = {"lance": lance, "side": won}
            return True
    return False


def _count(read: _Read, bettings: dict[str, _Quick], now: list[int], result: dict[str, Any],
           score_of: Callable[[Sequence[int]], dict[str, int]], rules: Rules) -> None:
    """The count at the showdown, in lance order, stopping at the target (rules.md, "What
    each lance pays")."""
    wins, steps, lances, target = read[0], result["recuento"], result["lances"], rules.target
    for lance in (GRANDE, CHICA, PARES, read[4]):
        betting = bettings.get(lance) if bettings else None
        step: dict[str, Any] | None
        if lance is PARES or lance is JUEGO:
            step = _jugada(read, lance, betting, rules)
            if step is None:
                continue
            side = step["side"]
        elif betting is None:
            side = wins[lance]
            step = {"lance": lance, "side": side, "points": 1, "why": "paso"}
        elif betting[5]:  # held on
            stake = betting[2]
            side = _best(read, lance, betting[6])
            step = {"lance": lance, "side": side,
                    "points": stake + 1 if lance is PUNTO else stake, "why": "quiero",
                    "stake": stake}
        elif lance is PUNTO:
            side = betting[1]
            step = {"lance": lance, "side": side, "points": 1, "why": "no_quiero"}
        else:
            continue  # a rejected grande or chica was paid by its deje
        points = step["points"]
        index = SIDE_INDEX[side]
        now[index] += points
        step["score"] = score_of(now)
        steps.append(step)
        credited = lances[lance]
        credited["side"] = side
        credited["points"] += points
        if now[index] >= target:
            result["winner"], result["ended_by"] = side, "recuento"
            return


def _jugada(read: _Read, lance: str, betting: _Quick | None, rules: Rules
            ) -> dict[str, Any] | None:
    """Pares or juego at the count: the collector's premiums (every holder of his side),
    plus the stake when held on; None when nobody collects."""
    sides = read[1] if lance is PARES else read[2]
    if not sides:
        return None
    stake = 0
    side: Any
    if not sides & (sides - 1):  # one side holds it: no betting, its premiums
        side, why = LETTERS[sides.bit_length() - 1], "solo"
    elif betting is None:
        side, why = read[0][lance], "paso"
    elif betting[5]:  # held on
        side, why, stake = _best(read, lance, betting[6]), "quiero", betting[2]
    else:
        side, why = betting[1], "no_quiero"
    points = stake
    detail = []
    flats = read[3]
    held_at = 5 if lance is PARES else 6
    for seat in range(SIDE_INDEX[side], rules.players, rules.sides):
        held = flats[seat][held_at]
        if held is not None:
            worth = PARES_PREMIUM[held] if held_at == 5 else 3 if held == 31 else 2
            detail.append({"seat": seat, "jugada": held, "points": worth})
            points += worth
    if not points:
        return None
    step = {"lance": lance, "side": side, "points": points, "why": why, "premiums": detail}
    if stake:
        step["stake"] = stake
    return step


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


def _read(record: Mapping[str, Any], rules: Rules, mano: int) -> _Read | None:
    """What the cards hold (see _Read); None unless every seat's cards are a spelling
    already read and the deck's counts are plainly right."""
    hands = record.get("hands")
    n = rules.players
    if type(hands) is not dict or len(hands) != n:
        return None
    known = _FLAT.get((rules.reyes, rules.real31)) or {}
    ix = rules.seat_sides
    order = SEATS_FROM[n][mano]
    flats: list[Any] = [None] * n
    packed = pares_sides = juego_sides = 0
    # The showdown: going round from the mano, only a strictly better hand takes a lance
    # over, so the seat nearer the mano keeps it on a tie.
    g_seat = c_seat = t_seat = p_seat = j_seat = -1
    g_key = c_key = t_key = p_key = j_key = -(1 << 30)
    for seat in order:
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
            pares_sides |= 1 << ix[seat]
            if p > p_key:
                p_key, p_seat = p, seat
        if total is not None:
            juego_sides |= 1 << ix[seat]
            if j > j_key:
                j_key, j_seat = j, seat
    if (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        return None  # maybe more than four of a card: the general path says
    fourth: str = JUEGO if juego_sides else PUNTO
    wins: dict[str, Any] = {GRANDE: LETTERS[ix[g_seat]], CHICA: LETTERS[ix[c_seat]],
            fourth: LETTERS[ix[j_seat if juego_sides else t_seat]]}
    if p_seat >= 0:
        wins[PARES] = LETTERS[ix[p_seat]]
    return wins, pares_sides, juego_sides, flats, fourth, order, ix


def _bettings(lances_in: object, k: int, read: _Read) -> dict[str, _Quick] | None:
    """Each lance's betting, for the lances somebody bet in; None when the record's
    lances hold anything the general path refuses (it names the error)."""
    if type(lances_in) is not dict:
        return None
    out: dict[str, _Quick] = {}
    everybody = (1 << k) - 1
    pares_sides, juego_sides, fourth = read[1], read[2], read[4]
    for key, data in lances_in.items():
        if key not in _LANCE_KEYS or (key in (JUEGO, PUNTO) and key != fourth):
            return None
        betting = _quick(data, k) if type(data) is dict else None
        if betting is None:
            try:
                betting = _quick_of(Betting(key, data, sides=k))
            except RuleError:
                return None
        if betting is _PASSED:
            continue  # passed by all
        players = pares_sides if key == PARES else juego_sides if key == JUEGO else everybody
        if players & (players - 1) == 0:
            return None  # a bet where one side, or nobody, holds the jugada: an error
        last, _side, _stake, _deje, _ordago, quiero, left, bettors = betting
        if bettors & ~players or left & ~players or (
                quiero and not players & ~left & ~(1 << last)):
            # A bet or a leaver who does not play the lance, or a quiero with nobody
            # left to say it (individual play): an error.
            return None
        out[key] = betting
    return out


#: A lance's betting as the one pass reads it, a Betting's figures as a plain tuple (made
#: for every lance bet in): the last bettor's index and Side, the stake, the deje, whether
#: the last bet is an órdago, whether it was held on, and who left the lance and who bet in
#: it as bits (bit i for the side of index i).
_Quick = tuple[int, Any, int, int, bool, bool, int, int]
_PASSED: _Quick = (-1, None, 0, 0, False, False, 0, 0)


def _quick_of(betting: Betting) -> _Quick:
    """A Betting read the long way (a shape :func:`_quick` leaves to it) as a _Quick."""
    if betting.last_side is None:
        return _PASSED
    return (betting.last, betting.last_side, betting.stake, betting.deje, betting.ordago,
            betting.quiero, sum(1 << side for side in betting.out),
            sum(1 << side for side in set(betting.bettors)))


def _quick(data: dict[str, Any], k: int) -> _Quick | None:
    """The betting of a lance in its plain shape (bets by turns, an answer, who left),
    read in a few steps; None for anything else: :class:`Betting` reads it, and refuses
    it naming the error. tests/rules/test_shown.py holds the two alike."""
    bets = data.get("bets")
    if type(bets) is not list:
        return None
    end = data.get("end")
    size = len(data)
    if not bets:
        return _PASSED if size == 1 else None
    if end != "quiero" and end != "no_quiero":
        return None
    out = 0
    if size != 2:
        left = data.get("out")
        if size != 3 or k == 2 or type(left) is not list or not left:
            return None
        for said in left:
            side = SIDE_INDEX.get(said, 9) if type(said) is str else 9
            if side >= k or out >> side & 1:
                return None
            out |= 1 << side
    total = before = 0
    last = -1
    ordago = False
    bettors = 0
    for bet in bets:
        if ordago or type(bet) is not dict or len(bet) != 2:
            return None
        said = bet.get("side")
        side = SIDE_INDEX.get(said, 9) if type(said) is str else 9
        n = bet.get("n")
        if side >= k or side == last:
            return None
        if type(n) is int and n >= 1:
            if last < 0 and n < 2:
                return None
            before = total
            total += n
        elif n == "ordago":
            ordago = True
            before = total
        else:
            return None
        last = side
        bettors |= 1 << side
    if out >> last & 1:
        return None
    return (last, LETTERS[last], total, 1 if len(bets) == 1 else before, ordago,
            end == "quiero", out, bettors)
