"""The club page's latest matches: the ten newest results of all the club's competitions,
newest first, read by each competition's (competition, result_at) index (issue 28: one
sort of every match of a large club took 0.48 s a request)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from muscore.leagues import competitions, results
from muscore.leagues.models import Competition, Match
from muscore.leagues.views.competitions import league_summary
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db


def test_the_latest_matches_are_the_newest_of_every_competition_newest_first() -> None:
    club = make_club()
    winter = make_league(club, pairs=6, groups=1)  # 15 matches, all played
    organiser = club.memberships.get().user
    pairs = [e.pair for e in winter.entries.order_by("index")]

    def another(name: str, played: bool) -> Competition:
        made = competitions.create_competition(club, by=organiser, name=name, pairs=pairs[:4],
                                               draw=[0, 1, 2, 3])
        for match in Match.objects.filter(competition=made) if played else []:
            results.record_result(match, by=organiser, juegos=[3, 1])
        return made

    summer = another("Verano", played=True)  # 6 matches
    other = another("Otoño", played=False)  # none played: none listed
    now = timezone.now()
    of = [list(Match.objects.filter(competition=c).played().order_by("id"))
          for c in (winter, summer)]
    # Newest first: winter, summer, winter, summer... then the rest of winter's.
    played = [m for pair in zip(*of, strict=False) for m in pair] + of[0][len(of[1]):]
    for n, match in enumerate(played):
        Match.objects.filter(pk=match.pk).update(result_at=now - timedelta(minutes=n))
    expected = [m.pk for m in played[:10]]
    rows = league_summary(club)["latest_matches"]
    assert [row["match"].pk for row in rows] == expected
    assert {row["match"].competition_id for row in rows} == {winter.pk, summer.pk}
    assert other.pk not in {row["match"].competition_id for row in rows}
    # The newest result moves to the top.
    last = played[-1]
    Match.objects.filter(pk=last.pk).update(result_at=now + timedelta(minutes=5))
    assert league_summary(club)["latest_matches"][0]["match"].pk == last.pk
    page = Client().get(f"/club/{club.slug}/")
    assert page.status_code == 200
