"""A refusal that is a 409 of the service or the API reads, on a page, in the page's
language (issue 17 item 8: "API 409 errors in English on Spanish pages"), Spanish by
default; the JSON API says the same refusal in its English. The pages that show one:
the board's undo of a league result already final, the organiser's night deleting a
competition with results, a correction that would change a knockout already played."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from muscore.leagues import pages, results
from muscore.leagues.models import Match
from muscore.tables.models import Table
from tests.clubs.factory import logged_in

from .factory import liguilla
from .test_knockout_guard import cup, slot
from .test_table_settled import played

pytestmark = pytest.mark.django_db

ENGLISH = "The result is already final in"
SPANISH = "El resultado ya es definitivo en"


def settled() -> tuple[str, Table]:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    results.record_result(match, by=user, juegos=[3, 1], reason="acta")
    return competition.name, Table.objects.get(pk=table.pk)


@pytest.mark.parametrize("accept", ["", "es", "es-ES,es;q=0.9"])
def test_the_board_says_a_final_result_s_refusal_in_spanish(accept: str) -> None:
    name, table = settled()
    url = reverse("tables:undo", args=[table.id, table.edit_key])
    response = Client().post(url, {"revision": str(table.revision)},
                             HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 409
    text = response.content.decode()
    assert SPANISH in text and name in text and ENGLISH not in text


def test_the_board_in_basque_says_it_in_basque_and_the_api_in_english() -> None:
    name, table = settled()
    url = reverse("tables:undo", args=[table.id, table.edit_key])
    basque = Client().post(url, {"revision": str(table.revision)}, HTTP_ACCEPT_LANGUAGE="eu")
    assert basque.status_code == 409
    assert SPANISH not in basque.content.decode() and ENGLISH not in basque.content.decode()
    api = Client().delete(f"/api/v1/tables/{table.id}/hands/last",
                          headers={"X-Table-Key": table.edit_key, "Accept-Language": "es"})
    assert api.status_code == 409
    assert api.json()["error"].startswith(ENGLISH) and name in api.json()["error"]


def test_the_night_page_s_409_is_in_spanish() -> None:
    competition, user = liguilla(2)
    results.record_result(competition.matches.select_related("competition").get(), by=user,
                          juegos=[3, 1])
    url = reverse("clubs:delete_competition", args=[competition.club.slug, competition.pk])
    response = logged_in(user).post(url, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 409
    assert "ya tiene resultados: no se borra, se archiva" in response.content.decode()


def test_a_knockout_conflict_on_the_match_page_is_in_spanish() -> None:
    competition, user = cup()
    sf1: Match = slot(competition, "sf1")
    url = pages.competition_url(competition, "result", sf1.number)
    response = logged_in(user).post(url, {"juegos_first": 2, "juegos_second": 3,
                                          "reason": "al revés"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    text = response.content.decode()
    assert "Este cambio cambia quién juega las partidas" in text  # the final and third place
    assert "This change" not in text
