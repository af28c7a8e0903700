"""A stage is the league's own row (issue 36): what placed a club's competitions and what
was drawn from a competition's standings. The owner of results answers from it alone what
depends on a result, what holds a competition and which competitions are played side by
side: no app above the league registers anything (a stage written here, with no
championship, is enough)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from muscore.leagues import competitions, results
from muscore.leagues.models import Competition, Stage
from muscore.leagues.results import consequences
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.django_db


def test_a_result_a_stage_was_drawn_from_is_refused_naming_it() -> None:
    league, boss = liguilla()
    match = league.matches.order_by("number").first()
    assert match is not None
    results.record_result(match, by=boss, juegos=[3, 1])
    stage = Stage.objects.create(within="Copa de Gipuzkoa", name="Final a cuatro")
    stage.sources.add(league)
    match.refresh_from_db()
    assert consequences.dependents(match) == []  # not drawn yet: nothing depends on it
    Stage.objects.filter(pk=stage.pk).update(drawn_at=timezone.now())
    assert consequences.dependents(match) == ["Final a cuatro"]
    with pytest.raises(results.CompetitionError) as refused:
        results.record_result(match, by=boss, juegos=[1, 3], reason="acta")
    assert "«Final a cuatro»" in str(refused.value)
    match.refresh_from_db()
    assert match.outcome is not None and match.outcome.juegos == (3, 1)


def test_a_stage_holds_its_competitions_and_plays_them_side_by_side() -> None:
    first, boss = liguilla()
    second = competitions.create_competition(
        first.club, by=boss, name="Grupo 2", pairs=[e.pair for e in first.entries.all()],
        draw=[0, 1, 2, 3])
    assert consequences.holders(first) == [] and consequences.siblings(first) == []
    stage = Stage.objects.create(within="Copa de Gipuzkoa", name="Fase 1")
    Competition.objects.filter(pk__in=[first.pk, second.pk]).update(stage=stage)
    assert [str(h) for h in consequences.holders(first)] == ["Copa de Gipuzkoa · Fase 1"]
    assert consequences.full_title(first) == f"Copa de Gipuzkoa · {first.title}"
    assert consequences.siblings(first) == [second.pk]
    assert consequences.siblings(second) == [first.pk]
