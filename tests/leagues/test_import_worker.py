"""A large league import written by the worker in short transactions (issue 21): checked
whole in the request, which writes only the competition's row and the document; invisible
until the worker has written its pairs, frame and results, then the same competition a
one-request import makes; nothing left when it fails midway; a backup taken meanwhile
restored and carried on to the same end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from muscore.clubs.models import Pair
from muscore.leagues import competitions, documents, imports, rating_store, results
from muscore.leagues.models import (
    Competition,
    Correction,
    LeagueImport,
    LeagueImportDocument,
    Match,
    PlayerRating,
)
from muscore.tables.models import Table
from tests.clubs.factory import logged_in, make_club, make_league, make_pair, make_user
from tests.tables.test_backup_season import wipe

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CHOICES = [("liguilla", "liguilla"), ("groups", "groups-2")]


def upload(data: object) -> SimpleUploadedFile:
    return SimpleUploadedFile("liga.json", json.dumps(data).encode(),
                              content_type="application/json")


def post_import(client: Client, slug: str, exported: Any, choice: str) -> Any:
    return client.post(f"/club/{slug}/ligas/importar",
                       {"file": upload(exported), "format": choice, "name": "Importada",
                        "rated": "1"})


@pytest.mark.parametrize("batches", ["as timed", "a match each"])
@pytest.mark.parametrize(("format", "choice"), CHOICES)
def test_a_large_import_is_written_by_the_worker_and_equals_the_request_s(
        settings: Any, format: str, choice: str, batches: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if batches == "a match each":
        # Every batch its own transaction, the groups' planned matches read 2 at a time:
        # what one run of the worker reads once (its entries and rounds) serves them all.
        monkeypatch.setattr(imports, "BATCH_SECONDS", 0)
        monkeypatch.setattr(imports, "PLANNED_WINDOW", 2)
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, format=format, results=9),
                                         hands=True)
    client = logged_in(organiser)
    # Today's one request (the threshold above the document's matches): the reference.
    reference_club = make_club("Bar Kaixo", organiser)
    assert post_import(client, reference_club.slug, exported, choice).status_code == 302
    reference = Competition.objects.get(club=reference_club)
    assert not LeagueImport.objects.exists()
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    target = make_club("Txoko Berri", organiser)
    response = post_import(client, target.slug, exported, choice)
    assert response.status_code == 302
    job = LeagueImport.objects.get()
    assert response["Location"].endswith(f"/club/{target.slug}/ligas/importar?importacion={job.pk}")
    imported = Competition.objects.get(club=target)
    assert imported.status == Competition.Status.IMPORTING and not imported.rated
    # The request wrote the competition's row and the document, nothing else: its pairs,
    # entries, draw, rounds and matches are the worker's (short transactions).
    assert not Pair.objects.filter(club=target).exists()
    assert not imported.entries.exists() and not imported.rounds.exists()
    assert not imported.matches.exists() and imported.draw is None
    page = client.get(response["Location"])
    assert page["Refresh"]
    assert f"importando: 0 de {len(exported['matches'])} resultados" in page.content.decode()
    # Invisible until done: not on the club's page, its own page 404, the API 202.
    assert "Importada" not in client.get(f"/club/{target.slug}/").content.decode()
    assert client.get(f"/club/{target.slug}/liga/{imported.pk}/").status_code == 404
    api = Client().get(f"/api/v1/leagues/{imported.pk}/export")
    assert api.status_code == 202 and api["Retry-After"]
    assert Client().get(f"/api/v1/leagues/{imported.pk}").status_code == 202
    # A second import of the same document meanwhile is a copy.
    again = post_import(client, target.slug, exported, choice)
    assert "es una copia de Importada" in again.content.decode()

    assert imports.catch_up() > 0
    job.refresh_from_db()
    imported.refresh_from_db()
    assert job.finished_at is not None and not job.error and imported.rated
    assert imported.status == reference.status
    assert client.get(response["Location"])["Location"].endswith(f"/liga/{imported.pk}/")
    assert client.get(f"/club/{target.slug}/liga/{imported.pk}/").status_code == 200
    assert "Importada" in client.get(f"/club/{target.slug}/").content.decode()
    assert (documents.league_document(imported, hands=True)
            == documents.league_document(reference, hands=True))
    # In the club's ratings once done, as the one-request import put it there.
    rating_store.catch_up()
    assert ratings(target.pk) == ratings(reference_club.pk) != {}


def ratings(club_id: int) -> dict[str, tuple[float, int]]:
    return {name: (round(mu, 9), n) for name, mu, n in PlayerRating.objects.filter(
        club_id=club_id).values_list("player__name", "mu", "matches")}


def test_a_small_import_stays_in_the_request(settings: Any) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 4, results=3), hands=True)
    other = make_club("Bar Kaixo", organiser)
    copy = imports.import_competition(other, exported, by=organiser)
    assert copy.status != Competition.Status.IMPORTING
    assert not LeagueImport.objects.exists()


def test_no_other_door_writes_a_result_of_a_competition_being_imported(
        settings: Any) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, format="groups", results=3),
                                         hands=True)
    other = make_club("Bar Kaixo", organiser)
    copy = imports.import_competition(other, exported, by=organiser, format="groups")
    assert imports.catch_up(0) == 0  # its pairs and frame only: no result written yet
    copy.refresh_from_db()
    assert copy.status == Competition.Status.IMPORTING and copy.entries.count() == 8
    match = copy.matches.filter(tie__isnull=True).order_by("number").first()
    assert match is not None and not match.played
    with pytest.raises(competitions.CompetitionError, match="Liga de invierno se está importando"):
        results.record_result(match, by=organiser, juegos=[3, 1])
    match.refresh_from_db()
    assert not match.played


@pytest.mark.parametrize(("format", "choice"), CHOICES)
def test_a_failure_midway_leaves_nothing(settings: Any,
                                         monkeypatch: pytest.MonkeyPatch,
                                         format: str, choice: str) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    monkeypatch.setattr(imports, "BATCH_SECONDS", 0)  # one match a batch: many commits
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, format=format, results=9),
                                         hands=True)
    other = make_club("Bar Kaixo", organiser)
    client = logged_in(organiser)
    counts = (Competition.objects.count, Match.objects.count, Pair.objects.count,
              Table.objects.count, Correction.objects.count)
    before = [count() for count in counts]
    location = post_import(client, other.slug, exported, choice)["Location"]
    assert "importacion=" in location
    real = imports._import_result
    calls: list[int] = []

    def breaks_at_the_seventh(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 7:
            raise competitions.CompetitionError("la partida 7 no se puede escribir")
        real(*args)

    monkeypatch.setattr(imports, "_import_result", breaks_at_the_seventh)
    imports.catch_up()
    assert calls and [count() for count in counts] == before
    page = client.get(location).content.decode()
    assert "no se hizo" in page and "la partida 7 no se puede escribir" in page


def test_a_pair_of_the_club_with_other_players_refuses_a_large_import_in_its_request(
        settings: Any) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, results=9), hands=True)
    other = make_club("Bar Kaixo", organiser)
    name = exported["pairs"][3]["name"]
    make_pair(other, "Otro", "Jugador", name=name)
    before = (Competition.objects.count(), Pair.objects.count(), LeagueImport.objects.count())
    page = post_import(logged_in(organiser), other.slug, exported, "liguilla")
    assert page.status_code == 400
    assert f"La pareja {name} ya existe en el club con otros jugadores" in page.content.decode()
    assert (Competition.objects.count(), Pair.objects.count(),
            LeagueImport.objects.count()) == before


def test_a_pair_made_meanwhile_fails_the_import_with_why_and_leaves_nothing(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the request and the worker the club makes a pair of a name the document
    has, with other players: the worker's pairs step refuses it and takes back the pairs
    it had made."""
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    monkeypatch.setattr(imports, "BATCH_SECONDS", 0)  # one pair a transaction
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, results=9), hands=True)
    other = make_club("Bar Kaixo", organiser)
    client = logged_in(organiser)
    location = post_import(client, other.slug, exported, "liguilla")["Location"]
    name = exported["pairs"][5]["name"]
    mine = make_pair(other, "Otro", "Jugador", name=name)
    imports.catch_up()
    assert list(Pair.objects.filter(club=other)) == [mine]
    assert not Competition.objects.filter(club=other).exists()
    job = LeagueImport.objects.get()
    assert job.finished_at is not None and job.competition_id is None
    page = client.get(location).content.decode()
    assert f"La pareja {name} ya existe en el club con otros jugadores" in page


def test_a_backup_taken_midway_is_restored_and_carried_on_to_the_same_end(
        settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """`manage.py backup` while the worker writes an import holds the document and how far
    it got; restored into an empty database, the worker carries it on from there."""
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    monkeypatch.setattr(imports, "BATCH_SECONDS", 0)
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    exported = documents.league_document(make_league(club, 8, results=9), hands=True)
    copy = imports.import_competition(make_club("Bar Kaixo", organiser), exported,
                                      by=organiser, name="Importada")
    job = LeagueImport.objects.get()
    imports.run(job.pk, until=0.0)  # pairs and frame, no match yet: time is up
    document = json.loads(LeagueImportDocument.objects.get(league_import=job).text)
    imports._batch(job, Competition.objects.get(pk=copy.pk), imports.read_checked(document),
                   organiser, job.total)
    imports._batch(job, Competition.objects.get(pk=copy.pk), imports.read_checked(document),
                   organiser, job.total)
    job.refresh_from_db()
    assert job.written == 2
    backup = tmp_path / "midway.json"
    call_command("backup", str(backup))
    wipe()
    call_command("restore", str(backup))
    restored = Competition.objects.get(pk=copy.pk)
    assert restored.status == Competition.Status.IMPORTING
    assert LeagueImport.objects.get().written == 2
    assert imports.catch_up() == len(exported["matches"]) - 2
    restored.refresh_from_db()
    assert restored.status != Competition.Status.IMPORTING
    assert documents.league_document(restored, hands=True) == {
        **exported, "name": "Importada"}
