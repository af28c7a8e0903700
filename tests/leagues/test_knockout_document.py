"""A knockout alone in league.md's form (docs/league.md, "A knockout"): its format says
it, its games name their tie, its API document gives its bracket in place of standings,
and no reader takes it for a league (the reader, the command line, the import page)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.test import Client

from muscore.clubs.models import Pair
from muscore.leagues import LeagueError, documents, imports, read_league, results
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Competition, LeagueImport, Match
from muscore.messages import league_message
from tests.clubs.factory import logged_in, make_club, make_user

from .factory import knockout
from .helpers import league

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# Six pairs in eight places: pairs 0 and 1 have a bye (round 1's ties 1 and 3).
PLACES: list[int | None] = [0, None, 5, 3, 1, None, 2, 4]


def game(competition: Competition, round_: int, tie: int, number: int) -> Match:
    return Match.objects.select_related("first", "second").get(
        competition=competition, tie__round=round_, tie__order=tie - 1, game=number)


def seated_wins(match: Match, by: Any, side: int) -> None:
    """The game won by the pair seated first (0) or second (1)."""
    results.record_result(match, by=by, juegos=[3, 1] if side == 0 else [1, 3])


def test_a_knockout_s_document_names_its_ties_and_gives_its_bracket() -> None:
    competition, user = knockout(PLACES)
    # Tie 2 (5 v 3): 5 wins game 1 seated first, 3 wins game 2 seated first; game 3 made.
    seated_wins(game(competition, 1, 2, 1), user, 0)
    seated_wins(game(competition, 1, 2, 2), user, 0)
    # Tie 4 (2 v 4): 4 wins both (seated second, then first): through, its game 3 never made.
    seated_wins(game(competition, 1, 4, 1), user, 1)
    seated_wins(game(competition, 1, 4, 2), user, 0)
    doc = documents.api_document(competition)
    assert doc["format"] == {"kind": "knockout", "best_of": 3, "third": True}
    assert doc["draw"] == PLACES
    assert [p["name"] for p in doc["pairs"]] == [
        "Ana y Bea", "Carlos y Dani", "Eva y Fermín", "Gorka y Hugo", "Irene y Jon",
        "Koldo y Lur"]
    # Each game: its tie's round (not the round of the day it was played in), the tie's
    # place, its number, the pairs as seated (swapped each game), in the order made.
    assert doc["matches"] == [
        {"round": 1, "tie": 2, "game": 1, "pairs": [5, 3], "juegos": [3, 1]},
        {"round": 1, "tie": 2, "game": 2, "pairs": [3, 5], "juegos": [3, 1]},
        {"round": 1, "tie": 4, "game": 1, "pairs": [2, 4], "juegos": [1, 3]},
        {"round": 1, "tie": 4, "game": 2, "pairs": [4, 2], "juegos": [3, 1]},
        {"round": 1, "tie": 2, "game": 3, "pairs": [5, 3]},
        {"round": 2, "tie": 2, "game": 1, "pairs": [1, 4]},
        {"round": 2, "tie": 2, "game": 2, "pairs": [4, 1]},
    ]
    assert "standings" not in doc
    assert doc["bracket"] == [
        {"round": 1, "tie": 1, "pairs": [0, None], "wins": [0, 0], "winner": 0},
        {"round": 1, "tie": 2, "pairs": [5, 3], "wins": [1, 1], "winner": None},
        {"round": 1, "tie": 3, "pairs": [1, None], "wins": [0, 0], "winner": 1},
        {"round": 1, "tie": 4, "pairs": [2, 4], "wins": [0, 2], "winner": 4},
        {"round": 2, "tie": 1, "pairs": [0, None], "wins": [0, 0], "winner": None},
        {"round": 2, "tie": 2, "pairs": [1, 4], "wins": [0, 0], "winner": None},
        {"round": 3, "tie": 1, "pairs": [None, None], "wins": [0, 0], "winner": None},
        {"round": 3, "tie": 2, "pairs": [None, None], "wins": [0, 0], "winner": None},
    ]
    # The export: the same matches (a table's would carry its vaca), no bracket.
    exported = documents.league_document(competition, hands=True)
    assert exported == {k: v for k, v in doc.items() if k != "bracket"}
    # The body served is the document, over HTTP too.
    assert json.loads(documents.api_body(competition)) == doc
    assert Client().get(f"/api/v1/leagues/{competition.pk}").json() == {
        **doc, "name": competition.title}


def test_a_knockout_s_standings_csv_is_its_bracket() -> None:
    """GET .../standings.csv of a knockout: its bracket for a spreadsheet (docs/league.md,
    "A knockout"), not every pair's line at 0; the page links it as the bracket."""
    competition, user = knockout(PLACES)
    seated_wins(game(competition, 1, 2, 1), user, 0)
    seated_wins(game(competition, 1, 2, 2), user, 0)
    seated_wins(game(competition, 1, 4, 1), user, 1)
    seated_wins(game(competition, 1, 4, 2), user, 0)
    url = f"/api/v1/leagues/{competition.pk}/standings.csv"
    served = Client().get(url)
    assert served.status_code == 200
    assert served["Content-Disposition"] == f'attachment; filename="cuadro-{competition.pk}.csv"'
    assert served.content.decode() == "\ufeff" + "".join(line + "\n" for line in [
        "round,tie,first,second,wins_first,wins_second,winner",
        "1,1,Ana y Bea,,0,0,Ana y Bea",
        "1,2,Koldo y Lur,Gorka y Hugo,1,1,",
        "1,3,Carlos y Dani,,0,0,Carlos y Dani",
        "1,4,Eva y Fermín,Irene y Jon,0,2,Irene y Jon",
        "2,1,Ana y Bea,,0,0,",
        "2,2,Carlos y Dani,Irene y Jon,0,0,",
        "3,1,,,0,0,",
        "3,2,,,0,0,",
    ])
    spanish = Client().get(url, {"sep": ";"}).content.decode().split("\r\n")
    assert spanish[0] == ("\ufeffRonda;Eliminatoria;Primera pareja;Segunda pareja;"
                          "Ganadas por la primera;Ganadas por la segunda;Pasa")
    assert spanish[4] == "1;4;Eva y Fermín;Irene y Jon;0;2;Irene y Jon"
    page = Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/")
    assert f'<a href="{url}">Cuadro en CSV</a>' in page.content.decode()
    english = Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/",
                           headers={"Accept-Language": "en"})
    assert f'<a href="{url}">Bracket as CSV</a>' in english.content.decode()


def test_a_large_knockout_s_csvs_are_served() -> None:
    """Sixteen places (four rounds, byes): both CSVs answer, a line per tie, a game each."""
    competition, _user = knockout([0, None, 1, None, 2, None, 3, None, 4, None, 5, None, 6, None,
                                   7, 8], best_of=1, third=False)
    bracket = Client().get(f"/api/v1/leagues/{competition.pk}/standings.csv")
    assert bracket.status_code == 200
    assert len(bracket.content.decode().splitlines()) == 1 + 8 + 4 + 2 + 1
    url = f"/api/v1/leagues/{competition.pk}/matches.csv"
    matches = Client().get(url)
    assert matches.status_code == 200
    lines = matches.content.decode().splitlines()
    assert len(lines) == 1 + Match.objects.filter(competition=competition).count()
    # Round 1's one game (tie 8: 7 v 8) in the round of 16; the quarterfinals named as ever.
    assert [line.split(",")[2] for line in lines[1:]] == ["r16-8", "qf1", "qf3", "qf2"]
    spanish = Client().get(url, {"sep": ";"}).content.decode().splitlines()
    assert spanish[1].split(";")[2] == "octavos de final 8"


def test_a_knockout_played_to_its_champion_says_so_in_its_bracket() -> None:
    competition, user = knockout([0, 1, 2, 3], best_of=1, third=False)
    seated_wins(game(competition, 1, 1, 1), user, 1)
    seated_wins(game(competition, 1, 2, 1), user, 0)
    seated_wins(game(competition, 2, 1, 1), user, 0)
    doc = documents.api_document(competition)
    assert doc["format"] == {"kind": "knockout", "best_of": 1, "third": False}
    assert doc["matches"][-1] == {"round": 2, "tie": 1, "game": 1, "pairs": [1, 2],
                                  "juegos": [3, 1]}
    assert doc["bracket"][-1] == {"round": 2, "tie": 1, "pairs": [1, 2], "wins": [1, 0],
                                  "winner": 1}
    assert len(doc["bracket"]) == 3  # no match for third place


@pytest.mark.postgres  # the migration's one UPDATE, on both databases
def test_the_upgrade_moves_a_knockout_s_revision_past_its_etags_of_before() -> None:
    """leagues 0033: a knockout's document changed shape (issue 36) at the same revision;
    the upgrade moves its revision on, so neither ETag given before (the liguilla's shape,
    then the same marked "-k") is answered 304 after it, while the new one is, and a final
    order kept for the revision stays kept. A liguilla is not touched."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from muscore.leagues.models import DocumentBacklog

    from .factory import liguilla

    upgrade = importlib.import_module("muscore.leagues.migrations.0033_knockout_revision")
    competition, user = knockout([0, 1, 2, 3], best_of=1, third=False)
    stale, _user = knockout([0, 1, None, 2], best_of=1, third=False, organiser=user)
    other, _organiser = liguilla(4, organiser=make_user("otra"))
    Competition.objects.filter(pk=competition.pk).update(final_order=[2, 0, 1, 3],
                                                         order_revision=F("revision"))
    Competition.objects.filter(pk=stale.pk).update(final_order=[0, 1, 2],
                                                   order_revision=F("revision") - 1)
    url = f"/api/v1/leagues/{competition.pk}"
    first = Client().get(url)
    etag, body = first["ETag"], first.content
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 304
    marked = etag[:-1] + '-k"'  # what the API said of a knockout until this migration
    before = {c.pk: (c.revision, c.order_revision)
              for c in Competition.objects.filter(pk__in=[competition.pk, stale.pk, other.pk])}
    liguilla_etag = Client().get(f"/api/v1/leagues/{other.pk}")["ETag"]
    DocumentBacklog.objects.all().delete()
    state = MigrationExecutor(connection).loader.project_state(
        ("leagues", "0033_knockout_revision"))
    upgrade.forward(state.apps, None)
    after = {c.pk: (c.revision, c.order_revision)
             for c in Competition.objects.filter(pk__in=[competition.pk, stale.pk, other.pk])}
    assert after == {competition.pk: (before[competition.pk][0] + 1,
                                      before[competition.pk][0] + 1),
                     stale.pk: (before[stale.pk][0] + 1, before[stale.pk][1]),
                     other.pk: before[other.pk]}
    assert sorted(DocumentBacklog.objects.values_list("competition_id", flat=True)) == [
        competition.pk, stale.pk]
    for old in (etag, marked):
        again = Client().get(url, headers={"If-None-Match": old})
        assert again.status_code == 200, old
        assert again.content == body  # the same document, under its new ETag
    new = Client().get(url)["ETag"]
    assert new not in (etag, marked) and not new.endswith('-k"')
    assert Client().get(url, headers={"If-None-Match": new}).status_code == 304
    assert Client().get(f"/api/v1/leagues/{other.pk}",
                        headers={"If-None-Match": liguilla_etag}).status_code == 304


@pytest.mark.parametrize("written", [{"kind": "knockout"},
                                     {"kind": "knockout", "best_of": 3, "third": True}])
def test_the_reader_refuses_a_knockout_whole(written: dict[str, Any]) -> None:
    with pytest.raises(LeagueError) as refused:
        read_league(league(2, [], format=written))
    assert refused.value.code == "format_knockout"
    assert "knockout's document" in str(refused.value)
    assert league_message(refused.value, "es").startswith(
        "Es el documento de una eliminatoria (su formato es «knockout»)")
    assert league_message(refused.value, "fr").startswith(
        "C'est le document d'une élimination directe (son format est «\u00a0knockout\u00a0»)"
        "\u00a0: ")
    assert "koadro" in league_message(refused.value, "eu")


def test_the_command_line_refuses_a_knockout_s_document() -> None:
    competition, _user = knockout(PLACES)
    text = json.dumps(documents.api_document(competition))
    for command in ("standings", "ratings"):
        done = subprocess.run([sys.executable, "-m", "muscore.leagues", command], input=text,
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert done.returncode == 2, command
        error = json.loads(done.stdout)["error"]
        assert error.startswith("This is a knockout's document"), error


def test_the_import_refuses_a_knockout_and_saves_nothing() -> None:
    competition, _user = knockout(PLACES)
    exported = documents.league_document(competition, hands=True)
    organiser = make_user("otra")
    other = make_club("Bar Kaixo", organiser)
    competitions, pairs = Competition.objects.count(), Pair.objects.count()
    with pytest.raises(CompetitionError, match="Es el documento de una eliminatoria"):
        imports.import_competition(other, exported, by=organiser)
    client = logged_in(organiser)
    url = f"/club/{other.slug}/ligas/importar"
    for said in ("liguilla", "groups-2"):  # the file's own format wins whatever is ticked
        body = json.dumps(exported).encode()
        for rated in ("", "1"):  # the file checked (step 1), and imported at once
            sent: dict[str, Any] = {"file": SimpleUploadedFile("final.json", body),
                                    "format": said}
            if rated:
                sent["rated"] = rated
            page = client.post(url, sent)
            assert page.status_code == 400
            assert "Es el documento de una eliminatoria" in page.content.decode()
    english = client.post(url, {"file": SimpleUploadedFile("final.json", json.dumps(
        exported).encode()), "format": "liguilla"}, headers={"Accept-Language": "en"})
    assert english.status_code == 400
    assert "This is a knockout&#x27;s document" in english.content.decode()
    assert (Competition.objects.count(), Pair.objects.count()) == (competitions, pairs)
    assert not LeagueImport.objects.exists()


def test_the_upgrade_makes_a_knockout_s_stored_export_again() -> None:
    """leagues 0031: the worker's export of a knockout stored before issue 36 (the
    liguilla's shape, at its current revision) is not served on after the upgrade; a
    liguilla's stored documents stay as they are."""
    from django.apps import apps

    from muscore.leagues import prepared
    from muscore.leagues.models import DocumentBacklog, PreparedPart

    from .factory import liguilla

    upgrade = importlib.import_module("muscore.leagues.migrations.0031_knockout_documents")
    competition, _user = knockout([0, 1, 2, 3], best_of=1, third=False)
    other, _organiser = liguilla(4, organiser=make_user("otra"))
    before = {**documents.league_document(competition, hands=True),
              "format": {"kind": "liguilla"}}
    for match in before["matches"]:
        for key in ("tie", "game"):
            match.pop(key)
    prepared.store(competition.pk, prepared.EXPORT, competition.revision,
                   prepared.in_parts(json.dumps(before).encode()))
    prepared.make(other.pk)
    kept = list(PreparedPart.objects.filter(competition=other).order_by("pk").values_list(
        "kind", "body"))
    DocumentBacklog.objects.all().delete()
    url = f"/api/v1/leagues/{competition.pk}/export"
    assert json.loads(b"".join(Client().get(url).streaming_content)) == before
    upgrade.forward(apps, None)
    served = Client().get(url)
    assert json.loads(served.content)["format"] == {"kind": "knockout", "best_of": 1,
                                                    "third": False}
    assert json.loads(served.content)["matches"][0]["tie"] == 1
    assert list(DocumentBacklog.objects.values_list("competition_id", flat=True)) == [
        competition.pk]
    assert list(PreparedPart.objects.filter(competition=other).order_by("pk").values_list(
        "kind", "body")) == kept
