"""The club page kept like a league's export (issue 28: 0.7-1.9 s each read for the large
club): its lists are made once per stamp of the club (muscore.leagues.club_kept), a second
read makes none of them again, a reader holding the page gets a 304, and every kind of
write the page shows changes it at the next read."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from muscore.clubs import services
from muscore.clubs.models import Club
from muscore.leagues import competitions, night, results, roster
from muscore.leagues.models import Match
from tests.clubs.factory import logged_in, make_club, make_league, make_pair

pytestmark = pytest.mark.django_db


def _read(client: Client, club: Club, **headers: str) -> Any:
    return client.get(f"/club/{club.slug}/", headers=headers)


def _made_again(sql: list[dict[str, Any]]) -> list[str]:
    """The queries of a read that make the page's lists (not the stamp's aggregates)."""
    return [q["sql"] for q in sql if 'FROM "leagues_match"' in q["sql"]
            or ('"clubs_player"' in q["sql"] and "COUNT" not in q["sql"].upper())]


def _shown(page: Any) -> str:
    """The page without what each answer makes anew (its CSRF token, its CSP nonce)."""
    return re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', "", page.content.decode())


@pytest.fixture
def club() -> Club:
    club = make_club()
    make_league(club, pairs=4, results=2)
    return club


def test_a_second_read_makes_none_of_the_lists_again_and_a_holder_gets_a_304(
    club: Club,
) -> None:
    client = Client()
    with CaptureQueriesContext(connection) as first:
        page = _read(client, club)
    assert page.status_code == 200 and _made_again(first.captured_queries)
    with CaptureQueriesContext(connection) as second:
        again = _read(client, club)
    assert again.status_code == 200 and _shown(again) == _shown(page)
    assert not _made_again(second.captured_queries), _made_again(second.captured_queries)
    assert len(second.captured_queries) < len(first.captured_queries)
    # The ETag: 304 without a body while nothing changed, and "private" (its CSRF token).
    tag = page["ETag"]
    assert again["ETag"] == tag and "private" in page["Cache-Control"]
    unchanged = _read(client, club, **{"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged["ETag"] == tag and not unchanged.content
    assert _read(client, club, **{"If-None-Match": '"c0"'}).status_code == 200
    # Another reader (an organiser: its buttons) has another ETag.
    organiser = logged_in(club.memberships.get().user)
    assert _read(organiser, club)["ETag"] != tag
    assert _read(organiser, club, **{"If-None-Match": tag}).status_code == 200


def _first_open_match(club: Club) -> Match:
    match = Match.objects.filter(competition__club=club).unplayed().order_by("number").first()
    assert match is not None
    return match


WRITES: dict[str, tuple[Callable[[Club], Any], str]] = {
    # name: (the write, a text the page shows after it)
    "a result": (lambda club: results.record_result(
        _first_open_match(club), by=club.memberships.get().user, juegos=[1, 3]), "1–3"),
    "a new pair": (lambda club: make_pair(club, "Zuriñe", "Yolanda", name="Las Txapeldunas"),
                   "Las Txapeldunas"),
    "a player renamed": (lambda club: services.save_player(
        club, "Koldo Renombrado", club.players.order_by("pk").first(),
        by=club.memberships.get().user), "Koldo Renombrado"),
    "the club renamed": (lambda club: services.rename_club(
        club, "Txoko Berria", by=club.memberships.get().user), "Txoko Berria"),
    "a pair retired": (lambda club: roster.set_retired(
        make_pair(club, "Pilar", "Quima", name="Se Retiran"), True,
        by=club.memberships.get().user), "data-retired-pairs"),
    "a new competition": (lambda club: competitions.create_competition(
        club, by=club.memberships.get().user, name="Liga de Verano",
        pairs=list(club.pairs.all()[:4]), draw=[0, 1, 2, 3]), "Liga de Verano"),
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_each_write_the_page_shows_changes_it_at_the_next_read(club: Club, kind: str) -> None:
    write, shown = WRITES[kind]
    client = Client()
    before = _read(client, club)
    assert shown not in before.content.decode()
    write(club)
    club.refresh_from_db()
    after = _read(client, club, **{"If-None-Match": before["ETag"]})
    assert after.status_code == 200, kind  # not the 304 of the page before the write
    assert shown in after.content.decode(), kind
    assert after["ETag"] != before["ETag"]


def test_an_archived_competition_leaves_the_page_at_the_next_read(club: Club) -> None:
    competition = club.competitions.get()
    client = Client()
    assert competition.name in _read(client, club).content.decode()
    night.set_archived(competition, True, by=club.memberships.get().user)
    assert f">{competition.name}<" not in _read(client, club).content.decode()


def test_a_championship_the_club_hosts_changes_its_page_at_the_next_read() -> None:
    # What the championships' tag shows is part of the ETag (club_kept.etag): a venue's
    # club page says the entries closed at the next read, not the 304 of the page before,
    # and the same page again is a 304.
    from muscore.championships import services as championships
    from tests.championships.factory import small_championship

    championship, boss, _barmen = small_championship(seats=2, bars=[("Bar Kaixo", 4)])
    club = Club.objects.get(name="Bar Kaixo")
    client = Client()
    before = _read(client, club)
    assert "inscripciones abiertas" in before.content.decode()
    assert _read(client, club, **{"If-None-Match": before["ETag"]}).status_code == 304
    championships.close_entries(championship, by=boss)
    after = _read(client, club, **{"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert "inscripciones abiertas" not in after.content.decode()
    assert _read(client, club, **{"If-None-Match": after["ETag"]}).status_code == 304


def test_a_championships_closing_hour_changes_its_page_without_a_write() -> None:
    # The entries close at their hour: nothing is written, the clock alone moves what the
    # championships' part says, and the page that said "open" is no longer a 304.
    from datetime import timedelta

    from django.utils import timezone

    from muscore.championships.models import Championship
    from tests.championships.factory import small_championship

    championship, _boss, _barmen = small_championship(seats=2, bars=[("Bar Kaixo", 4)])
    club = Club.objects.get(name="Bar Kaixo")
    client = Client()
    before = _read(client, club)
    assert "inscripciones abiertas" in before.content.decode()
    Championship.objects.filter(pk=championship.pk).update(
        entries_close_at=timezone.now() - timedelta(minutes=1))
    after = _read(client, club, **{"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert "inscripciones abiertas" not in after.content.decode()
