"""A championship's group draw and phase chaining: properties over random venues and seeds."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.championships.compute.draw import (
    DrawError,
    DrawPair,
    draw_groups,
    fewest_together,
    group_count,
    group_winners,
    pairs_together,
    qualifiers,
)
from muscore.championships.compute.quotas import Sede, compute_quotas
from tests.examples import examples


@st.composite
def fields(draw: Any) -> list[DrawPair]:
    venues = draw(st.lists(st.integers(1, 9), min_size=1, max_size=8))
    regions = draw(st.integers(1, 3))
    pairs = []
    for v, count in enumerate(venues):
        region = f"R{v % regions}" if draw(st.booleans()) else None
        for i in range(count):
            pairs.append(DrawPair(key=f"{v}-{i}", sede=f"S{v}", region=region))
    if len(pairs) < 2:
        pairs.append(DrawPair(key="extra", sede="S-extra"))
    seeded = draw(st.integers(0, len(pairs)))
    order = draw(st.permutations(range(len(pairs))))
    for rank, index in enumerate(order[:seeded]):
        p = pairs[index]
        pairs[index] = DrawPair(p.key, p.sede, p.region, rank + 1)
    return pairs


def placed(pairs: list[DrawPair], groups: Any) -> list[list[DrawPair]]:
    by_key = {p.key: p for p in pairs}
    return [[by_key[k] for k in g] for g in groups]


@settings(max_examples=examples(300), deadline=None)
@given(fields(), st.text(max_size=8))
def test_the_draw(pairs: list[DrawPair], seed: str) -> None:
    draw = draw_groups(pairs, seed)
    groups = placed(pairs, draw.groups)
    # Every pair once; groups of 4, sizes never more than one apart.
    assert sorted(k for g in draw.groups for k in g) == sorted(p.key for p in pairs)
    sizes = [len(g) for g in groups]
    assert len(groups) == group_count(len(pairs)) and max(sizes) <= 4
    assert max(sizes) - min(sizes) <= 1
    # The fewest pairs of one venue together that the counts allow.
    assert pairs_together(groups, "sede") == fewest_together(pairs, len(groups), "sede")
    # The best seeds one per group, heading it.
    seeds = sorted((p for p in pairs if p.seed is not None), key=lambda p: p.seed or 0)
    heads = seeds[:len(groups)]
    assert len({i for i, g in enumerate(groups) for p in g if p in heads}) == len(heads)
    for head in heads:
        assert next(g for g in groups if head in g)[0] == head
    # Same pairs, same order, same seed: the same draw.
    assert draw_groups(pairs, seed) == draw
    assert draw.seed == seed


def test_regions_come_after_venues() -> None:
    # Eight pairs of eight venues, two regions of four, two groups: a group of one region
    # holds 6 same-region pairs; two of each region per group, 1 + 1 per group.
    pairs = [DrawPair(i, f"S{i}", "N" if i < 4 else "G") for i in range(8)]
    groups = placed(pairs, draw_groups(pairs, "x").groups)
    assert pairs_together(groups, "sede") == 0
    assert pairs_together(groups, "region") == fewest_together(pairs, 2, "region") == 4


def test_a_different_seed_can_give_a_different_draw() -> None:
    pairs = [DrawPair(i, f"S{i % 5}") for i in range(20)]
    assert len({draw_groups(pairs, str(seed)).groups for seed in range(10)}) > 1


@pytest.mark.parametrize(("pairs", "message"), [
    ([DrawPair(1, "A")], "at least 2 pairs"),
    ([DrawPair(1, "A"), DrawPair(1, "B")], "listed 2 times"),
])
def test_a_draw_that_cannot_be_made(pairs: list[DrawPair], message: str) -> None:
    with pytest.raises(DrawError, match=message):
        draw_groups(pairs, "s")


def test_448_pairs_draw_quickly() -> None:
    pairs = [DrawPair(i, f"S{i % 61}", f"R{i % 7}", i + 1 if i < 112 else None)
             for i in range(448)]
    groups = placed(pairs, draw_groups(pairs, "final").groups)
    assert len(groups) == 112 and pairs_together(groups, "sede") == 0


def test_qualifiers_and_reserves() -> None:
    assert qualifiers(["a", "b", "c", "d"], 2) == (["a", "b"], ["c", "d"])
    assert qualifiers(["a", "b", "c", "d"], 2, {"b"}) == (["a", "c"], ["d"])
    assert qualifiers(["a"], 3) == (["a"], [])


def test_group_winners_seed_winners_first() -> None:
    assert group_winners([["a", "b", "c"], ["d", "e"]], 2) == [
        ("a", 1), ("d", 2), ("b", 3), ("e", 4)]


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=10), st.data())
def test_phases_chain_every_qualified_pair_placed_once(venues: list[int],
                                                       data: st.DataObject) -> None:
    total = sum(venues)
    seats = data.draw(st.integers(len(venues), total))
    quotas = compute_quotas(seats, [Sede(f"S{i}", n) for i, n in enumerate(venues)])
    field: list[DrawPair] = []
    withdrawn_all: set[str] = set()
    for row, n in zip(quotas.rows, venues, strict=True):
        order = [f"{row.sede}-{i}" for i in range(n)]
        withdrawn = set(data.draw(st.sets(st.sampled_from(order), max_size=1)))
        withdrawn_all |= withdrawn
        going, reserves = qualifiers(order, row.seats, withdrawn)
        assert len(going) == min(row.seats, n - len(withdrawn))
        assert not set(going) & withdrawn and not set(reserves) & withdrawn
        field += [DrawPair(key, row.name, None, 1 if i == 0 else None)
                  for i, key in enumerate(going)]
    phase = 0
    while len(field) > 4:
        draw = draw_groups(field, f"phase-{phase}")
        keys = [k for g in draw.groups for k in g]
        assert sorted(keys) == sorted(p.key for p in field)
        assert len(keys) == len(set(keys)) and not set(keys) & withdrawn_all
        going_on = group_winners([list(g) for g in draw.groups], 2)
        by_key = {p.key: p for p in field}
        field = [DrawPair(k, by_key[k].sede, None, s) for k, s in going_on]
        phase += 1
    assert len({p.key for p in field}) == len(field)
