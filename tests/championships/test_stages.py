"""A championship writes its stages in the league's rows as it plays (issue 36): a venue's
heat held by its venue, a phase's groups held by the phase and played side by side, and
the competitions a phase's pairs were drawn from, exactly those its draw read; and each
pair it makes for an entry says it placed it. The league and the clubs answer from these
rows, never asking the championships."""

from __future__ import annotations

import pytest

from muscore.championships import services, stages
from muscore.championships.models import Enrolment, Phase
from muscore.clubs import holders
from muscore.clubs.models import Pair
from muscore.leagues.models import Competition, Match, Stage
from muscore.leagues.results import consequences
from tests.championships.factory import drawn_semifinal, played_heats
from tests.clubs.factory import make_pair

pytestmark = pytest.mark.django_db


def played_match(competition: Competition | None) -> Match:
    assert competition is not None
    match = competition.matches.played().select_related("competition").first()
    assert match is not None
    return match


def test_a_regional_phase_depends_on_its_regions_heats_only() -> None:
    championship, boss, barmen, _sedes = played_heats()  # Bar Txoko, Gure Etxea in Gipuzkoa
    region = championship.regions.get()
    phase = services.add_phase(championship, by=boss, name="Final de Gipuzkoa",
                               region=region)
    services.draw_phase(phase, by=boss, seed="g")
    phase = Phase.objects.select_related("stage").get(pk=phase.pk)
    assert phase.stage is not None and phase.stage.drawn_at is not None
    heats = {sede.name: sede.heat for sede in championship.sedes.select_related("heat")}
    assert set(phase.stage.sources.values_list("pk", flat=True)) == {
        heats["Bar Txoko"].pk, heats["Gure Etxea"].pk}  # type: ignore[union-attr]
    for name in ("Bar Txoko", "Gure Etxea"):
        assert consequences.dependents(played_match(heats[name])) == ["Final de Gipuzkoa"]
    # Herriko Taberna is in no region: the province's final drew nothing from it.
    assert consequences.dependents(played_match(heats["Herriko Taberna"])) == []
    assert [str(h) for h in consequences.holders(heats["Bar Txoko"])] == [  # type: ignore[arg-type]
        "Txapelketa 2026 · Bar Txoko"]


def test_a_phases_groups_are_its_stage_and_the_next_level_is_drawn_from_them() -> None:
    championship, boss, _barmen, semifinal = drawn_semifinal()
    groups = list(Competition.objects.filter(phase_group__phase=semifinal).order_by("pk"))
    assert len(groups) == 2
    stage = Stage.objects.get(phases=semifinal)
    assert {g.stage_id for g in groups} == {stage.pk}
    assert [str(h) for h in consequences.holders(groups[0])] == [
        "Txapelketa 2026 · Semifinal"]
    assert consequences.siblings(groups[0]) == [groups[1].pk]
    # The heats are its sources; a later level draws from its groups once drawn.
    assert stage.sources.count() == 3
    final = services.add_phase(championship, by=boss, name="Final", level=2)
    assert Stage.objects.get(phases=final).drawn_at is None
    assert set(stages.sources(final)) == {g.pk for g in groups}


def test_the_pairs_a_championship_makes_say_it_placed_them() -> None:
    championship, _boss, _barmen, _semifinal = drawn_semifinal()
    placed = Enrolment.objects.filter(championship=championship)
    heat_pairs = Pair.objects.filter(pk__in=placed.values("heat_pair"))
    phase_pairs = Pair.objects.filter(pk__in=placed.values("phase_pair"))
    assert heat_pairs.count() == 12 and phase_pairs.count() == 6
    for pair in [*heat_pairs, *phase_pairs]:
        assert holders.of_pair(pair) == ["Txapelketa 2026"]
    own = make_pair(championship.club, "Ane", "Jon")
    assert holders.of_pair(own) == []
