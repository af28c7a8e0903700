"""A league document whose played match seats one name twice ("Ana" in a pair, "ANA"
sitting in for the other: the document compares names letter for letter) is refused as
its table would be (issue 38.9), with the match's number, and nothing of the import is
kept."""

from __future__ import annotations

import copy

import pytest

from muscore.leagues import competitions, imports
from muscore.leagues.models import Competition
from muscore.tables.models import Table
from tests.clubs.factory import make_club

from .test_import_other_club import exported_with_a_table

pytestmark = pytest.mark.django_db


def test_a_played_match_with_one_name_on_both_sides_is_refused_whole() -> None:
    exported, user = exported_with_a_table()
    document = copy.deepcopy(exported)
    played = next(n for n, m in enumerate(document["matches"], 1) if m.get("vaca"))
    first, second = document["matches"][played - 1]["pairs"]
    name = document["pairs"][first]["players"][0]
    # The second pair's first player away, "ANA" sat in for him (a substitute).
    document["matches"][played - 1]["players"] = [
        None, [name.upper(), document["pairs"][second]["players"][1]]]
    club = make_club("Bar Kaixo", user)
    competitions_before, tables_before = Competition.objects.count(), Table.objects.count()
    with pytest.raises(competitions.CompetitionError) as refused:
        imports.import_competition(club, document, by=user)
    assert str(refused.value).startswith(f"Partida {played}: los asientos")
    assert f"se llaman igual («{name.upper()}»)" in str(refused.value)
    assert (Competition.objects.count(), Table.objects.count()) == (
        competitions_before, tables_before)
