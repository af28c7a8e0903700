"""The leagues API's two CSV files, answer by answer (status, every header, body), for
each format a standings.csv is written in and each refusal, in the order the doors are
tried: what muscore.api.leagues answers must not move when its views are folded and the
choice of the file is the competition's documents' (muscore.leagues.documents
.standings_file). Written against the views before that mend, and passed there."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from muscore.leagues import ceros_rounds, documents, results
from muscore.leagues.models import Competition, Match
from tests.clubs.factory import make_club, make_pair, make_user
from tests.leagues.factory import knockout, liguilla

pytestmark = pytest.mark.django_db

CSV = "text/csv; charset=utf-8"


# What the site's middleware adds to every answer, whatever the view.
FRAME = {"Content-Security-Policy", "X-Frame-Options", "Content-Language",
         "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy",
         "X-Muscore-Version", "X-Request-ID"}


def answer(competition_id: int, name: str,
           **query: str) -> tuple[int, list[tuple[str, str]], str]:
    """The answer's status, its own headers in the order sent, its body."""
    response = Client().get(f"/api/v1/leagues/{competition_id}/{name}.csv", query)
    return (response.status_code,
            [(k, v) for k, v in response.headers.items() if k not in FRAME],
            response.content.decode())


def served(filename: str, revision: int, body: str) -> list[tuple[str, str]]:
    # GZipMiddleware names Accept-Encoding for a body of 200 bytes or more.
    size = len(body.encode())
    return [("Content-Type", CSV), ("Content-Disposition", f'attachment; filename="{filename}"'),
            ("Access-Control-Allow-Origin", "*"), ("X-Muscore-Revision", str(revision)),
            ("X-Muscore-Current-Revision", str(revision)),
            ("Content-Length", str(size)),
            ("Vary", "Accept-Language, Accept-Encoding" if size >= 200 else "Accept-Language")]


def ceros_tournament() -> Competition:
    from muscore.leagues import competitions

    user = make_user()
    club = make_club(organiser=user)
    pairs = [make_pair(club, a, b) for a, b in [("Ana", "Bea"), ("Carlos", "Dani"),
                                                 ("Eva", "Fermín"), ("Gorka", "Hugo")]]
    competition = competitions.create_competition(
        club, by=user, name="Ceros", pairs=pairs, format=Competition.Format.CEROS, ceros=2)
    ceros_rounds.make_round(competition, by=user)
    ceros_rounds.publish_round(competition, by=user)
    return first_played(competition, user)


def played_liguilla() -> Competition:
    return first_played(*liguilla(4))


def first_played(competition: Competition, user: Any) -> Competition:
    """``competition`` with its first match's result, 3-1, as it reads after it."""
    first = Match.objects.filter(competition=competition).order_by("number").first()
    assert first is not None
    results.record_result(first, by=user, juegos=[3, 1])
    competition.refresh_from_db()
    return competition


@pytest.mark.parametrize("sep", [",", ";"])
@pytest.mark.parametrize("kind", ["liguilla", "knockout", "ceros"])
def test_each_formats_standings_csv_and_matches_csv(kind: str, sep: str) -> None:
    competition: Competition
    if kind == "liguilla":
        competition = played_liguilla()
        written, named = documents.standings_csv, "clasificacion"
    elif kind == "knockout":
        competition = knockout([0, 1, 2, 3])[0]
        written, named = documents.bracket_csv, "cuadro"
    else:
        competition = ceros_tournament()
        written, named = ceros_rounds.standings_csv, "clasificacion"
    pk, revision = competition.pk, competition.revision
    query = {"sep": sep} if sep == ";" else {}
    body = written(competition, sep=sep)
    first = answer(pk, "standings", **query)
    assert first == (200, served(f"{named}-{pk}.csv", revision, body), body)
    assert answer(pk, "standings", **query) == first  # the kept one, the same
    matches = documents.matches_csv(competition, sep=sep)
    again = served(f"partidas-{pk}.csv", revision, matches)
    assert answer(pk, "matches", **query) == (200, again, matches)
    assert answer(pk, "matches", **query) == (200, again, matches)


def refused(got: tuple[int, list[tuple[str, str]], str], status: int, code: str) -> bool:
    """A problem document (RFC 9457) of ``status`` with the refusal's ``code``."""
    found, headers, body = got
    return (found == status and json.loads(body)["code"] == code and headers == [
        ("Content-Type", "application/problem+json"),
        ("Content-Length", str(len(body.encode()))), ("Vary", "Accept-Language")])


@pytest.mark.parametrize("name", ["standings", "matches"])
def test_the_doors_in_their_order(name: str) -> None:
    competition = played_liguilla()
    for unknown in (competition.pk + 1000, 2**31):
        # No such league comes before a bad separator.
        assert refused(answer(unknown, name), 404, "league_not_found")
        assert refused(answer(unknown, name, sep="|"), 404, "league_not_found")
    assert refused(answer(competition.pk, name, sep="|"), 400, "bad_sep")
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.IMPORTING)
    # A bad request is one whatever the league's state; an import under way is a 202.
    assert refused(answer(competition.pk, name, sep="|"), 400, "bad_sep")
    importing = ('{"preparing": true, "importing": true, "message": "this league is being '
                 'imported (the worker writes its results in batches); ask again later", '
                 '"retry_after": 5}')
    assert answer(competition.pk, name) == (202, [
        ("Content-Type", "application/json"), ("Retry-After", "5"),
        ("Content-Length", str(len(importing))), ("Vary", "Accept-Language")], importing)
