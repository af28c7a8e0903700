"""A one-day tournament "a N ceros" as bars run it: pure Python, no Django.

Every round the pairs still in are drawn against each other; the loser of a match takes a
*cero*, and a pair with ``ceros`` of them (N, 1 to 5, 3 by default) is out. The last pair
in wins. This module answers one question: given the pairs, N, a seed and the rounds played
so far, what is the next round (or who has won)?

The rules it keeps, in this order:

1. Only pairs still in (fewer than N ceros) play; every pair plays at most once a round.
2. With an odd count one pair rests (*descansa*): a bye is no match, neither a win nor a
   cero; the pair just waits, as it does in the bar. The resting pair is one of those that
   have rested least. Among those, the one leaving the fewest rematches to the others
   rests, then the one with fewest ceros (the pairs closest to going out keep playing, so
   a bye does not carry a pair on its last life further), then the first in the draw.
   Guaranteed: the resting pair always has the fewest byes of the pairs still in, so the
   byes of the pairs still in never differ by more than one (no pair rests twice before
   every pair still in has rested once).
3. Among the pairings that keep rule 2, the one with the fewest rematches (then the fewest
   earlier meetings between the rematched pairs, then the draw order) is chosen: no
   rematch is ever drawn while a pairing without one exists. With two pairs left they play
   each other until one of them is out.
4. Ties are broken by the draw: the pairs still in shuffled by ``random.Random`` seeded
   with the seed and the round's number, so a round is the same whenever it is computed
   with the same seed, and a re-draw (a new seed) gives another.

Tables are numbered 1..k in the order of the matches.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from muscore.errors import MuscoreError

DEFAULT_CEROS = 3
MIN_CEROS = 1
MAX_CEROS = 5
MAX_PAIRS = 256

# Fewer rematches first, then fewer earlier meetings: a rematch costs more than any sum of
# meetings a night can have.
_REMATCH = 10_000
# The search for the cheapest pairing is exact unless a round would take more steps than
# this (never with the counts a bar has: the first cost-free pairing ends the search).
_BUDGET = 200_000


class CerosError(MuscoreError):
    """A tournament that cannot be paired: ``code`` says why, ``params`` the details."""

    family = "ceros"
    MESSAGES = {
        "bad_ceros": "The ceros that put a pair out must be a whole number from {low} to "
                     "{high}, not {value}.",
        "repeated_pair": "A pair is listed twice in the tournament.",
        "too_few_pairs": "A ceros tournament needs at least 2 pairs, not {count}.",
        "too_many_pairs": "A ceros tournament has at most {limit} pairs, not {count}.",
        "already_won": "The tournament had its winner before round {round}.",
        "bad_loser": "A match of round {round} is lost by a pair that did not play it.",
        "twice_in_round": "A pair plays twice in round {round}.",
        "not_in": "Pair {pair} plays in round {round}, but it was already out.",
        "round_order": "Match {number} is of round {round}: a ceros tournament's matches "
                       "go round by round, from round 1, each naming its round.",
        "unplayed_before": "Round {round} has a match without its result, but round "
                           "{next} was drawn after it.",
        "many_resting": "In round {round} {count} pairs still in do not play: one rests "
                        "at most.",
    }


@dataclass(frozen=True)
class Played:
    """A match played: the two pairs and the one that lost it (took a cero)."""

    first: int
    second: int
    loser: int


@dataclass(frozen=True)
class PlayedRound:
    """A finished round: its matches and the pair that rested, if any."""

    matches: tuple[Played, ...]
    bye: int | None = None


@dataclass(frozen=True)
class Table:
    """A match of the next round at table ``number`` (1..k)."""

    number: int
    first: int
    second: int


@dataclass(frozen=True)
class NextRound:
    """The next round (``number`` counts from 1), or the ``winner`` when one pair is left."""

    number: int
    tables: tuple[Table, ...] = ()
    bye: int | None = None
    winner: int | None = None


@dataclass
class PairState:
    """What a pair has done so far in the tournament."""

    pair: int
    wins: int = 0
    losses: int = 0
    byes: int = 0
    out_in_round: int | None = None
    position: int | None = None


def read_ceros(value: object) -> int:
    """N, checked: an int from 1 to 5."""
    if type(value) is not int or not MIN_CEROS <= value <= MAX_CEROS:
        raise CerosError("bad_ceros", value=value, low=MIN_CEROS, high=MAX_CEROS)
    return value


def replay(
    pairs: Sequence[int], ceros: int, history: Sequence[PlayedRound]
) -> dict[int, PairState]:
    """Each pair's wins, ceros, byes and the round it went out in, checking the history:
    only pairs still in play or rest, once a round, and each match has one of its pairs
    as loser. The positions are set once every pair but one is out, or for the pairs out."""
    ceros = read_ceros(ceros)
    if len(set(pairs)) != len(pairs):
        raise CerosError("repeated_pair")
    if len(pairs) < 2:
        raise CerosError("too_few_pairs", count=len(pairs))
    if len(pairs) > MAX_PAIRS:
        raise CerosError("too_many_pairs", count=len(pairs), limit=MAX_PAIRS)
    states = {pair: PairState(pair) for pair in pairs}
    for number, played in enumerate(history, start=1):
        alive = [p for p in pairs if states[p].losses < ceros]
        if len(alive) < 2:
            raise CerosError("already_won", round=number)
        seen: list[int] = []
        for match in played.matches:
            seen += [match.first, match.second]
            if match.loser not in (match.first, match.second):
                raise CerosError("bad_loser", round=number)
        if played.bye is not None:
            seen.append(played.bye)
        if len(set(seen)) != len(seen):
            raise CerosError("twice_in_round", round=number)
        for pair in seen:
            if pair not in states or states[pair].losses >= ceros:
                raise CerosError("not_in", round=number, pair=pair)
        for match in played.matches:
            winner = match.second if match.loser == match.first else match.first
            states[winner].wins += 1
            states[match.loser].losses += 1
            if states[match.loser].losses == ceros:
                states[match.loser].out_in_round = number
        if played.bye is not None:
            states[played.bye].byes += 1
    _place(states, ceros)
    return states


def document_rounds(
    pairs: Sequence[int], ceros: int, rounds: Sequence[int | None],
    losers: Sequence[int | None], sides: Sequence[tuple[int, int]],
) -> list[int | None]:
    """The pair resting in each round of a tournament written as a league document's
    matches (league.md, "The format"): each match's round (`rounds`), its two pairs
    (`sides`) and the pair that lost it (`losers`, None without a result), in document
    order. Checked as a tournament a N ceros: rounds 1, 2, 3... in order, only the last
    one with matches still to play, one pair still in resting at most (the rest of the
    rules as :func:`replay` checks them)."""
    by_round: list[list[int]] = []
    if len(rounds) != len(sides):
        raise ValueError("one round and one pair of sides per match")
    for number, round_ in enumerate(rounds, start=1):
        if round_ is None or round_ < 1 or round_ not in (len(by_round), len(by_round) + 1):
            raise CerosError("round_order", number=number, round=round_)
        if round_ > len(by_round):
            by_round.append([])
        by_round[-1].append(number - 1)
    byes: list[int | None] = []
    history: list[PlayedRound] = []
    for number, indices in enumerate(by_round, start=1):
        unplayed = [i for i in indices if losers[i] is None]
        if unplayed and number < len(by_round):
            raise CerosError("unplayed_before", round=number, next=number + 1)
        states = replay(pairs, ceros, history)
        playing = {p for i in indices for p in sides[i]}
        resting = [p for p in pairs if states[p].losses < ceros and p not in playing]
        if len(resting) > 1:
            raise CerosError("many_resting", round=number, count=len(resting))
        byes.append(resting[0] if resting else None)
        played = tuple(Played(*sides[i], loser) for i in indices
                       if (loser := losers[i]) is not None)
        history.append(PlayedRound(played, byes[-1]))
    replay(pairs, ceros, history)
    return byes


def _place(states: dict[int, PairState], ceros: int) -> None:
    """Positions: a pair out in a later round ranks above one out earlier; pairs out in the
    same round share the position; the winner is first."""
    alive = [s for s in states.values() if s.losses < ceros]
    for state in states.values():
        if state.out_in_round is None:
            continue
        better = sum(
            1
            for other in states.values()
            if other.out_in_round is None or other.out_in_round > state.out_in_round
        )
        state.position = better + 1
    if len(alive) == 1:
        alive[0].position = 1


def meetings(history: Iterable[PlayedRound]) -> Counter[frozenset[int]]:
    """How many times each two pairs have met."""
    return Counter(frozenset((m.first, m.second)) for r in history for m in r.matches)


def next_round(
    pairs: Sequence[int], ceros: int, history: Sequence[PlayedRound], seed: str = ""
) -> NextRound:
    """The next round of the tournament (see the module's rules), or its winner."""
    states = replay(pairs, ceros, history)
    number = len(history) + 1
    alive = [p for p in pairs if states[p].losses < ceros]
    if len(alive) == 1:
        return NextRound(number=number, winner=alive[0])
    order = sorted(alive)
    random.Random(f"{seed}:{number}").shuffle(order)
    met = meetings(history)

    def cost(a: int, b: int) -> int:
        times = met[frozenset((a, b))]
        return _REMATCH + times if times else 0

    bye: int | None = None
    players = order
    if len(order) % 2:
        fewest = min(states[p].byes for p in order)
        candidates = sorted(
            (p for p in order if states[p].byes == fewest),
            key=lambda p: (states[p].losses, order.index(p)),
        )
        best: tuple[int, list[tuple[int, int]]] | None = None
        for candidate in candidates:
            # Among equally good byes the first in (ceros, draw) order wins; a later one
            # only if it saves a rematch or an earlier meeting.
            if best is not None and best[0] == 0:
                break
            rest = [p for p in order if p != candidate]
            found, matching = _cheapest(rest, cost)
            if best is None or found < best[0]:
                best = (found, matching)
                bye = candidate
        assert best is not None
        matching = best[1]
    else:
        matching = _cheapest(players, cost)[1]
    tables = tuple(Table(i, a, b) for i, (a, b) in enumerate(matching, start=1))
    return NextRound(number=number, tables=tables, bye=bye)


def _cheapest(
    players: Sequence[int], price: Callable[[int, int], int]
) -> tuple[int, list[tuple[int, int]]]:
    """The pairing of ``players`` (an even count) of least total cost: the first player
    left plays each possible partner in turn (depth first, cheapest partners first, draw
    order among equals); the search stops at a pairing as cheap as the lower bound
    (each player's cheapest partner), and is exact within the step budget."""
    index = {p: i for i, p in enumerate(players)}
    best_cost = [-1]
    best_matching: list[list[tuple[int, int]]] = [[]]
    steps = [0]

    def bound(left: list[int]) -> int:
        # Each match costs at least half of each of its players' cheapest partner.
        total = 0
        for p in left:
            total += min(price(p, q) for q in left if q != p)
        return (total + 1) // 2

    def search(left: list[int], spent: int, chosen: list[tuple[int, int]]) -> bool:
        """True once the search may stop (a pairing at the lower bound, or out of steps)."""
        steps[0] += 1
        if not left:
            if best_cost[0] < 0 or spent < best_cost[0]:
                best_cost[0] = spent
                best_matching[0] = list(chosen)
            return spent <= floor[0]
        if best_cost[0] >= 0 and spent + bound(left) >= best_cost[0]:
            return False
        if steps[0] > _BUDGET and best_cost[0] >= 0:
            return True
        first, others = left[0], left[1:]
        partners = sorted(others, key=lambda q: (price(first, q), index[q]))
        for partner in partners:
            rest = [q for q in others if q != partner]
            chosen.append((first, partner))
            done = search(rest, spent + price(first, partner), chosen)
            chosen.pop()
            if done:
                return True
        return False

    floor = [bound(list(players))] if players else [0]
    search(list(players), 0, [])
    return max(best_cost[0], 0), best_matching[0]
