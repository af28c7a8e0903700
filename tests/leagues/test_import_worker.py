"""A large league import written by the worker in short transactions (issue 21): checked
whole in the request, invisible until the worker has written it, then the same
competition a one-request import makes; nothing left when it fails midway."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from muscore.clubs.models import Pair
from muscore.leagues import competitions, documents, imports, rating_store, results
from muscore.leagues.models import Competition, Correction, LeagueImport, Match, PlayerRating
from muscore.tables.models import Table
from tests.clubs.factory import logged_in, make_club, make_league, make_user

pytestmark = pytest.mark.django_db

CHOICES = [("liguilla", "liguilla"), ("groups", "groups-2")]


def upload(data: object) -> SimpleUploadedFile:
    return SimpleUploadedFile("liga.json", json.dumps(data).encode(),
                              content_type="application/json")


def post_import(client: Client, slug: str, exported: Any, choice: str) -> Any:
    return client.post(f"/club/{slug}/ligas/importar",
                       {"file": upload(exported), "format": choice, "name": "Importada",
                        "rated": "1"})


@pytest.mark.parametrize(("format", "choice"), CHOICES)
def test_a_large_import_is_written_by_the_worker_and_equals_the_request_s(
        settings: Any, format: str, choice: str) -> None:
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
    copy = documents.import_competition(other, exported, by=organiser)
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
    copy = documents.import_competition(other, exported, by=organiser, format="groups")
    match = copy.matches.filter(slot="").order_by("number").first()
    assert match is not None and not match.source
    with pytest.raises(competitions.CompetitionError, match="Liga de invierno se está importando"):
        results.record_result(match, by=organiser, juegos=[3, 1])
    match.refresh_from_db()
    assert not match.source


@pytest.mark.parametrize(("format", "choice"), CHOICES)
def test_a_failure_midway_leaves_nothing(settings: Any,
                                         monkeypatch: pytest.MonkeyPatch,
                                         format: str, choice: str) -> None:
    settings.MUSCORE_IMPORT_IN_REQUEST_MAX = 10
    monkeypatch.setattr(imports, "BATCH_SECONDS", 0)  # one match a batch: many commits
    monkeypatch.setattr(imports, "PAUSE_SECONDS", 0)
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
    real = documents._import_result
    calls: list[int] = []

    def breaks_at_the_seventh(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 7:
            raise competitions.CompetitionError("la partida 7 no se puede escribir")
        real(*args)

    monkeypatch.setattr(documents, "_import_result", breaks_at_the_seventh)
    imports.catch_up()
    assert calls and [count() for count in counts] == before
    page = client.get(location).content.decode()
    assert "no se hizo" in page and "la partida 7 no se puede escribir" in page
