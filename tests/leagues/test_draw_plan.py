"""A draw's fixtures are worked out before its transaction (issue 21: the lock held briefly)
and again inside it when the competition changed meanwhile: either way the same matches."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.leagues import competitions
from muscore.leagues.models import Competition, Match
from tests.leagues.factory import club_with_pairs

pytestmark = pytest.mark.django_db


def fixtures_of(competition: Competition) -> list[tuple[Any, ...]]:
    return list(Match.objects.filter(competition=competition).order_by("number").values_list(
        "number", "round__number", "round__stage", "round__group__name", "first__index",
        "second__index", "tie__round", "tie__order", "game", "doc"))


@pytest.mark.parametrize(("format", "count"), [("liguilla", 5), ("groups", 8)])
def test_a_plan_made_before_the_entries_changed_is_made_again(format: str, count: int) -> None:
    club, user, pairs = club_with_pairs(count + 1)
    made = {}
    for name, entered in (("reference", pairs[:count]), ("changed", pairs[1:count + 1])):
        made[name] = competitions.create_competition(
            club, by=user, name=name, pairs=entered, format=format, groups=2)
    order = list(reversed(range(count)))
    competitions.record_draw(made["reference"], order, by=user)
    # The plan worked out for the reference's entries, then the draw of the other one:
    # its entries differ, so the plan is made again inside the transaction.
    stale = competitions._draw_plan(made["reference"], order)
    competitions._record_draw(made["changed"].pk, order, stale, by=user, method="typed")
    assert fixtures_of(made["changed"]) == fixtures_of(made["reference"])
    ids = {e.pk for e in made["changed"].entries.all()}
    assert {m.first_id for m in Match.objects.filter(competition=made["changed"],
                                                     first__isnull=False)} <= ids


def test_a_refused_draw_is_said_in_its_order_and_writes_nothing() -> None:
    club, user, pairs = club_with_pairs(4)
    competition = competitions.create_competition(club, by=user, name="L", pairs=pairs,
                                                  draw=[0, 1, 2, 3])
    with pytest.raises(competitions.CompetitionError, match="El sorteo ya está hecho"):
        competitions.record_draw(competition, [9, 9], by=user)  # a bad order too
    fresh = competitions.create_competition(club, by=user, name="M", pairs=pairs)
    with pytest.raises(competitions.CompetitionError):
        competitions.record_draw(fresh, [0, 0, 1, 2], by=user)
    assert not Match.objects.filter(competition=fresh).exists()
