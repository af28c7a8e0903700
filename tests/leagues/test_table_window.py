"""A table's result is the table's while the table sits, then the organiser's (issue 27
item 2): an undo or a corrected hand changes the result the table stored only for
MUSCORE_TABLE_CORRECTION_MINUTES (15), and never silently: the match page and the
organiser's night show it "corrected at the table" with both results."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from muscore.leagues import results
from muscore.leagues.models import Correction, Match, ResultRow
from muscore.tables import services as tables
from tests.clubs.factory import logged_in

from .factory import liguilla
from .helpers import ORDAGO_B
from .test_table_settled import played

pytestmark = pytest.mark.django_db



def juegos(row: ResultRow | None) -> tuple[int, int] | None:
    """The juegos of a result the audit keeps (None: no result)."""
    return row.value().juegos if row is not None else None

def test_a_table_changes_its_stored_result_for_15_minutes_only() -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    assert results.table_window() == timedelta(minutes=15)
    at = match.result_at
    assert at is not None
    assert not results.is_final(match, now=at + timedelta(minutes=14))
    assert results.is_final(match, now=at + timedelta(minutes=15))
    Match.objects.filter(pk=match.pk).update(result_at=timezone.now() - timedelta(minutes=16))
    with pytest.raises(tables.ResultSettled, match=competition.name):
        tables.undo_last(table, via="edit_link")
    with pytest.raises(tables.ResultSettled):
        tables.replace_hand(table, 6, ORDAGO_B, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0
    # The organiser still corrects it, with a reason.
    results.record_result(match, by=user, juegos=[3, 2], reason="acta firmada")
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 2))


@override_settings(MUSCORE_TABLE_CORRECTION_MINUTES=5)
def test_the_minutes_are_the_club_s_setting() -> None:
    competition, user = liguilla(2)
    match, _table = played(competition, user)
    assert match.result_at is not None
    assert results.is_final(match, now=match.result_at + timedelta(minutes=5))
    assert not results.is_final(match, now=match.result_at + timedelta(minutes=4))


def test_a_result_changed_at_the_table_is_shown_with_both_results() -> None:
    """The cup final of the issue: 3-1 stored, then an undo and a tap flip it. Inside the
    minutes the table may, but the match page and the night say so, in each language."""
    competition, user = liguilla(2)
    match, table = played(competition, user)
    client = logged_in(user)
    url = reverse("clubs:match", args=[competition.club.slug, competition.pk, match.number])
    assert "data-table-fix" not in client.get(url).content.decode()  # nobody changed it
    tables.undo_last(table, via="edit_link")  # 3-1 taken back: 2-1, no result
    fixes = Correction.objects.filter(match=match, action="table_fix")
    assert [(juegos(f.before_result), juegos(f.after_result)) for f in fixes] == [((3, 1), None)]
    tables.add_hand(table, ORDAGO_B, via="edit_link")  # 2-2: no result yet
    tables.add_hand(table, ORDAGO_B, via="edit_link")  # 2-3: the second pair wins
    match.refresh_from_db()
    assert (match.outcome.juegos, match.outcome.winner) == ((2, 3), 1)
    # The result after the undo is a correction at the table too: both results shown.
    assert [juegos(f.after_result) for f in Correction.objects.filter(
        match=match, action="table_fix").order_by("id")] == [None, (2, 3)]
    night = reverse("clubs:night", args=[competition.club.slug])
    for language, words, was, now in (("es", "Corregido en la mesa", "era 3–1", "queda 2–3"),
                                      ("en", "Corrected at the table", "was 3–1", "now 2–3")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "data-table-fix" in page and words in page and was in page and now in page
        text = client.get(night, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "data-table-fixes" in text and was in text
        assert f"{competition.name} · " in text
    assert Client().get(night).status_code in (302, 403)
