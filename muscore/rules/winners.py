"""Who wins a lance: by the cards, by the jugadas, by a lie, or by the table's word.

The reading (:mod:`muscore.rules.reading`) says what each seat holds; this module says
which side that gives each lance, among the sides that compete for it. In pairs, and
en paso, every side that plays the lance competes; in individual play a lance held on
(quiero) is won by the best of those still in it (rules.md, "Individual play"), so the
count asks among them (``among``: a set of side indices).

A lie decides without the cards. In pairs the side that lied loses the lance to the other
side, whatever it holds (rules.md, "Declarations and lies"); in individual play a liar
can collect nothing, and the lance goes to the best honest player among those who
compete. With nobody honest there, nobody collects.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from muscore.rules.cards import (
    CHICA,
    GRANDE,
    JUEGO,
    JUEGO_ORDER,
    LETTERS,
    PARES,
    PARES_ORDER,
    PUNTO,
    Evaluation,
    Real31,
    Side,
    show,
)
from muscore.rules.errors import BettingError, RecordError
from muscore.rules.reading import LANCE_NAMES, Reading

#: Where each lance's key sits in :attr:`Evaluation.keys`.
_KEY_INDEX: dict[str, int] = {GRANDE: 0, CHICA: 1, PUNTO: 2, PARES: 3, JUEGO: 4}


def _other(side: int) -> Side:
    """The other side of a game of two sides."""
    return LETTERS[1 - side]


def _cards_of(
    evals: Sequence[Evaluation | None], seats: Sequence[int]
) -> dict[int, Evaluation] | None:
    """What the shown cards of ``seats`` hold, by seat; None when one of them showed none."""
    cards = {seat: ev for seat in seats if (ev := evals[seat]) is not None}
    return cards if len(cards) == len(seats) else None


def honest(reading: Reading, lance: str, among: Collection[int] | None) -> frozenset[int]:
    """The sides among ``among`` (None: every side that plays the lance) with no liar in
    the lance: those that can collect it."""
    players = reading.players_of(lance) if among is None else frozenset(among)
    return players - reading.liar_sides(lance)


def settled(reading: Reading, lance: str, among: Collection[int] | None = None) -> Side | None:
    """The side the cards, the jugadas or a lie give the lance among the sides ``among``
    (None: every side that plays it); None when they leave it open (the table's
    `winners` then says), when nobody can collect it, or, in a partial reading, when it
    cannot tell yet. docs/contract.md, "Entering without cards".
    """
    if reading.unsure and not reading.lie_known(lance):
        return None  # a seat not entered yet said "sí": it may have lied
    liars = reading.liar_sides(lance)
    if liars:
        if reading.k == 2:  # pairs: the other side takes the lance as its winner
            return None if len(liars) == 2 else _other(next(iter(liars)))
        candidates = honest(reading, lance, among)
        if len(candidates) <= 1:
            return LETTERS[next(iter(candidates))] if candidates else None
        among = candidates
    if lance in (PARES, JUEGO):
        unsure = reading.unsure.get(lance)
        if unsure and any(
            reading.declared.get(s, {}).get(lance) is not False
            and (among is None or reading.ix[s] in among) for s in unsure
        ):
            return None  # a seat not entered yet may hold the best, or have lied
    return settled_by_cards(reading, lance, among)


def settled_by_cards(
    reading: Reading, lance: str, among: Collection[int] | None = None
) -> Side | None:
    """The side the cards and jugadas give a lance among the sides ``among`` (None: all),
    or None when they leave it open.

    docs/contract.md, "Entering without cards": grande, chica and punto need the cards
    of every seat that plays them; pares go to the best kind (the cards of the seats
    holding it decide when two sides hold it); juego to the best total, equal totals
    to the seat nearest the mano (unless two 31s meet under 31 real with a card
    missing). ``reading.order`` starts at the mano and ``max`` keeps the first of equal
    keys: that is the tie rule.
    """
    order, evals, ix = reading.order, reading.evals, reading.ix
    if among is not None:
        order = tuple(s for s in order if ix[s] in among)
    if lance == PARES:
        pares = {s: held for s in order if (held := reading.pares[s]) is not None}
        if not pares:
            return None
        kinds = {s: PARES_ORDER[kind] for s, (kind, _key) in pares.items()}
        best_kind = max(kinds.values())
        top = [s for s in pares if kinds[s] == best_kind]
        if len({ix[s] for s in top}) == 1:
            return LETTERS[ix[top[0]]]
        if any(evals[s] is None for s in top):
            return None
        return LETTERS[ix[max(top, key=lambda s: pares[s][1])]]
    if lance == JUEGO:
        juego = {s: total for s in order if (total := reading.juego[s]) is not None}
        if not juego:
            return None
        ranks = {s: JUEGO_ORDER[total] for s, total in juego.items()}
        best_total = max(ranks.values())
        top = [s for s in juego if ranks[s] == best_total]
        top_cards = _cards_of(evals, top)
        if top_cards is not None:
            return LETTERS[ix[max(top, key=lambda s: top_cards[s].juego_rank)]]
        if len({ix[s] for s in top}) == 1:
            return LETTERS[ix[top[0]]]
        if juego[top[0]] == 31 and reading.rules.real31 is not Real31.NO:
            return None  # a missing 31 may be the 31 real: the table says who won
        return LETTERS[ix[top[0]]]
    denied = reading.denied_juego
    players = [s for s in order if not (lance == PUNTO and s in denied)]
    cards = _cards_of(evals, players)
    if not players or cards is None:
        return None
    if lance == GRANDE:
        best = max(players, key=lambda s: cards[s].grande)
    elif lance == CHICA:
        best = max(players, key=lambda s: cards[s].chica)
    else:
        best = max(players, key=lambda s: cards[s].total)
    return LETTERS[ix[best]]


def showdown(reading: Reading) -> dict[str, Side]:
    """Every lance's winning side when every seat showed its cards, among all who play it.

    One pass from the mano round the table; only a strictly better hand takes a
    lance over, so the seat nearer the mano keeps it on a tie. Pares and juego
    appear only when somebody plays them (a seat that said "no" does not), and punto
    leaves out a seat that denied its juego.
    """
    evals, pares, juego, denied = reading.evals, reading.pares, reading.juego, reading.denied_juego
    g_seat = c_seat = t_seat = p_seat = j_seat = -1
    g_key = c_key = t_key = p_key = j_key = -(1 << 30)
    for seat in reading.order:
        ev = evals[seat]
        assert ev is not None  # asked only when every seat showed its cards (counting.py)
        g, c, t, p, j = ev.keys
        if g > g_key:
            g_key, g_seat = g, seat
        if c > c_key:
            c_key, c_seat = c, seat
        if t > t_key and not (denied and seat in denied):
            t_key, t_seat = t, seat
        if p > p_key and pares[seat] is not None:
            p_key, p_seat = p, seat
        if j > j_key and juego[seat] is not None:
            j_key, j_seat = j, seat
    ix = reading.ix
    out: dict[str, Side] = {
        GRANDE: LETTERS[ix[g_seat]],
        CHICA: LETTERS[ix[c_seat]],
    }
    if t_seat >= 0:
        out[PUNTO] = LETTERS[ix[t_seat]]
    if p_seat >= 0:
        out[PARES] = LETTERS[ix[p_seat]]
    if j_seat >= 0:
        out[JUEGO] = LETTERS[ix[j_seat]]
    return out


def best_seat(reading: Reading, lance: str, among: Collection[int] | None = None) -> int | None:
    """The seat whose shown cards win ``lance`` among the sides ``among`` (None: all who
    play it), or None when the cards do not decide it.

    Only the seats that play the lance compete (pares and juego: the seats holding them,
    not one that said "no"; punto: not a seat that denied its juego), and a strictly
    better hand takes it over going round from the mano, so the seat nearest the mano
    wins a tie, as in :func:`showdown`. In pairs it needs every seat's cards, and a lie
    gives the lance without them (None); in individual play it needs the cards of the
    seats that compete, and a liar never wins (the best honest player does). None when
    nobody can win the lance.
    """
    liars = reading.liar_sides(lance)
    if reading.k == 2:
        if len(reading.shown) < reading.n or liars:
            return None
    elif liars:
        among = honest(reading, lance, among)
    index = _KEY_INDEX[lance]
    ix, evals = reading.ix, reading.evals
    best, best_key = None, -(1 << 30)
    for seat in reading.order:
        if among is not None and ix[seat] not in among:
            continue
        if lance == PARES and reading.pares[seat] is None:
            continue
        if lance == JUEGO and reading.juego[seat] is None:
            continue
        if lance == PUNTO and seat in reading.denied_juego:
            continue
        ev = evals[seat]
        if ev is None:
            return None
        key = ev.keys[index]
        if key > best_key:
            best, best_key = seat, key
    return best


def read_winners(
    data: object, reading: Reading, among: Mapping[str, frozenset[int]] | None = None
) -> dict[str, Side]:
    """The winners a table gave for lances its missing cards leave open, checked.

    A winner the cards, the jugadas or a lie already settle must agree with them; one
    for a lance nobody can win (nobody holds it, or nobody honest) is refused or
    ignored as the contract says. ``among`` (individual play): for a lance held on, the
    sides still in it, the only ones that can win it.
    """
    if not isinstance(data, Mapping):
        raise RecordError("not_a", field="winners", what="object", got=show(data))
    if reading.k > 2:
        return _read_winners_alone(data, reading, among or {})
    winners: dict[str, Side] = {}
    for lance, side in data.items():
        _check_winner_words(lance, side, reading)
        if lance in (PARES, JUEGO):
            sides = reading.sides[lance]
            if not reading.maybe[lance]:
                if not sides:
                    raise RecordError("winner_nobody", lance=lance, got=side)
                only = LETTERS[next(iter(sides))]
                if len(sides) == 1 and side != only:
                    raise RecordError("winner_not_holder", lance=lance, got=side, side=only)
        liar = reading.liar_side(lance)
        if liar is not None:
            if liar < 0:
                continue  # both sides lied: nobody wins the lance, whatever is given
            by_lie = _other(liar)
            if side != by_lie:
                raise RecordError(
                    "winner_contradicts_lie", lance=lance, side=by_lie, got=side,
                    seat=reading.lied[lance][0],
                )
            continue
        by_cards = settled(reading, lance)
        if by_cards is not None and by_cards != side:
            if len(reading.shown) == reading.n:
                raise RecordError("winner_contradicts", lance=lance, side=by_cards, got=side)
            raise RecordError(
                "winner_contradicts_jugadas", lance=lance, side=by_cards, got=side,
                **reading.best_holders(lance, by_cards),
            )
        winners[lance] = Side(side)
    return winners


def player_list(sides: Collection[int]) -> tuple[str, ...]:
    """Players by letter, in seat order, for an error's params (each language joins
    them in its words: "A, C and D")."""
    return tuple(LETTERS[i].value for i in sorted(sides))


def _read_winners_alone(
    data: Mapping[str, Any], reading: Reading, among: Mapping[str, frozenset[int]]
) -> dict[str, Side]:
    """:func:`read_winners` in individual play: each winner is the player who collected the
    lance, one of those who could (who play it, still in it, honest)."""
    winners: dict[str, Side] = {}
    for lance, side in data.items():
        _check_winner_words(lance, side, reading)
        got = LETTERS.index(Side(side))
        players = reading.players_of(lance)
        if lance in (PARES, JUEGO) and not reading.maybe[lance]:
            if not players:
                raise RecordError("winner_nobody_player", lance=lance, got=side)
            if got not in players:
                raise RecordError("winner_not_player", lance=lance, got=side,
                                  players=player_list(players))
        competing = among.get(lance, players)
        if got not in competing and (lance not in (PARES, JUEGO) or not reading.maybe[lance]):
            raise RecordError("winner_out", lance=lance, got=side,
                              players=player_list(competing))
        liars = reading.liar_sides(lance)
        if got in liars:
            seat = next(s for s in reading.lied[lance] if reading.ix[s] == got)
            raise RecordError("winner_liar", lance=lance, got=side, seat=seat)
        if liars and not honest(reading, lance, competing):
            continue  # nobody honest: nobody wins the lance, whatever is given
        by_rules = settled(reading, lance, competing)
        if by_rules is not None and by_rules != side:
            if liars & competing:
                raise RecordError("winner_contradicts_lie_player", lance=lance,
                                  side=by_rules, got=side, seat=reading.lied[lance][0])
            seats = [s for s in reading.order if reading.ix[s] in competing]
            if lance not in (PARES, JUEGO) or all(reading.evals[s] is not None for s in seats):
                raise RecordError("winner_contradicts_player", lance=lance, side=by_rules,
                                  got=side)
            holders = reading.best_holders(lance, by_rules, other=side)
            if "other_seat" not in holders:  # the named player holds nothing to compare
                raise RecordError("winner_not_player", lance=lance, got=side,
                                  players=player_list(players))
            raise RecordError("winner_contradicts_jugadas_player", lance=lance, side=by_rules,
                              got=side, **holders)
        winners[lance] = Side(side)
    return winners


def _check_winner_words(lance: object, side: object, reading: Reading) -> None:
    """A winner names a lance of the hand (juego or punto as the cards say) and a side
    of the table."""
    if lance not in LANCE_NAMES:
        raise RecordError("lance_name", key=str(lance)[:40])
    if lance == JUEGO and reading.fourth == PUNTO:
        raise BettingError("juego_not_punto")
    if lance == PUNTO and reading.fourth == JUEGO:
        seat = reading.first_juego_seat()
        raise BettingError("punto_not_juego", seat=seat)
    if reading.k == 2:
        if side != "A" and side != "B":
            raise RecordError("winner_value", lance=lance, got=show(side))
    elif side not in LETTERS[:reading.k]:
        raise RecordError("winner_player", lance=lance, got=show(side),
                          letters=player_list(range(reading.k)))


__all__ = ["best_seat", "honest", "player_list", "read_winners", "settled", "settled_by_cards",
           "showdown"]
