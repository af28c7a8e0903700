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

from collections.abc import Mapping, Sequence
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
_NO_BETS: dict[str, Any] = {}


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
    wins, pares_sides, juego_sides, flats, fourth = read
    lances_in = record.get("lances")
    bettings: dict[str, Any] | None = {}
    if lances_in is not None:
        bettings = _bettings(lances_in, rules.sides, pares_sides, juego_sides, fourth)
        if bettings is None:
            return None
    hand = _Hand(rules, mano, scores, wins, pares_sides, juego_sides, flats, fourth)
    if not bettings:
        _count(hand, _NO_BETS)
    elif not _dejes(hand, bettings):
        _count(hand, bettings)
    result = hand.result
    result["score"] = hand.score_of(hand.now)
    return result


class _Hand:
    """What the one pass knows of the hand, and its count as it goes: plain attributes
    the functions below read into locals (this runs for every hand of every replay)."""

    __slots__ = ("k", "n", "ix", "order", "target", "wins", "pares_sides", "juego_sides",
                 "flats", "fourth", "now", "score_of", "steps", "lances", "result")

    def __init__(self, rules: Rules, mano: int, scores: Sequence[int], wins: dict[str, Any],
                 pares_sides: int, juego_sides: int, flats: list[Any], fourth: str) -> None:
        self.k = rules.sides
        self.n = rules.players
        self.ix = rules.seat_sides
        self.order = SEATS_FROM[rules.players][mano]
        self.target = rules.target
        self.wins = wins
        self.pares_sides = pares_sides
        self.juego_sides = juego_sides
        self.flats = flats
        self.fourth = fourth
        self.now = list(scores)
        self.score_of = SCORE_OF[rules.sides]
        self.steps: list[dict[str, Any]] = []
        self.lances: dict[str, dict[str, Any]] = {
            GRANDE: {"side": None, "points": 0}, CHICA: {"side": None, "points": 0},
            PARES: {"side": None, "points": 0}, fourth: {"side": None, "points": 0}}
        self.result: dict[str, Any] = {"score": None, "winner": None, "ended_by": None,
                                       "lances": self.lances, "recuento": self.steps}

    def best(self, lance: str, out: int) -> Any:
        """The winning side of a lance held on: its best hand; in individual play, with
        players gone (``out``: bit i for the side of index i), the best of those still
        in it."""
        if not out:
            return self.wins[lance]
        key = _KEY[lance]
        held = 5 if lance is PARES else 6 if lance is JUEGO else -1
        ix, flats = self.ix, self.flats
        best, best_key = -1, -(1 << 30)
        for seat in self.order:
            if out >> ix[seat] & 1:
                continue
            flat = flats[seat]
            if held >= 0 and flat[held] is None:
                continue
            if flat[key] > best_key:
                best, best_key = seat, flat[key]
        return LETTERS[ix[best]]


def _dejes(hand: _Hand, bettings: dict[str, Any]) -> bool:
    """The betting as played: a rejected bet's deje at once, an accepted órdago; whether
    either ended the juego."""
    result = hand.result
    lances = hand.lances
    for lance in (GRANDE, CHICA, PARES, hand.fourth):
        betting = bettings.get(lance)
        if betting is None:
            continue
        if not betting.quiero:
            side = betting.last_side
            points = betting.deje
            now = hand.now
            now[betting.last] += points
            hand.steps.append({"lance": lance, "side": side, "points": points, "why": "deje",
                               "score": hand.score_of(now)})
            credited = lances[lance]
            credited["side"] = side
            credited["points"] += points
            if now[betting.last] >= hand.target:
                result["winner"], result["ended_by"] = side, "deje"
                return True
        elif betting.ordago:  # accepted: whoever wins the lance wins the juego
            won = hand.best(lance, betting.out)
            lances[lance] = {"side": won, "points": 0}
            result["winner"], result["ended_by"] = won, "ordago"
            result["ordago"] = {"lance": lance, "side": won}
            return True
    return False


def _count(hand: _Hand, bettings: dict[str, Any]) -> None:
    """The count at the showdown, in lance order, stopping at the target (rules.md, "What
    each lance pays")."""
    wins, now, score_of, steps, lances = hand.wins, hand.now, hand.score_of, hand.steps, (
        hand.lances)
    for lance in (GRANDE, CHICA, PARES, hand.fourth):
        betting = bettings.get(lance) if bettings else None
        step: dict[str, Any] | None
        if lance is PARES or lance is JUEGO:
            step = _jugada(hand, lance, betting)
            if step is None:
                continue
            side = step["side"]
        elif betting is None:
            side = wins[lance]
            step = {"lance": lance, "side": side, "points": 1, "why": "paso"}
        elif betting.quiero:
            stake = betting.stake
            side = hand.best(lance, betting.out)
            step = {"lance": lance, "side": side,
                    "points": stake + 1 if lance is PUNTO else stake, "why": "quiero",
                    "stake": stake}
        elif lance is PUNTO:
            side = betting.last_side
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
        if now[index] >= hand.target:
            hand.result["winner"], hand.result["ended_by"] = side, "recuento"
            return


def _jugada(hand: _Hand, lance: str, betting: Any) -> dict[str, Any] | None:
    """Pares or juego at the count: the collector's premiums (every holder of his side),
    plus the stake when held on; None when nobody collects."""
    sides = hand.pares_sides if lance is PARES else hand.juego_sides
    if not sides:
        return None
    stake = 0
    side: Any
    if not sides & (sides - 1):  # one side holds it: no betting, its premiums
        side, why = LETTERS[sides.bit_length() - 1], "solo"
    elif betting is None:
        side, why = hand.wins[lance], "paso"
    elif betting.quiero:
        side, why, stake = hand.best(lance, betting.out), "quiero", betting.stake
    else:
        side, why = betting.last_side, "no_quiero"
    points = stake
    detail = []
    flats = hand.flats
    held_at = 5 if lance is PARES else 6
    for seat in range(SIDE_INDEX[side], hand.n, hand.k):
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


def _read(
    record: Mapping[str, Any], rules: Rules, mano: int
) -> tuple[dict[str, Any], int, int, list[Any], str] | None:
    """Each lance's winning side among all who play it, the sides holding pares and juego
    (bit i for the side of index i), each seat's flat tuple (what it holds), and the
    fourth lance; None unless every seat's cards are a spelling already read and the
    deck's counts are plainly right."""
    hands = record.get("hands")
    n = rules.players
    if type(hands) is not dict or len(hands) != n:
        return None
    known = _FLAT.get((rules.reyes, rules.real31)) or {}
    ix = rules.seat_sides
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
    return wins, pares_sides, juego_sides, flats, fourth


def _bettings(
    lances_in: object, k: int, pares_sides: int, juego_sides: int, fourth: str
) -> dict[str, _Quick] | None:
    """Each lance's betting, for the lances somebody bet in; None when the record's
    lances hold anything the general path refuses (it names the error)."""
    if type(lances_in) is not dict:
        return None
    out: dict[str, _Quick] = {}
    everybody = (1 << k) - 1
    for key, data in lances_in.items():
        if key not in _LANCE_KEYS or (key in (JUEGO, PUNTO) and key != fourth):
            return None
        betting = _quick(data, k) if type(data) is dict else None
        if betting is None:
            try:
                betting = _Quick.of(Betting(key, data, sides=k))
            except RuleError:
                return None
        if betting is _PASSED:
            continue  # passed by all
        players = pares_sides if key == PARES else juego_sides if key == JUEGO else everybody
        if players & (players - 1) == 0:
            return None  # a bet where one side, or nobody, holds the jugada: an error
        if betting.bettors & ~players or betting.out & ~players or (
                betting.quiero and not players & ~betting.out & ~(1 << betting.last)):
            # A bet or a leaver who does not play the lance, or a quiero with nobody
            # left to say it (individual play): an error.
            return None
        out[key] = betting
    return out


class _Quick:
    """A lance's betting as the one pass reads it: a :class:`Betting`'s figures, with
    who bet and who left as bits (bit i for the side of index i)."""

    __slots__ = ("last", "last_side", "stake", "deje", "ordago", "quiero", "out", "bettors")

    last: int
    last_side: Any
    stake: int
    deje: int
    ordago: bool
    quiero: bool
    out: int  #: the sides that left the lance
    bettors: int  #: the sides that bet in it

    @classmethod
    def of(cls, betting: Betting) -> _Quick:
        """A Betting read the long way (a shape :func:`_quick` leaves to it)."""
        if betting.last_side is None:
            return _PASSED
        quick = cls()
        quick.last, quick.last_side = betting.last, betting.last_side
        quick.stake, quick.deje = betting.stake, betting.deje
        quick.ordago, quick.quiero = betting.ordago, betting.quiero
        quick.out = sum(1 << side for side in betting.out)
        quick.bettors = sum(1 << side for side in set(betting.bettors))
        return quick


_PASSED = _Quick()


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
    quick = _Quick()
    quick.last = last
    quick.last_side = LETTERS[last]
    quick.stake = total
    quick.deje = 1 if len(bets) == 1 else before
    quick.ordago = ordago
    quick.quiero = end == "quiero"
    quick.out = out
    quick.bettors = bettors
    return quick
