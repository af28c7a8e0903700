"""A championship phase's group draw, and who goes on from heats and groups.

The draw is public and seeded: anyone holding the list of pairs (in the order given)
and the seed gets the same groups, so the app records both. It puts the pairs in groups
of ``size`` (4; sizes never more than one apart), the seeded pairs one per group (the
best seeds first: heat winners before runners-up), and as few pairs of one venue
together as the counts allow, then as few of one region. No Django import here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from muscore.errors import MuscoreError


class DrawError(MuscoreError):
    """A draw that cannot be made (too few pairs, a pair listed twice, a bad size)."""

    family = "draw"
    MESSAGES = {
        "group_size": "A group needs at least 2 pairs, not {size}.",
        "too_few_pairs": "A draw needs at least 2 pairs, not {count}.",
        "pair_twice": "Pair {key!r} is listed {times} times.",
    }


@dataclass(frozen=True)
class DrawPair:
    """A pair going into a draw: its ``key`` (any hashable id), venue, region and seed.

    ``seed`` ranks the seeded pairs (1 is the best; ``None`` for an unseeded pair).
    """

    key: Hashable
    sede: str
    region: str | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Draw:
    """The groups (lists of pair keys, the seeded pair first) and the seed that made them."""

    seed: str
    groups: tuple[tuple[Hashable, ...], ...]


def group_count(pairs: int, size: int = 4) -> int:
    """How many groups ``pairs`` pairs make in groups of ``size`` (sizes one apart at most)."""
    return max(1, -(-pairs // size))


def pairs_together(groups: Sequence[Sequence[DrawPair]], attribute: str) -> int:
    """How many pairs of pairs share a venue (``"sede"``) or a region in the same group."""
    count = 0
    for group in groups:
        values = Counter(getattr(pair, attribute) for pair in group)
        values.pop(None, None)
        count += sum(n * (n - 1) // 2 for n in values.values())
    return count


def fewest_together(pairs: Sequence[DrawPair], groups: int, attribute: str) -> int:
    """The fewest pairs of pairs of one venue (or region) ``groups`` groups can hold:
    each venue's pairs spread as evenly as they go."""
    total = 0
    for n in Counter(getattr(pair, attribute) for pair in pairs
                     if getattr(pair, attribute) is not None).values():
        whole, rest = divmod(n, groups)
        total += rest * (whole + 1) * whole // 2 + (groups - rest) * whole * (whole - 1) // 2
    return total


def draw_groups(pairs: Sequence[DrawPair], seed: str, size: int = 4) -> Draw:
    """Draw ``pairs`` into groups; the same pairs in the same order and seed, the same draw.

    The best seeded pairs (as many as groups) head one group each; then each venue's
    pairs, the largest venue first, go one by one to the group with fewest of that venue,
    then of its region, then fewest pairs (ties by the seeded random order); swaps then
    remove any same-venue (then same-region) pair the counts allow to avoid.
    """
    if size < 2:
        raise DrawError("group_size", size=size)
    if len(pairs) < 2:
        raise DrawError("too_few_pairs", count=len(pairs))
    keys = Counter(pair.key for pair in pairs)
    twice = [key for key, n in keys.items() if n > 1]
    if twice:
        raise DrawError("pair_twice", key=twice[0], times=keys[twice[0]])
    rng = random.Random(f"muscore-draw:{seed}")
    count = group_count(len(pairs), size)
    largest, big_groups = -(-len(pairs) // count), len(pairs) % count or count
    groups: list[list[DrawPair]] = [[] for _ in range(count)]
    seeded = sorted((p for p in pairs if p.seed is not None),
                    key=lambda p: p.seed if p.seed is not None else 0)[:count]
    heads = list(range(count))
    rng.shuffle(heads)
    for group, pair in zip(heads, seeded, strict=False):
        groups[group].append(pair)
    head_keys = {pair.key for pair in seeded}
    rest = [pair for pair in pairs if pair.key not in head_keys]
    by_sede: dict[str, list[DrawPair]] = {}
    for pair in rest:
        by_sede.setdefault(pair.sede, []).append(pair)
    venue_total = Counter(pair.sede for pair in pairs)
    venues = list(by_sede)
    rng.shuffle(venues)
    venues.sort(key=lambda sede: -venue_total[sede])
    tiebreak = list(range(count))
    # Each group's size and pairs per venue and region, kept as pairs go in: a phase of
    # 112 groups counted every group's pairs for each of its 448 pairs (about 1 s).
    sizes = [len(g) for g in groups]
    of_sede = [Counter(p.sede for p in g) for g in groups]
    of_region = [Counter(p.region for p in g if p.region is not None) for g in groups]
    full = sizes.count(largest)
    order = [0] * count
    for sede in venues:
        members = by_sede[sede]
        rng.shuffle(members)
        for pair in members:
            room = [i for i in range(count)
                    if sizes[i] < largest - 1 or (sizes[i] == largest - 1 and full < big_groups)]
            rng.shuffle(tiebreak)
            for n, g in enumerate(tiebreak):
                order[g] = n
            region = pair.region
            best = min(room, key=lambda i: (
                of_sede[i][sede], of_region[i][region] if region is not None else 0,
                sizes[i], order[i]))
            groups[best].append(pair)
            sizes[best] += 1
            full += sizes[best] == largest
            of_sede[best][sede] += 1
            if region is not None:
                of_region[best][region] += 1
    _improve(groups, head_keys, _Counts(of_sede, of_region))
    return Draw(seed=seed, groups=tuple(tuple(p.key for p in g) for g in groups))


class _Counts:
    """Each group's pairs per venue and per region, kept in step with the swaps, so what a
    pair adds to a group is two lookups instead of a walk through the group."""

    def __init__(self, sede: list[Counter[str]], region: list[Counter[str]]) -> None:
        self.sede, self.region = sede, region

    def cost(self, group: int, pair: DrawPair, without: DrawPair) -> tuple[int, int]:
        """What ``pair`` adds to ``group`` with ``without`` (one of its pairs) taken out:
        how many of its venue, then of its region."""
        sede = self.sede[group][pair.sede] - (without.sede == pair.sede)
        if pair.region is None:
            return sede, 0
        return sede, self.region[group][pair.region] - (without.region == pair.region)

    def swap(self, a: int, x: DrawPair, b: int, y: DrawPair) -> None:
        """``x`` leaves group ``a`` for ``b``, ``y`` leaves ``b`` for ``a``."""
        for group, out, into in ((a, x, y), (b, y, x)):
            self.sede[group][out.sede] -= 1
            self.sede[group][into.sede] += 1
            if out.region is not None:
                self.region[group][out.region] -= 1
            if into.region is not None:
                self.region[group][into.region] += 1


def _improve(groups: list[list[DrawPair]], fixed: set[Hashable], counts: _Counts) -> None:
    """Swap unseeded pairs between groups while a swap puts fewer of one venue (then
    region) together. Greedy placing nearly always reaches the venues' bound, so only a
    pair that meets its venue or region in its group is tried, and seldom."""
    improved = True
    passes = 0
    while improved and passes < 20:
        improved, passes = False, passes + 1
        for a, first in enumerate(groups):
            for i in range(len(first)):
                x = first[i]
                stay = counts.cost(a, x, x)
                if x.key in fixed or stay == (0, 0):
                    continue
                for b, second in enumerate(groups):
                    if b == a:
                        continue
                    j = _better_swap(a, x, stay, b, second, fixed, counts)
                    if j is not None:
                        counts.swap(a, x, b, second[j])
                        first[i], second[j] = second[j], x
                        improved = True
                        break


def _better_swap(a: int, x: DrawPair, stay: tuple[int, int], b: int, second: list[DrawPair],
                 fixed: set[Hashable], counts: _Counts) -> int | None:
    # The place in group ``b`` of a pair whose swap with ``x`` (of group ``a``, where it
    # adds ``stay``) lowers the (venue, region) pairs: counts.cost written out, as this
    # runs for every pair and group (a phase of 112 groups: 0.1 s instead of 1 s).
    sede_a, region_a, sede_b, region_b = (counts.sede[a], counts.region[a], counts.sede[b],
                                          counts.region[b])
    xs, xr = x.sede, x.region
    x_in_b = sede_b[xs], region_b[xr] if xr is not None else 0
    for j, y in enumerate(second):
        ys, yr = y.sede, y.region
        if y.key in fixed or (xs == ys and xr == yr):
            continue
        before = (stay[0] + sede_b[ys] - 1,
                  stay[1] + (region_b[yr] - 1 if yr is not None else 0))
        after = (sede_a[ys] - (xs == ys) + x_in_b[0] - (ys == xs),
                 (region_a[yr] - (xr == yr) if yr is not None else 0)
                 + (x_in_b[1] - (yr == xr) if xr is not None else 0))
        if after < before:
            return j
    return None


def qualifiers(order: Sequence[Hashable], seats: int,
               withdrawn: set[Hashable] | frozenset[Hashable] = frozenset(),
               ) -> tuple[list[Hashable], list[Hashable]]:
    """A heat's qualified pairs and its reserves, from its final ``order``.

    The top ``seats`` pairs that have not withdrawn go on (a withdrawn pair's place goes to
    the next pair in the order); the pairs after them are the reserves, in order.
    """
    present = [key for key in order if key not in withdrawn]
    return present[:seats], present[seats:]


def group_winners(orders: Sequence[Sequence[Hashable]], best: int) -> list[tuple[Hashable, int]]:
    """The pairs going on from a phase's groups: each group's best ``best`` in their final
    order, with their seed for the next draw (every group winner before any runner-up)."""
    going: list[tuple[Hashable, int]] = []
    for place in range(best):
        for order in orders:
            if place < len(order):
                going.append((order[place], len(going) + 1))
    return going
