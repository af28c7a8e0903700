"""Scoring one hand: the betting, the dejes, the count (recuento) and its end.

:func:`score` reads a hand record (the JSON contract, as a dict) and returns
the contract's result dict. It is the one path every caller takes: the
typed :func:`muscore.rules.score_hand`, the vaca replay, the command line and
the web app, so the game is decided in one place.

The code builds the result dicts directly rather than through intermediate
objects: a table's whole history is replayed on every change, and the
benchmark holds scoring to a small multiple of a JSON round trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.cards import (
    CARD_TEXT,
    HAND_CACHES,
    JUEGO_ORDER,
    PACKED_EIGHTS,
    PACKED_PLUS_3,
    PARES_ORDER,
    PARES_PREMIUM,
    SEATS_FROM,
    Evaluation,
    Rules,
    check_deck,
    hand_cache,
    read_hand,
    show,
)
from muscore.rules.errors import BettingError, RecordError, ScoreError

RECORD_KEYS = frozenset(
    {"rules", "mano", "score", "hands", "jugadas", "winners", "lances", "declared"}
)
#: The keys a hand of a vaca may carry (the vaca carries rules, mano and score).
VACA_HAND_KEYS = frozenset({"hands", "jugadas", "winners", "lances", "declared"})
LANCE_NAMES = ("grande", "chica", "pares", "juego", "punto")
_BET_KEYS = frozenset({"side", "n"})
_LANCE_KEYS = frozenset({"bets", "end"})
_JUGADA_KEYS = frozenset({"pares", "juego"})
_PARES_KINDS = ("no", "par", "medias", "duples")
_JUEGO_TOTALS = frozenset(JUEGO_ORDER)
_SEAT_KEYS = {str(i): i for i in range(6)}
_DECLARED_KEYS = frozenset({"pares", "juego"})


class Betting:
    """What happened in one lance's betting (only lances where somebody bet)."""

    __slots__ = ("lance", "last_side", "stake", "deje", "ordago", "quiero")

    lance: str
    last_side: str | None  #: the side of the last bet; None when all passed
    stake: int  #: the running total of the bets (an órdago adds nothing)
    deje: int  #: what a no quiero pays the last bettor at once
    ordago: bool
    quiero: bool

    def __init__(self, lance: str, data: object) -> None:
        self.lance = lance
        if type(data) is not dict and not isinstance(data, Mapping):
            raise RecordError("not_a", field=f"lances.{lance}", what="an object", got=show(data))
        if not _LANCE_KEYS.issuperset(data):
            key = next(k for k in data if k not in _LANCE_KEYS)
            raise RecordError("unknown_key", key=str(key)[:40], where=f"lances.{lance}")
        bets = data.get("bets", [])
        end = data.get("end")
        if type(bets) is not list:
            raise RecordError("not_a", field=f"lances.{lance}.bets", what="a list", got=show(bets))
        last_side = None
        total = before = 0
        ordago = False
        for i, bet in enumerate(bets, 1):
            if ordago:
                raise BettingError("after_ordago", lance=lance)
            if type(bet) is not dict and not isinstance(bet, Mapping):
                raise RecordError(
                    "not_a", field=f"lances.{lance}.bets[{i}]", what="an object", got=show(bet)
                )
            if not _BET_KEYS.issuperset(bet):
                key = next(k for k in bet if k not in _BET_KEYS)
                raise RecordError("unknown_key", key=str(key)[:40], where=f"{lance}, bet {i}")
            side = bet.get("side")
            if side != "A" and side != "B":
                raise BettingError("bet_side", lance=lance, i=i, got=show(side))
            if side == last_side:
                raise BettingError("bet_own", lance=lance, side=side, i=i)
            n = bet.get("n")
            if n == "ordago":
                ordago = True
                before = total
            elif type(n) is int and n >= 1:
                before = total
                total += n
            else:
                raise BettingError("bet_n", lance=lance, i=i, got=show(n))
            last_side = side
        if last_side is None:
            if end is not None:
                raise BettingError("end_without_bets", lance=lance, got=show(end))
            self.last_side = None
            return
        if end is None:
            raise BettingError("no_answer", lance=lance)
        if end != "quiero" and end != "no_quiero":
            raise BettingError("end_value", lance=lance, got=show(end))
        self.last_side = last_side
        self.quiero = end == "quiero"
        self.ordago = ordago
        self.stake = total
        # A rejected first bet pays 1; a rejected raise (or órdago) pays what
        # stood before it.
        self.deje = 1 if len(bets) == 1 else before


def _seat(key: object, n: int, where: str) -> int:
    seat = _SEAT_KEYS.get(key) if type(key) is str else (key if type(key) is int else None)
    if seat is None or not 0 <= seat < n:
        raise RecordError("seat", key=show(key).strip('"'), players=n, last=n - 1)
    return seat


def parse_score(data: object, rules: Rules) -> tuple[int, int]:
    """The score before the hand, checked against the target."""
    if data is None:
        return 0, 0
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field="score", what="an object", got=show(data))
    for key in data:
        if key != "A" and key != "B":
            raise ScoreError("score_side", key=str(key)[:20])
    a = data.get("A", 0)
    b = data.get("B", 0)
    target = rules.target
    for side, value in (("A", a), ("B", b)):
        if type(value) is not int or value < 0:
            raise ScoreError("score_value", side=side, last=target - 1, got=show(value))
        if value >= target:
            raise ScoreError("score_at_target", side=side, got=value, target=target)
    return a, b


def parse_mano(data: object, rules: Rules) -> int:
    """The mano's seat, checked against the table's players."""
    if type(data) is not int or not 0 <= data < rules.players:
        raise RecordError("mano", last=rules.players - 1, got=show(data))
    return data


def score(record: object) -> dict[str, Any]:
    """Score one hand record; returns the contract's result (see hand-record.md).

    Raises :class:`~muscore.rules.errors.RuleError` (a ``ValueError``) naming
    what is wrong when the record breaks a rule.
    """
    if type(record) is not dict and not isinstance(record, Mapping):
        raise RecordError("not_object")
    if not RECORD_KEYS.issuperset(record):
        key = next(k for k in record if k not in RECORD_KEYS)
        raise RecordError("unknown_key", key=str(key)[:40], where="the record")
    rules = Rules.from_json(record.get("rules"))
    mano = parse_mano(record.get("mano", 0), rules)
    a, b = parse_score(record.get("score"), rules)
    return score_parts(record, rules, mano, a, b)


def score_parts(
    record: Mapping[str, Any], rules: Rules, mano: int, score_a: int, score_b: int
) -> dict[str, Any]:
    """Score a record whose rules, mano and score were already read (the vaca replay)."""
    n = rules.players
    order = SEATS_FROM[n][mano]

    # -- the cards shown, and what each seat holds ---------------------------------
    # This loop runs for every hand of every replay: the memo gives each spelling of
    # four cards already read and evaluated, and anything unusual takes the slow path.
    hands = record.get("hands")
    if hands is None:
        hands = {}
    elif type(hands) is not dict and not isinstance(hands, Mapping):
        raise RecordError("not_a", field="hands", what="an object", got=show(hands))
    shown: dict[int, tuple[int, ...]] = {}
    evals: list[Evaluation | None] = [None] * n
    # pares[seat]: (kind, key) or None; juego[seat]: total or None.
    pares: list[tuple[str, tuple[int, ...]] | None] = [None] * n
    juego: list[int | None] = [None] * n
    packed = 0
    pares_sides: set[int] = set()  # the sides (0 for A, 1 for B) holding pares
    juego_sides: set[int] = set()
    known = HAND_CACHES.get((rules.reyes, rules.real31)) or hand_cache(rules)
    for key, text in hands.items():
        try:
            seat = _SEAT_KEYS[key]
            cards, ev, counts = known[text]
        except (KeyError, TypeError):
            seat = _seat(key, n, "hands")
            cards, ev, counts = read_hand(text, rules, seat)
        if seat >= n:
            _seat(key, n, "hands")  # raises: no such seat at this table
        shown[seat] = cards
        evals[seat] = ev
        packed += counts
        if ev.pares is not None:
            pares[seat] = ev.pares
            pares_sides.add(seat & 1)
        if ev.total >= 31:
            juego[seat] = ev.total
            juego_sides.add(seat & 1)
    if (packed + PACKED_PLUS_3) & PACKED_EIGHTS:
        check_deck(shown, packed)
    jugadas = record.get("jugadas")
    if jugadas is not None or len(shown) < n:
        _read_jugadas(jugadas, n, evals, pares, juego, shown)
        pares_sides = {s & 1 for s in range(n) if pares[s] is not None}
        juego_sides = {s & 1 for s in range(n) if juego[s] is not None}

    # Lies (rules.md, "Lies"): a seat that said it had the jugada and shows it has
    # not makes its side lose the lance; a seat that wrongly said it had none did
    # not play it. `lied[lance]` holds the liars' seats.
    declared = record.get("declared")
    lied: dict[str, list[int]] = {}
    denied_juego: frozenset[int] = frozenset()
    if declared is not None:
        lied, denied_juego = _read_declared(declared, n, evals, pares, juego)
        pares_sides = {s & 1 for s in range(n) if pares[s] is not None}
        juego_sides = {s & 1 for s in range(n) if juego[s] is not None}

    # Who plays pares and juego, by side: the lance is bet on only when both sides
    # do. A liar plays (the table believed him); his cards never win or collect.
    if lied:
        for seat in lied.get("pares", ()):
            pares_sides.add(seat & 1)
        for seat in lied.get("juego", ()):
            juego_sides.add(seat & 1)
    holders = {"pares": pares_sides, "juego": juego_sides}
    fourth = "juego" if juego_sides else "punto"

    # -- the betting of each lance ----------------------------------------------------
    lances_in = record.get("lances")
    bettings: dict[str, Betting] = {}
    if lances_in is not None:
        if type(lances_in) is not dict and not isinstance(lances_in, Mapping):
            raise RecordError("not_a", field="lances", what="an object", got=show(lances_in))
        for key, data in lances_in.items():
            if key not in LANCE_NAMES:
                raise RecordError("lance_name", key=str(key)[:40])
            if key == "juego" and fourth == "punto":
                raise BettingError("juego_not_punto")
            if key == "punto" and fourth == "juego":
                who = [s for s in order if juego[s] is not None or s in lied.get("juego", ())]
                raise BettingError(
                    "punto_not_juego", who=f"Seat {who[0]}", who_es=f"El asiento {who[0]}"
                )
            betting = Betting(key, data)
            if betting.last_side is not None:
                bettings[key] = betting

    winners_in = record.get("winners")
    winners: dict[str, str] = {}
    if winners_in is not None:
        winners = _read_winners(
            winners_in, rules, fourth, holders, order, evals, pares, juego, lied, denied_juego
        )

    # The common case, every seat's cards shown: all the lances' winners in one pass.
    showdown = _showdown(order, evals, pares, juego) if len(shown) == n else None

    def winner_of(lance: str) -> str:
        """The side that wins a lance at the showdown (a lie, the cards, else `winners`)."""
        if lied:
            liars = lied.get(lance)
            if liars:
                return "A" if liars[0] & 1 else "B"
        if showdown is not None and not (lance == "punto" and denied_juego):
            return showdown[lance]
        if winners and lance in winners:
            return winners[lance]
        side = _settled(lance, rules, order, evals, pares, juego, denied_juego)
        if side is None:
            missing = next(
                s for s in order if evals[s] is None and _plays(lance, s, pares, juego)
            )
            raise RecordError("winner_missing", lance=lance, seat=missing)
        return side

    def premiums(lance: str, side: str) -> tuple[int, list[dict[str, Any]]]:
        """What the side's holders collect: every one of them, the weaker partner too."""
        total = 0
        detail = []
        held_by = pares if lance == "pares" else juego
        for seat in range(0 if side == "A" else 1, n, 2):
            held = held_by[seat]
            if held is None:
                continue
            if lance == "pares":
                kind = held[0]  # type: ignore[index]
                points = PARES_PREMIUM[kind]
                detail.append({"seat": seat, "jugada": kind, "points": points})
            else:
                points = 3 if held == 31 else 2
                detail.append({"seat": seat, "jugada": held, "points": points})
            total += points
        return total, detail

    # -- the hand as played: dejes at once, an accepted órdago ends everything --------
    lance_order = ("grande", "chica", "pares", fourth)
    target = rules.target
    a, b = score_a, score_b
    lances_out: dict[str, dict[str, Any]] = {
        "grande": {"side": None, "points": 0},
        "chica": {"side": None, "points": 0},
        "pares": {"side": None, "points": 0},
        fourth: {"side": None, "points": 0},
    }
    steps: list[dict[str, Any]] = []
    winner: str | None = None
    ended_by: str | None = None
    ordago: dict[str, Any] | None = None
    side: str

    if bettings:
        for lance in lance_order:
            found_betting = bettings.get(lance)
            if found_betting is None:
                continue
            betting = found_betting
            if lance == "pares" or lance == "juego":
                sides = holders[lance]
                if len(sides) == 1:
                    raise BettingError(
                        "bet_one_side", lance=lance, side="B" if next(iter(sides)) else "A"
                    )
                if not sides:
                    raise BettingError("bet_nobody", lance=lance)
            elif lance == "punto" and len(denied_juego) == n:
                raise BettingError("bet_nobody", lance=lance)
            liars = lied.get(lance) if lied else None
            if liars:
                # rules.md, "Declarations and lies": the lying side loses every envite
                # of the lance; when both sides lied nobody collects anything in it.
                liar_sides = {seat & 1 for seat in liars}
                if len(liar_sides) == 2:
                    continue
            if not betting.quiero:
                # The deje goes to the side that did not lie, whoever bet.
                side = ("A" if liars[0] & 1 else "B") if liars else betting.last_side or ""
                deje = betting.deje
                if side == "A":
                    a += deje
                else:
                    b += deje
                lances_out[lance] = {"side": side, "points": deje}
                steps.append({"lance": lance, "side": side, "points": deje, "why": "deje",
                              "score": {"A": a, "B": b}})
                if (a if side == "A" else b) >= target:
                    winner, ended_by = side, "deje"
                    break
            elif betting.ordago:
                side = winner_of(lance)
                lances_out[lance] = {"side": side, "points": 0}
                winner, ended_by = side, "ordago"
                ordago = {"lance": lance, "side": side}
                if lance in lied:
                    ordago["lies"] = lied[lance]
                break

    # -- the count (recuento), in lance order, stopping at the target --------------
    if winner is None:
        for lance in lance_order:
            in_lance = bettings.get(lance) if bettings else None
            step: dict[str, Any]
            if lance == "grande" or lance == "chica" or lance == "punto":
                if lance == "punto" and len(denied_juego) == n:
                    continue  # every seat denied its juego: nobody plays punto
                extra = 1 if lance == "punto" else 0
                if in_lance is None:
                    side = winner_of(lance)
                    step = {"lance": lance, "side": side, "points": 1, "why": "paso"}
                elif in_lance.quiero:
                    side = winner_of(lance)
                    step = {"lance": lance, "side": side, "points": in_lance.stake + extra,
                            "why": "quiero", "stake": in_lance.stake}
                elif extra:
                    side = in_lance.last_side or ""
                    step = {"lance": lance, "side": side, "points": 1, "why": "no_quiero"}
                else:
                    continue
            else:
                sides = holders[lance]
                if not sides:
                    continue
                stake = 0
                liars = lied.get(lance) if lied else None
                if liars:
                    liar_sides = {seat & 1 for seat in liars}
                    if len(liar_sides) == 2:
                        continue  # both sides lied: neither can collect the lance
                    # The other side collects as if it had won: its stake and premiums.
                    side = "A" if liars[0] & 1 else "B"
                    why = "mentira"
                    if in_lance is not None and in_lance.quiero:
                        stake = in_lance.stake
                elif len(sides) == 1:
                    side = "B" if next(iter(sides)) else "A"
                    why = "solo"
                elif in_lance is None:
                    side = winner_of(lance)
                    why = "paso"
                elif in_lance.quiero:
                    side = winner_of(lance)
                    why = "quiero"
                    stake = in_lance.stake
                else:
                    side = in_lance.last_side or ""
                    why = "no_quiero"
                points, detail = premiums(lance, side)
                if not points + stake:
                    continue
                step = {"lance": lance, "side": side, "points": points + stake, "why": why,
                        "premiums": detail}
                if stake:
                    step["stake"] = stake
                if liars:
                    step["liars"] = liars
            points = step["points"]
            if side == "A":
                a += points
                reached = a >= target
            else:
                b += points
                reached = b >= target
            step["score"] = {"A": a, "B": b}
            steps.append(step)
            credited = lances_out[lance]
            credited["side"] = side
            credited["points"] += points
            if reached:
                winner, ended_by = side, "recuento"
                break

    result: dict[str, Any] = {
        "score": {"A": a, "B": b},
        "winner": winner,
        "ended_by": ended_by,
        "lances": lances_out,
        "recuento": steps,
    }
    if ordago is not None:
        result["ordago"] = ordago
    if lied:
        result["lies"] = [
            {"seat": seat, "lance": lance, "side": "B" if seat & 1 else "A"}
            for lance in ("pares", "juego") for seat in lied.get(lance, ())
        ]
    return result


def _plays(lance: str, seat: int, pares: list[Any], juego: list[Any]) -> bool:
    if lance == "pares":
        return pares[seat] is not None
    if lance == "juego":
        return juego[seat] is not None
    return True


def _settled(
    lance: str,
    rules: Rules,
    order: tuple[int, ...],
    evals: list[Evaluation | None],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
    denied_juego: frozenset[int] = frozenset(),
) -> str | None:
    """The side the cards and jugadas give a lance, or None when they leave it open.

    hand-record.md, "Entering without cards": grande, chica and punto need the cards
    of every seat that plays them; pares go to the best kind (the cards of the seats
    holding it decide when both sides hold it); juego to the best total, equal totals
    to the seat nearest the mano (unless two 31s meet under 31 real with a card
    missing). ``order`` starts at the mano and ``max`` keeps the first of equal keys:
    that is the tie rule.
    """
    seats: list[int]
    if lance == "pares":
        seats = [s for s in order if pares[s] is not None]
        if not seats:
            return None
        best_kind = max(PARES_ORDER[pares[s][0]] for s in seats)  # type: ignore[index]
        top = [s for s in seats if PARES_ORDER[pares[s][0]] == best_kind]  # type: ignore[index]
        if len({s & 1 for s in top}) == 1:
            return "B" if top[0] & 1 else "A"
        if any(evals[s] is None for s in top):
            return None
        best = max(top, key=lambda s: pares[s][1])  # type: ignore[index]
        return "B" if best & 1 else "A"
    if lance == "juego":
        seats = [s for s in order if juego[s] is not None]
        if not seats:
            return None
        best_total = max(JUEGO_ORDER[juego[s]] for s in seats)  # type: ignore[index]
        top = [s for s in seats if JUEGO_ORDER[juego[s]] == best_total]  # type: ignore[index]
        if all(evals[s] is not None for s in top):
            best = max(top, key=lambda s: evals[s].juego_rank)  # type: ignore[union-attr]
        elif len({s & 1 for s in top}) == 1:
            best = top[0]
        elif juego[top[0]] == 31 and rules.real31 != "no":
            return None  # a missing 31 may be the 31 real: the table says who won
        else:
            best = top[0]
        return "B" if best & 1 else "A"
    players = [s for s in order if not (lance == "punto" and s in denied_juego)]
    if not players or any(evals[s] is None for s in players):
        return None
    if lance == "grande":
        best = max(players, key=lambda s: evals[s].grande)  # type: ignore[union-attr]
    elif lance == "chica":
        best = max(players, key=lambda s: evals[s].chica)  # type: ignore[union-attr]
    else:
        best = max(players, key=lambda s: evals[s].total)  # type: ignore[union-attr]
    return "B" if best & 1 else "A"


def _showdown(
    order: tuple[int, ...],
    evals: list[Evaluation | None],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
) -> dict[str, str]:
    """Every lance's winning side when every seat showed its cards (see `_card_winner`).

    One pass from the mano round the table; only a strictly better hand takes a
    lance over, so the seat nearer the mano keeps it on a tie. Pares and juego
    appear only when somebody plays them (a seat that said "no" does not).
    """
    g_seat = c_seat = t_seat = p_seat = j_seat = -1
    g_key = c_key = t_key = p_key = j_key = -(1 << 30)
    for seat in order:
        g, c, t, p, j = evals[seat].keys  # type: ignore[union-attr]
        if g > g_key:
            g_key, g_seat = g, seat
        if c > c_key:
            c_key, c_seat = c, seat
        if t > t_key:
            t_key, t_seat = t, seat
        if p > p_key and pares[seat] is not None:
            p_key, p_seat = p, seat
        if j > j_key and juego[seat] is not None:
            j_key, j_seat = j, seat
    out = {
        "grande": "B" if g_seat & 1 else "A",
        "chica": "B" if c_seat & 1 else "A",
        "punto": "B" if t_seat & 1 else "A",
    }
    if p_seat >= 0:
        out["pares"] = "B" if p_seat & 1 else "A"
    if j_seat >= 0:
        out["juego"] = "B" if j_seat & 1 else "A"
    return out


def _cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards)


def _read_jugadas(
    jugadas: object,
    n: int,
    evals: list[Evaluation | None],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
    shown: Mapping[int, tuple[int, ...]],
) -> None:
    """Fill pares/juego of the seats that showed no cards from what they declared."""
    if jugadas is None:
        jugadas = {}
    if not isinstance(jugadas, Mapping):
        raise RecordError("not_a", field="jugadas", what="an object", got=show(jugadas))
    given: dict[int, Mapping[str, Any]] = {}
    for key, value in jugadas.items():
        seat = _seat(key, n, "jugadas")
        if not isinstance(value, Mapping):
            raise RecordError(
                "not_a", field=f"jugadas.{seat}", what="an object", got=show(value)
            )
        for k in value:
            if k not in _JUGADA_KEYS:
                raise RecordError("unknown_key", key=str(k)[:40], where=f"jugadas.{seat}")
        given[seat] = value
    for seat in range(n):
        value = given.get(seat)
        ev = evals[seat]
        if value is None:
            if ev is None:
                raise RecordError("no_cards_no_jugadas", seat=seat)
            continue
        for field in ("pares", "juego"):
            if field not in value and ev is None:
                raise RecordError("jugada_missing", seat=seat, field=field)
        said_pares = value.get("pares")
        said_juego = value.get("juego")
        if said_pares is not None and said_pares not in _PARES_KINDS:
            raise RecordError("jugada_pares", seat=seat, got=show(said_pares))
        if said_juego is not None and said_juego != "no" and (
            type(said_juego) is not int or said_juego not in _JUEGO_TOTALS
        ):
            raise RecordError("jugada_juego", seat=seat, got=show(said_juego))
        if ev is not None:
            # Cards and jugadas both given: they must tell the same story.
            has_pares = ev.pares.kind if ev.pares else "no"
            if said_pares is not None and said_pares != has_pares:
                raise RecordError(
                    "jugada_contradicts", seat=seat, cards=_cards_text(shown[seat]),
                    has=has_pares, lance="pares", said=show(said_pares),
                )
            has_juego: Any = ev.total if ev.total >= 31 else "no"
            if said_juego is not None and said_juego != has_juego:
                raise RecordError(
                    "jugada_contradicts", seat=seat, cards=_cards_text(shown[seat]),
                    has=has_juego, lance="juego", said=show(said_juego),
                )
            continue
        if isinstance(said_pares, str) and said_pares != "no":
            # Without cards the kind is all we know; who wins among holders then
            # comes from `winners`, so the key holds the kind alone.
            pares[seat] = (said_pares, (PARES_ORDER[said_pares],))
        if type(said_juego) is int:
            juego[seat] = said_juego


def _read_winners(
    data: object,
    rules: Rules,
    fourth: str,
    holders: Mapping[str, set[int]],
    order: tuple[int, ...],
    evals: list[Evaluation | None],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
    lied: Mapping[str, list[int]],
    denied_juego: frozenset[int],
) -> dict[str, str]:
    """The winners a table gave for lances its missing cards leave open, checked.

    A winner the cards, the jugadas or a lie already settle must agree with them.
    """
    if not isinstance(data, Mapping):
        raise RecordError("not_a", field="winners", what="an object", got=show(data))
    winners: dict[str, str] = {}
    for lance, side in data.items():
        if lance not in LANCE_NAMES:
            raise RecordError("lance_name", key=str(lance)[:40])
        if lance == "juego" and fourth == "punto":
            raise BettingError("juego_not_punto")
        if lance == "punto" and fourth == "juego":
            who = [s for s in order if juego[s] is not None or s in lied.get("juego", ())]
            raise BettingError(
                "punto_not_juego", who=f"Seat {who[0]}", who_es=f"El asiento {who[0]}"
            )
        if side != "A" and side != "B":
            raise RecordError("winner_value", lance=lance, got=show(side))
        if lance in holders:
            sides = holders[lance]
            if not sides:
                raise RecordError("winner_nobody", lance=lance, got=side)
            only = "B" if next(iter(sides)) else "A"
            if len(sides) == 1 and side != only:
                raise RecordError("winner_not_holder", lance=lance, got=side, side=only)
        liars = lied.get(lance)
        if liars:
            liar_sides = {seat & 1 for seat in liars}
            if len(liar_sides) == 2:
                continue  # both sides lied: nobody wins the lance, whatever is given
            by_lie = "A" if liars[0] & 1 else "B"
            if side != by_lie:
                raise RecordError(
                    "winner_contradicts_lie", lance=lance, side=by_lie, got=side, seat=liars[0]
                )
            continue
        by_cards = _settled(lance, rules, order, evals, pares, juego, denied_juego)
        if by_cards is not None and by_cards != side:
            if all(evals[s] is not None for s in order):
                raise RecordError("winner_contradicts", lance=lance, side=by_cards, got=side)
            raise RecordError(
                "winner_contradicts_jugadas", lance=lance, side=by_cards, got=side,
                **_best_holders(lance, order, pares, juego, by_cards),
            )
        winners[lance] = side
    return winners


def _best_holders(
    lance: str,
    order: tuple[int, ...],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
    side: str,
) -> dict[str, Any]:
    """For a message: the winning side's best jugada and the other side's best."""
    held: list[Any] = pares if lance == "pares" else juego

    def rank(seat: int) -> int:
        return PARES_ORDER[held[seat][0]] if lance == "pares" else JUEGO_ORDER[held[seat]]

    best: dict[int, int] = {}
    for seat in order:
        if held[seat] is not None and (seat & 1 not in best or rank(seat) > rank(best[seat & 1])):
            best[seat & 1] = seat
    win, lose = (0, 1) if side == "A" else (1, 0)

    def said(seat: int) -> object:
        return held[seat][0] if lance == "pares" else held[seat]

    return {"seat": best[win], "held": said(best[win]),
            "other_seat": best[lose], "other_held": said(best[lose])}


def _read_declared(
    data: object,
    n: int,
    evals: list[Evaluation | None],
    pares: list[tuple[str, tuple[int, ...]] | None],
    juego: list[int | None],
) -> tuple[dict[str, list[int]], frozenset[int]]:
    """Read what each seat declared for pares and juego: the liars by lance, and the
    seats that denied a juego they hold (they take no part in punto either).

    A seat that said it had the jugada but shows none is a liar (its side loses
    the lance); one that wrongly said it had none did not play the lance, so its
    jugada is dropped here. Declarations of seats without cards must agree with
    their jugadas: without cards a lie cannot be seen.
    """
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("not_a", field="declared", what="an object", got=show(data))
    lied: dict[str, list[int]] = {}
    denied: set[int] = set()
    for key, value in data.items():
        seat = _seat(key, n, "declared")
        if type(value) is not dict and not isinstance(value, Mapping):
            raise RecordError(
                "not_a", field=f"declared.{seat}", what="an object", got=show(value)
            )
        for lance, said in value.items():
            if lance not in _DECLARED_KEYS:
                raise RecordError("unknown_key", key=str(lance)[:40], where=f"declared.{seat}")
            if type(said) is not bool:
                raise RecordError("declared_value", seat=seat, lance=lance, got=show(said))
            held_by = pares if lance == "pares" else juego
            has = held_by[seat] is not None
            if said == has:
                continue
            if evals[seat] is None:
                raise RecordError("declared_no_cards", seat=seat, lance=lance)
            if said:
                lied.setdefault(lance, []).append(seat)
            else:
                held_by[seat] = None  # said "no": did not play the lance
                if lance == "juego":
                    denied.add(seat)
    for seats in lied.values():
        seats.sort()
    return lied, frozenset(denied)


__all__ = ["Betting", "parse_mano", "parse_score", "score", "score_parts"]
