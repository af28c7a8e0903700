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
    HAND_CACHES,
    PACKED_EIGHTS,
    PACKED_PLUS_3,
    PARES_PREMIUM,
    SCORE_OF,
    SEATS_FROM,
    SIDE_INDEX,
    SIDE_NAMES,
    Lance,
    Rules,
)
from muscore.rules.errors import RuleError

# The lances as plain str, the result's keys and values: an exact str looks up and
# compares faster than an enum member (Lance), and so does a side's letter (SIDE_NAMES).
GRANDE, CHICA, PARES, JUEGO, PUNTO = (lance.value for lance in Lance)
#: Each seat's key in the record's hands, in speaking order: by players, by mano.
_SEAT_TEXTS = {n: [tuple((seat, str(seat)) for seat in order) for order in orders]
               for n, orders in SEATS_FROM.items()}
#: The lances counted in order with where each one's key sits in a seat's flat tuple (see
#: _FLAT) and in the best seats of _read, by the fourth lance.
_PLAYED: dict[str, tuple[tuple[str, int], ...]] = {
    fourth: ((GRANDE, 0), (CHICA, 1), (PARES, 3), (fourth, 4 if fourth == JUEGO else 2))
    for fourth in (JUEGO, PUNTO)
}
#: The place of each lance a record may bet in, in the order played, by the fourth lance.
_PLACE: dict[str, dict[str, int]] = {
    fourth: {GRANDE: 0, CHICA: 1, PARES: 2, fourth: 3} for fourth in (JUEGO, PUNTO)}
#: The betting of each lance in the order played (see _bettings): nobody bet.
_NO_BETS: tuple[None, None, None, None] = (None, None, None, None)
_NOBODY_BET: list[None] = [None, None, None, None]


def score_shown(
    record: Mapping[str, object], rules: Rules, mano: int, scores: Sequence[int]
) -> dict[str, Any] | None:
    """The contract's result of a record whose every seat shows cards already read
    (the memo of :func:`~muscore.rules.cards.read_hand`), or None when the record is
    not that simple case: the caller then scores it the general way. ``scores``: each
    side's piedras before the hand, in side order."""
    read = _read(record, rules, mano)
    if read is None:
        return None
    lances_in = record.get("lances")
    bettings: Sequence[_Quick | None] = _NO_BETS
    if lances_in is not None:
        found = _bettings(lances_in, rules.sides, read)
        if found is None:
            return None
        bettings = found
    now = list(scores)
    steps: list[dict[str, Any]] = []
    # Each lance's credit is made when it is first credited (None until then), and only
    # the lances nobody was credited in get an empty one at the end.
    lances: dict[str, Any] = {GRANDE: None, CHICA: None, PARES: None, read[4]: None}
    result: dict[str, Any] = {"score": None, "winner": None, "ended_by": None,
                              "lances": lances, "recuento": steps}
    score_of = SCORE_OF[rules.sides]
    if bettings is _NO_BETS or not _dejes(read, bettings, now, result, score_of,
                                          rules.target):
        _count(read, bettings, now, result, score_of, rules)
    if None in lances.values():
        for lance in lances:
            if lances[lance] is None:
                lances[lance] = {"side": None, "points": 0}
    result["score"] = score_of(now)
    return result


#: What the one pass reads of the cards (see _read): each lance's best seat among all who
#: play it (grande, chica, punto, pares, juego; -1: nobody holds it), the sides holding
#: pares and juego (bit i for the side of index i), each seat's flat tuple, the fourth
#: lance, the speaking order and each seat's side. A plain tuple: made for every hand of
#: every replay.
_Read = tuple[tuple[int, int, int, int, int], int, int, list[Any], str, tuple[int, ...],
              tuple[int, ...]]


def _best(read: _Read, at: int, out: int) -> int:
    """The index of the side that wins a lance held on (``at``: its key's place, see
    _PLAYED): its best hand; in individual play, with players gone (``out``: bit i for
    the side of index i), the best of those still in."""
    best_seats, _pares, _juego, flats, _fourth, order, ix = read
    if not out:
        return ix[best_seats[at]]
    best, best_key = -1, -(1 << 30)
    for seat in order:
        if out >> ix[seat] & 1:
            continue
        flat = flats[seat]
        if at >= 3 and not flat[at]:
            continue  # no pares, or no juego (its key is 0)
        if flat[at] > best_key:
            best, best_key = seat, flat[at]
    return ix[best]


def _dejes(read: _Read, bettings: Sequence[_Quick | None], now: list[int],
           result: dict[str, Any], score_of: Callable[[Sequence[int]], dict[str, int]],
           target: int) -> bool:
    """The betting as played: a rejected bet's deje at once, an accepted órdago; whether
    either ended the juego."""
    lances = result["lances"]
    for (lance, at), betting in zip(_PLAYED[read[4]], bettings, strict=True):
        if betting is None:
            continue
        last, side, _stake, points, ordago, quiero, out, _bettors = betting
        if not quiero:
            now[last] += points
            result["recuento"].append({"lance": lance, "side": side, "points": points,
                                       "why": "deje", "score": score_of(now)})
            lances[lance] = {"side": side, "points": points}  # the lance's first credit
            if now[last] >= target:
                result["winner"], result["ended_by"] = side, "deje"
                return True
        elif ordago:  # accepted: whoever wins the lance wins the juego
            won = SIDE_NAMES[_best(read, at, out)]
            lances[lance] = {"side": won, "points": 0}
            result["winner"], result["ended_by"] = won, "ordago"
            result["ordago"] = {"lance": lance, "side": won}
            return True
    return False


def _count(read: _Read, bettings: Sequence[_Quick | None], now: list[int],
           result: dict[str, Any], score_of: Callable[[Sequence[int]], dict[str, int]],
           rules: Rules) -> None:
    """The count at the showdown, in lance order, stopping at the target (rules.md, "What
    each lance pays")."""
    best_seats, ix = read[0], read[6]
    steps, lances, target = result["recuento"], result["lances"], rules.target
    for (lance, at), betting in zip(_PLAYED[read[4]], bettings, strict=True):
        if at >= 3:  # pares or juego
            step = _jugada(read, lance, at, betting, now, score_of, rules)
            if step is None:
                continue
            side, points = step["side"], step["points"]
            index = SIDE_INDEX[side]
        elif betting is None:
            index = ix[best_seats[at]]
            side, points = SIDE_NAMES[index], 1
            now[index] += 1
            step = {"lance": lance, "side": side, "points": 1, "why": "paso",
                    "score": score_of(now)}
        elif betting[5]:  # held on
            stake = betting[2]
            points = stake + 1 if lance is PUNTO else stake
            index = _best(read, at, betting[6])
            side = SIDE_NAMES[index]
            now[index] += points
            step = {"lance": lance, "side": side, "points": points, "why": "quiero",
                    "stake": stake, "score": score_of(now)}
        elif lance is PUNTO:
            index, side, points = betting[0], betting[1], 1
            now[index] += 1
            step = {"lance": lance, "side": side, "points": 1, "why": "no_quiero",
                    "score": score_of(now)}
        else:
            continue  # a rejected grande or chica was paid by its deje
        steps.append(step)
        credited = lances[lance]
        if credited is None:
            lances[lance] = {"side": side, "points": points}
        else:  # after the lance's deje
            credited["side"] = side
            credited["points"] += points
        if now[index] >= target:
            result["winner"], result["ended_by"] = side, "recuento"
            return


def _jugada(read: _Read, lance: str, at: int, betting: _Quick | None, now: list[int],
            score_of: Callable[[Sequence[int]], dict[str, int]], rules: Rules
            ) -> dict[str, Any] | None:
    """Pares or juego at the count: the collector's premiums (every holder of his side),
    plus the stake when held on, added to ``now``; None when nobody collects."""
    sides = read[1] if at == 3 else read[2]
    if not sides:
        return None
    stake = 0
    if not sides & (sides - 1):  # one side holds it: no betting, its premiums
        index, why = sides.bit_length() - 1, "solo"
    elif betting is None:
        index, why = read[6][read[0][at]], "paso"
    elif betting[5]:  # held on
        index, why, stake = _best(read, at, betting[6]), "quiero", betting[2]
    else:
        index, why = betting[0], "no_quiero"
    points = stake
    detail = []
    flats = read[3]
    held_at = 6 if at == 3 else 2  # the pares' kind, or the juego's total
    for seat in rules.side_seats[index]:
        flat = flats[seat]
        if flat[at]:  # holds it (its key is not 0)
            held = flat[held_at]
            worth = PARES_PREMIUM[held] if at == 3 else 3 if held == 31 else 2
            detail.append({"seat": seat, "jugada": held, "points": worth})
            points += worth
    if not points:
        return None
    now[index] += points
    # Whole displays, in the contract's key order: a key added later can grow the dict.
    if stake:
        return {"lance": lance, "side": SIDE_NAMES[index], "points": points, "why": why,
                "premiums": detail, "stake": stake, "score": score_of(now)}
    return {"lance": lance, "side": SIDE_NAMES[index], "points": points, "why": why,
            "premiums": detail, "score": score_of(now)}


#: Per table option, each spelling of four cards as one flat tuple: the showdown's five
#: keys (grande, chica, punto: the total, pares and juego: 0 without them), the packed
#: counts and the pares' kind (None without). One
#: small tuple a hand, made from the memo of read_hand, keeps the loop below to one
#: lookup per seat and few trips to memory. The spellings of the same four cards ("R 5 4
#: R", "4 12 5 R"...) share one tuple (_SAME): a few hundred tuples stay in the CPU's
#: cache where tens of thousands, one a spelling, would each be a trip to memory.
_FLAT: dict[tuple[int, str], dict[str, tuple[Any, ...]]] = {}
_SAME: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _flat(text: str, rules: Rules) -> tuple[Any, ...] | None:
    """A spelling's flat tuple, made from the memo of read_hand; None when not read yet."""
    key = (rules.reyes, rules.real31)
    found = HAND_CACHES.get(key, {}).get(text)
    if found is None:
        return None
    _cards, ev, counts = found
    flat = (*ev.keys, counts, ev.pares[0] if ev.pares is not None else None)
    if len(_SAME) > 20_000:  # at most a few thousand hands exist, under both options
        _SAME.clear()
    flat = _SAME.setdefault(flat, flat)
    cache = _FLAT.setdefault(key, {})
    if len(cache) > 50_000:  # bounded like the memo it copies
        cache.clear()
    cache[text] = flat
    return flat


def _read(record: Mapping[str, object], rules: Rules, mano: int) -> _Read | None:
    """What the cards hold (see _Read); None unless every seat's cards are a spelling
    already read and the deck's counts are plainly right."""
    hands = record.get("hands")
    n = rules.players
    if type(hands) is not dict or len(hands) != n:
        return None
    known = _FLAT.get((rules.reyes, rules.real31)) or {}
    bits = rules.seat_bits
    flats: list[Any] = [None] * n
    packed = pares_sides = juego_sides = 0
    # The showdown: going round from the mano, only a strictly better hand takes a lance
    # over, so the seat nearer the mano keeps it on a tie.
    g_seat = c_seat = t_seat = p_seat = j_seat = -1
    g_key = c_key = t_key = p_key = j_key = -(1 << 30)
    for seat, key in _SEAT_TEXTS[n][mano]:
        try:  # subscripts, not .get: this loop runs for every seat of every hand
            flat = known[hands[key]]
        except (KeyError, TypeError):
            text = hands.get(key)
            made = _flat(text, rules) if type(text) is str else None
            if made is None:
                return None  # a seat keyed otherwise, or cards not read yet
            flat = made
        flats[seat] = flat
        g, c, t, p, j, counts, _kind = flat
        packed += counts
        if g > g_key:
            g_key, g_seat = g, seat
        if c > c_key:
            c_key, c_seat = c, seat
        if t > t_key:
            t_key, t_seat = t, seat
        if p:  # holds pares
            pares_sides |= bits[seat]
            if p > p_key:
                p_key, p_seat = p, seat
        if j:  # holds juego
            juego_sides |= bits[seat]
            if j > j_key:
                j_key, j_seat = j, seat
    if (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        return None  # maybe more than four of a card: the general path says
    return ((g_seat, c_seat, t_seat, p_seat, j_seat), pares_sides, juego_sides, flats,
            JUEGO if juego_sides else PUNTO, SEATS_FROM[n][mano], rules.seat_sides)


def _bettings(lances_in: object, k: int, read: _Read) -> Sequence[_Quick | None] | None:
    """Each lance's betting in the order played (grande, chica, pares, the fourth), None
    where nobody bet; None when the record's lances hold anything the general path
    refuses (it names the error)."""
    if type(lances_in) is not dict:
        return None
    out: list[_Quick | None] = [None, None, None, None]
    everybody = (1 << k) - 1
    pares_sides, juego_sides, fourth = read[1], read[2], read[4]
    place = _PLACE[fourth]
    for key, data in lances_in.items():
        at = place.get(key)
        if at is None:
            return None  # not a lance, or the fourth lance that is not played
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
        out[at] = betting
    return out if out != _NOBODY_BET else _NO_BETS


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
    return (betting.last, SIDE_NAMES[betting.last], betting.stake, betting.deje, betting.ordago,
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
        out = _quick_out(data.get("out"), k) if size == 3 and k > 2 else -1
        if out < 0:
            return None
    total = before = 0
    last = -1
    ordago = False
    bettors = 0
    for bet in bets:
        if ordago or type(bet) is not dict or len(bet) != 2:
            return None
        try:  # subscripts, not .get: every bet of every replay passes here
            said = bet["side"]
            n = bet["n"]
            side = SIDE_INDEX[said]
        except (KeyError, TypeError):  # TypeError: a side not even hashable
            return None
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
    return (last, SIDE_NAMES[last], total, 1 if len(bets) == 1 else before, ordago,
            end == "quiero", out, bettors)


def _quick_out(left: object, k: int) -> int:
    """The players who left a lance (``out``) as bits, bit i for the side of index i;
    -1 for anything but a plain list of players, each once."""
    if type(left) is not list or not left:
        return -1
    out = 0
    for said in left:
        side = SIDE_INDEX.get(said, 9) if type(said) is str else 9
        if side >= k or out >> side & 1:
            return -1
        out |= 1 << side
    return out
