"""The pages of a ceros tournament: created from the new competition form, each round
drawn, checked and published by an organiser, printed with its tables and the pair
resting, results from the match pages, the API's clear answer, in es, en and eu."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.conf import settings
from django.test import Client

from muscore.clubs.models import Club
from muscore.leagues import ceros_rounds
from muscore.leagues.models import CerosDraft, CerosEvent, Competition, Match, Round
from tests.clubs.factory import logged_in, make_club, make_pair, make_user
from tests.test_languages_pages import LANGUAGES, foreign_runs, found_in, visible_text

pytestmark = pytest.mark.django_db

NAMES = [("Ana", "Bea"), ("Carlos", "Dani"), ("Eva", "Fermín"), ("Gorka", "Hugo"),
         ("Irene", "Jon")]


def club_of_five() -> Club:
    club = make_club()
    for names in NAMES:
        make_pair(club, *names)
    return club


def create(client: Client, club: Club, ceros: int = 2) -> Competition:
    response = client.post(f"/club/{club.slug}/ligas/nueva", {
        "name": "Ceros del viernes", "format": "ceros", "ceros": ceros, "legs": 1,
        "groups": 2, "pairs": [p.pk for p in club.pairs.all()], "reyes": 8, "target": 40,
        "juegos": 3, "real31": "no", "win": 2, "loss": 0, "forfeit": 0,
    })
    competition = Competition.objects.get(name="Ceros del viernes")
    assert response.status_code == 302
    assert response["Location"] == f"/club/{club.slug}/liga/{competition.pk}/ceros/"
    return competition


def test_an_organiser_runs_a_tournament_from_the_pages() -> None:
    club = club_of_five()
    organiser = logged_in(club.memberships.get().user)
    competition = create(organiser, club)
    assert competition.format == "ceros" and competition.ceros == 2
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    # The league's own pages lead to the tournament's.
    assert organiser.get(base)["Location"] == base + "ceros/"
    assert organiser.get(base + "sorteo")["Location"] == base + "ceros/"
    page = organiser.get(base + "ceros/").content.decode()
    assert "Sortear la ronda 1" in page
    assert organiser.post(base + "ceros/sortear").status_code == 302
    page = organiser.get(base + "ceros/").content.decode()
    assert "Publicar la ronda 1" in page and "Descansa:" in page and "data-draft" in page
    # A visitor sees no draft.
    assert "data-draft" not in Client().get(base + "ceros/").content.decode()
    assert organiser.post(base + "ceros/sortear", {"redraw": "1"}).status_code == 302
    response = organiser.post(base + "ceros/publicar")
    assert response["Location"] == base + "jornada/1/"
    sheet = organiser.get(base + "jornada/1/").content.decode()
    assert "Ronda 1" in sheet and "Descansa:" in sheet and 'class="table-n">1<' in sheet
    assert 'class="table-n">2<' in sheet and "clubs-print.css" in sheet
    # Round 2 waits for every result.
    first, second = Match.objects.filter(competition=competition).order_by("number")
    organiser.post(base + f"partida/{first.number}/resultado",
                   {"juegos_first": 3, "juegos_second": 1})
    response = organiser.post(base + "ceros/sortear")
    assert response.status_code == 400
    assert "Faltan resultados de la ronda 1" in response.content.decode()
    assert not CerosDraft.objects.exists()
    assert "Falta 1 resultado de la ronda 1" in organiser.get(base + "ceros/").content.decode()
    organiser.post(base + f"partida/{second.number}/no-presentado", {"who": "0"})
    assert organiser.post(base + "ceros/sortear").status_code == 302
    organiser.post(base + "ceros/publicar")
    # Round 1's loser cannot change now: the match page says why.
    response = organiser.post(base + f"partida/{first.number}/resultado",
                              {"juegos_first": 1, "juegos_second": 3, "reason": "Mal anotado"})
    assert response.status_code == 400
    assert "ronda 2 ya está sorteada" in response.content.decode()
    # Played to the end by hand.
    for _ in range(30):
        state = ceros_rounds.table(competition)
        if state.winner is not None:
            break
        if state.complete:
            organiser.post(base + "ceros/sortear")
            organiser.post(base + "ceros/publicar")
        for match in Match.objects.filter(competition=competition).unplayed():
            organiser.post(base + f"partida/{match.number}/resultado",
                           {"juegos_first": 3, "juegos_second": 2})
    state = ceros_rounds.table(competition)
    assert state.winner is not None
    page = organiser.get(base + "ceros/").content.decode()
    assert f"Gana la pareja {state.winner.pair.name}" in page and "Sortear la ronda" not in page
    assert list(CerosEvent.objects.values_list("action", flat=True))[:3] == [
        "draw", "redraw", "publish"]


def test_visitors_and_other_clubs_organisers_get_403_and_nothing_written() -> None:
    club = club_of_five()
    organiser = logged_in(club.memberships.get().user)
    competition = create(organiser, club)
    base = f"/club/{club.slug}/liga/{competition.pk}/ceros/"
    stranger = make_user("otra")
    make_club("Otro bar", organiser=stranger)
    for client in (Client(), logged_in(stranger)):
        assert client.post(base + "sortear").status_code == 403
        assert client.post(base + "publicar").status_code == 403
        assert client.post(f"/club/{club.slug}/ligas/nueva", {"format": "ceros"}).status_code == 403
    assert not CerosDraft.objects.exists() and not CerosEvent.objects.exists()
    organiser.post(base + "sortear")
    for client in (Client(), logged_in(stranger)):
        assert client.post(base + "publicar").status_code == 403
        assert client.post(base + "sortear", {"redraw": "1"}).status_code == 403
    assert not Round.objects.exists() and CerosEvent.objects.count() == 1
    assert Competition.objects.count() == 1


def test_a_league_has_no_ceros_page_and_a_ceros_no_league_standings() -> None:
    club = club_of_five()
    organiser = logged_in(club.memberships.get().user)
    competition = create(organiser, club)
    organiser.post(f"/club/{club.slug}/liga/{competition.pk}/ceros/sortear")
    organiser.post(f"/club/{club.slug}/liga/{competition.pk}/ceros/publicar")
    api = f"/api/v1/leagues/{competition.pk}"
    response = Client().get(api)
    assert response.status_code == 409
    assert "ceros tournament" in response.json()["error"]
    assert response.json()["export"] == api + "/export"
    # Its document (league.md's format "ceros") is the export, linked from its page.
    exported = Client().get(api + "/export")
    assert exported.status_code == 200
    assert json.loads(exported.content)["format"] == {"kind": "ceros", "ceros": competition.ceros}
    page = organiser.get(f"/club/{club.slug}/liga/{competition.pk}/ceros/").content.decode()
    assert f'href="{api}/export"' in page
    table = Client().get(api + "/standings.csv")
    assert table.status_code == 200
    rows = list(csv.DictReader(io.StringIO(table.content.decode("utf-8-sig"))))
    assert len(rows) == 5 and set(rows[0]) >= {"name", "lost", "ceros_left", "out_in_round"}
    matches = Client().get(api + "/matches.csv")
    assert matches.status_code == 200 and len(matches.content.decode().splitlines()) == 3
    other = Competition.objects.create(club=club, name="Liga", rules=competition.rules)
    assert Client().get(f"/club/{club.slug}/liga/{other.pk}/ceros/").status_code == 404


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_tournament_pages_speak_only_their_language(code: str) -> None:
    club = club_of_five()
    user = club.memberships.get().user
    organiser = logged_in(user)
    competition = create(organiser, club)
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    organiser.post(base + "ceros/sortear")
    organiser.post(base + "ceros/publicar")
    first = Match.objects.filter(competition=competition).order_by("number").first()
    assert first is not None
    organiser.post(base + f"partida/{first.number}/resultado",
                   {"juegos_first": 3, "juegos_second": 0})
    organiser.post(base + "ceros/sortear")  # refused: the page shows why
    foreign = foreign_runs(code)
    wrong = {}
    for who, client in (("visitor", Client()), ("organiser", organiser)):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
        for url in (base + "ceros/", base + "jornada/1/", base + "jornadas",
                    f"/club/{club.slug}/ligas/nueva"):
            response = client.get(url)
            assert response.status_code in (200, 403), (url, response.status_code)
            html = response.content.decode()
            assert f'<html lang="{code}"' in html
            found = found_in(visible_text(html), foreign)
            if found:
                wrong[(who, url)] = found
        response = client.post(base + "ceros/sortear")
        assert response.status_code in (400, 403)
        found = found_in(visible_text(response.content.decode()), foreign)
        if found:
            wrong[(who, "sortear")] = found
    assert not wrong, wrong


def test_every_page_of_a_tournament_answers_for_visitor_and_organiser() -> None:
    club = club_of_five()
    organiser = logged_in(club.memberships.get().user)
    competition = create(organiser, club)
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    organiser.post(base + "ceros/sortear")
    organiser.post(base + "ceros/publicar")
    first = Match.objects.filter(competition=competition).order_by("number").first()
    assert first is not None
    organiser.post(base + f"partida/{first.number}/resultado",
                   {"juegos_first": 3, "juegos_second": 1})
    bye = Round.objects.get(competition=competition).bye
    assert bye is not None
    urls = [base + "ceros/", base + "jornadas", base + "jornada/1/", base + "pareja/0/",
            base + f"partida/{first.number}/", base + "jornada/1/tarjeta.png",
            base + "jornada/1/tarjeta.txt", f"/club/{club.slug}/tv/?liga={competition.pk}",
            f"/club/{club.slug}/", f"/api/v1/leagues/{competition.pk}/matches.csv"]
    for client in (Client(), organiser):
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
    assert organiser.get(base + "jornada/1/enlaces").status_code == 200
    # The bar's screen shows the pairs still in with their ceros.
    screen = Client().get(f"/club/{club.slug}/tv/?liga={competition.pk}").content.decode()
    loser = first.second
    assert loser is not None and loser.pair.name in screen and "●○" in screen


def queries_of_the_page(count: int) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from muscore.leagues import competitions, results
    from tests.leagues.factory import club_with_pairs

    club, user, pairs = club_with_pairs(count, make_user(f"org{count}"))
    competition = competitions.create_competition(club, by=user, name="T", pairs=pairs,
                                              format="ceros", ceros=2)
    while ceros_rounds.table(competition).winner is None:
        ceros_rounds.make_round(competition, by=user)
        for match in ceros_rounds.publish_round(competition, by=user).matches.all():
            results.record_result(match, by=user, juegos=[3, 1])
    client = logged_in(user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/club/{club.slug}/liga/{competition.pk}/ceros/").status_code == 200
    return len(queries)


def test_the_tournament_page_reads_as_many_queries_whatever_its_size() -> None:
    assert queries_of_the_page(4) == queries_of_the_page(12)
