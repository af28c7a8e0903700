"""The organiser's import page: a competition's export (league.md's JSON) made again in
the club, a liguilla or groups and a knockout as the organiser says; 403 for others."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from muscore.leagues import documents
from muscore.leagues.models import Competition
from tests.clubs.factory import logged_in, make_club, make_league, make_user

pytestmark = pytest.mark.django_db


def upload(data: object, name: str = "liga.json") -> SimpleUploadedFile:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


@pytest.mark.parametrize(("format", "choice"), [("liguilla", "liguilla"),
                                                ("groups", "groups-2")])
def test_an_organiser_imports_an_export_as_it_was(format: str, choice: str) -> None:
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    competition = make_league(club, 8, format=format, results=6)
    exported = documents.league_document(competition, hands=True)
    client = logged_in(organiser)
    page = client.get(f"/club/{club.slug}/")
    assert f"/club/{club.slug}/ligas/importar" in page.content.decode()
    # Into the club it came from: a copy, refused (its results would count twice).
    copy_of_own = client.post(f"/club/{club.slug}/ligas/importar",
                              {"file": upload(exported), "format": choice})
    assert copy_of_own.status_code == 400
    assert "es una copia de Liga de invierno" in copy_of_own.content.decode()
    assert Competition.objects.count() == 1
    other = make_club("Bar Kaixo", organiser)
    assert client.get(f"/club/{other.slug}/ligas/importar").status_code == 200
    assert 'name="file"' in client.get(f"/club/{other.slug}/ligas/importar").content.decode()
    response = client.post(f"/club/{other.slug}/ligas/importar",
                           {"file": upload(exported), "format": choice,
                            "name": "Liga de Peña Txoko", "rated": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    copy = Competition.objects.exclude(pk=competition.pk).get()
    assert response["Location"].endswith(f"/liga/{copy.pk}/")
    assert copy.format == format and copy.name == "Liga de Peña Txoko"
    assert documents.league_document(copy, hands=True) == {**exported, "name": copy.name}


def test_a_bad_file_says_why_and_writes_nothing() -> None:
    organiser = make_user("maite")
    club = make_club("Peña Txoko", organiser)
    client = logged_in(organiser)
    url = f"/club/{club.slug}/ligas/importar"
    for data, words in [(b"{not json", "no es un JSON"),
                        ({"name": "X", "pairs": []}, "al menos 2 parejas")]:
        response = client.post(url, {"file": upload(data), "format": "liguilla"})
        assert response.status_code == 400 and words in response.content.decode()
    assert not Competition.objects.exists()


def test_only_the_club_s_organisers_import() -> None:
    club = make_club("Peña Txoko", make_user("maite"))
    url = f"/club/{club.slug}/ligas/importar"
    doc = {"name": "X", "pairs": [{"name": "A", "players": ["a", "b"]},
                                  {"name": "B", "players": ["c", "d"]}]}
    for client in (Client(), logged_in(make_user("intrusa"))):
        assert client.get(url).status_code == 403
        assert client.post(url, {"file": upload(doc), "format": "liguilla"}).status_code == 403
    assert not Competition.objects.exists()
