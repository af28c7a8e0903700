"""The benchmarks' large club (`manage.py build_large_club`): the draw's matches written
again with their results in bulk, as `save()` and the results' path would have left them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from muscore.leagues import documents
from muscore.leagues.models import Competition, Entry, Match
from muscore.leagues.results import standings as results_standings
from muscore.tables.models import Hand, Table, VacaCheckpoint
from muscore.tables.services import rebuild_checkpoints

pytestmark = pytest.mark.django_db


def lines(competition: Competition) -> list[tuple[int, ...]]:
    return list(Entry.objects.filter(competition=competition).order_by("index").values_list(
        "played", "won", "lost", "forfeits", "points", "juegos_for", "juegos_against",
        "tantos_for", "tantos_against"))


def test_every_match_has_its_result_its_text_and_the_standings_their_sums() -> None:
    out = StringIO()
    call_command("build_large_club", pairs=6, legs=2, hands_share=0.3, templates=2,
                 steps=True, stdout=out)
    competition = Competition.objects.get(name="Liga grande")
    matches = list(Match.objects.filter(competition=competition)
                   .with_outcome().select_related("round", "first", "second", "table"))
    assert len(matches) == 30
    assert [m.number for m in sorted(matches, key=lambda m: m.number)] == list(range(1, 31))
    assert all(m.played and m.outcome.winner is not None for m in matches)
    # The stored texts are what save() would write (nothing left NULL for the reader).
    assert all(m.doc == m.document_text() for m in matches)
    played = [m for m in matches if m.outcome.source == "table"]
    assert played and all(m.table is not None for m in played)
    assert Hand.objects.filter(table__league_match__competition=competition).exists()
    kept = lines(competition)
    results_standings.recount_lines(competition)
    assert lines(competition) == kept
    assert documents.refresh_docs(competition) == 30
    assert all(m.doc == Match.objects.get(pk=m.pk).doc for m in matches)
    assert "matches written with their results:" in out.getvalue()


def checkpoints(table: Table) -> list[tuple[object, ...]]:
    return list(VacaCheckpoint.objects.filter(table=table).order_by("index").values_list(
        "index", "first_hand", "mano", "hand_count", "winner", "result", "summary"))


def test_its_tables_have_their_vacas_stored_as_play_would_have_stored_them() -> None:
    call_command("build_large_club", pairs=4, legs=1, hands_share=1.0, templates=2,
                 stdout=StringIO())
    tables = list(Table.objects.filter(league_match__competition__name="Liga grande"))
    assert len(tables) == 6
    for table in tables:
        assert table.replayed_revision == table.revision
        built = checkpoints(table)
        assert built
        rebuild_checkpoints(table)
        assert checkpoints(table) == built
