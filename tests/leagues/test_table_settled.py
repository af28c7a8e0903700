"""A league table's result, settled (issue 17 item 6): while provisional the table's undo
takes it back; once final (an organiser's or confirmed result, 24 hours, a ceros round
drawn from it, a knockout match played from it) the table refuses an undo or correction
of that vaca with a 409."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from muscore.leagues import ceros_rounds, competitions, results
from muscore.leagues.models import Competition, Match, from_q
from muscore.tables import services as tables
from muscore.tables.models import Table

from .factory import club_with_pairs, liguilla
from .helpers import ORDAGO_A, ORDAGO_B, PLAIN, game
from .test_services import played_groups

pytestmark = pytest.mark.django_db

SETTLED = "El resultado ya es definitivo en"


def played(competition: Competition, user: Any, match: Match | None = None) -> tuple[Match, Table]:
    """A match whose table won its first vaca 3-1 (stored with source "table")."""
    match = match or competition.matches.get()
    table = competitions.open_table(match, by=user)
    for record in (PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0
    return match, table


def test_a_provisional_result_is_taken_back_by_the_table_s_undo() -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    assert not results.is_final(match)
    tables.undo_last(table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome is None


def test_an_organiser_s_result_refuses_the_table_s_undo_and_correction() -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    results.record_result(match, by=user, juegos=[1, 3], reason="acta en papel")
    revision = Table.objects.get(pk=table.pk).revision
    with pytest.raises(tables.ResultSettled, match="Liga") as refused:
        tables.undo_last(table, via="edit_link")
    message = refused.value.page_message()
    assert SETTLED in message and competition.name in message
    with pytest.raises(tables.ResultSettled):
        tables.replace_hand(table, 2, ORDAGO_B, via="edit_link")
    table.refresh_from_db()
    assert table.revision == revision and table.hands.count() == 6  # nothing half-saved
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (1, 3))


def test_a_table_s_result_is_final_after_24_hours() -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    Match.objects.filter(pk=match.pk).update(result_at=timezone.now() - timedelta(hours=25))
    with pytest.raises(tables.ResultSettled):
        tables.undo_last(table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0


def test_later_vacas_stay_the_table_s_own() -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    results.record_result(match, by=user, juegos=[3, 1], reason="acta")
    tables.add_hand(table, PLAIN, via="edit_link")  # the second vaca, the league ignores it
    tables.undo_last(table, via="edit_link")
    assert table.hands.count() == 6


def test_a_ceros_result_a_later_round_was_drawn_from_refuses_the_undo() -> None:
    club, user, pairs = club_with_pairs(3)
    competition = competitions.create_competition(
        club, by=user, name="Ceros de diciembre", pairs=pairs, format="ceros", ceros=2,
        draw=[0, 1, 2])
    ceros_rounds.make_round(competition, by=user)
    first = ceros_rounds.publish_round(competition, by=user).matches.get()
    match, table = played(competition, user, first)
    assert not results.is_final(match)
    ceros_rounds.make_round(competition, by=user)
    ceros_rounds.publish_round(competition, by=user)
    with pytest.raises(tables.ResultSettled, match="Ceros de diciembre"):
        tables.undo_last(table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0


def test_the_board_and_the_api_answer_409_naming_the_competition(client: Client) -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    results.record_result(match, by=user, juegos=[3, 1], reason="acta")
    url = reverse("tables:undo", args=[table.id, table.edit_key])
    response = client.post(url, {"revision": str(Table.objects.get(pk=table.pk).revision)},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 409
    text = response.content.decode()
    assert SETTLED in text and competition.name in text and "organizadores" in text
    assert Table.objects.get(pk=table.pk).hands.count() == 6


def board_text(client: Client, table: Table, query: str = "") -> str:
    url = reverse("tables:edit_board", args=[table.id, table.edit_key]) + query
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    return response.content.decode()


def test_a_league_table_s_board_names_its_match_and_leads_back(client: Client) -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    text = board_text(client, table)
    assert competition.name in text and "Jornada 1 · partida 1" in text
    assert "Resultado de la partida:" in text and "3–1" in text and "Provisional" in text
    assert f"Volver a {competition.name}" in text and 'data-action="otra-vaca"' not in text
    back = reverse("clubs:competition", args=[competition.club.slug, competition.pk])
    assert f'href="{back}"' in text
    plain = tables.create_table()
    assert "data-owner" not in board_text(client, plain)


def test_a_polls_live_part_asks_the_league_only_at_the_vaca_s_end(client: Client) -> None:
    # The live part shows the way back only on the vaca's end: a poll mid-vaca does not
    # read the league's match (the final's day: 448 phones' first polls at once).
    competition, user = liguilla(2)
    match, table = played(competition, user)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key]) + "?live=1"
    live = client.get(url, HTTP_ACCEPT_LANGUAGE="es", HTTP_HX_REQUEST="true").content.decode()
    assert f"Volver a {competition.name}" in live  # the vaca just won: its end is shown
    tables.add_hand(table, PLAIN, via="edit_link")  # the next vaca's first hand
    with CaptureQueriesContext(connection) as queries:
        live = client.get(url, HTTP_ACCEPT_LANGUAGE="es",
                          HTTP_HX_REQUEST="true").content.decode()
    assert "data-revision" in live and f"Volver a {competition.name}" not in live
    assert not any("leagues_match" in q["sql"] for q in queries.captured_queries)


def test_the_board_says_the_undo_took_the_result_back(client: Client) -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    url = reverse("tables:undo", args=[table.id, table.edit_key])
    response = client.post(url, {"revision": str(Table.objects.get(pk=table.pk).revision)})
    assert response.status_code == 302 and "pendiente=1" in response["Location"]
    text = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "el resultado de la partida vuelve a estar pendiente" in text
    assert "Resultado de la partida:" not in text


def test_the_board_shows_the_organiser_s_correction(client: Client) -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    before = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    results.record_result(match, by=user, juegos=[1, 3], reason="acta en papel")
    text = board_text(client, table)
    assert "1–3" in text and "Definitivo" in text
    # The page's tag is its body's (not the table's revision, which the correction left
    # as it was): a reload holding the old result's page gets the new one, never a 304.
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es", HTTP_IF_NONE_MATCH=before["ETag"])
    assert page.status_code == 200 and "Definitivo" in page.content.decode()


def test_the_api_refuses_the_undo_of_a_final_result_with_409(client: Client) -> None:
    competition, user = liguilla(2)
    match, table = played(competition, user)
    results.record_result(match, by=user, juegos=[3, 0], reason="acta")
    response = client.delete(f"/api/v1/tables/{table.id}/hands/last",
                             headers={"X-Table-Key": table.edit_key})
    assert response.status_code == 409
    assert competition.name in response.json()["error"]
    assert Table.objects.get(pk=table.pk).hands.count() == 6


def test_a_group_result_the_played_knockout_came_from_refuses_the_undo() -> None:
    competition, user = played_groups(2, [3, 1, 0, 2, 7, 5, 6, 4])
    match = competition.matches.select_related("table").get(from_q("table"))
    assert match.table is not None and results.is_final(match)
    with pytest.raises(tables.ResultSettled):
        tables.undo_last(match.table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table"


def test_a_won_semifinal_is_final_at_once_and_names_the_final_once_played() -> None:
    # A knockout's game is final as soon as it is won at its table (docs/league.md): no
    # undo, no correction, no new vaca there; the organiser corrects it.
    competition, user = played_groups(2, [3, 1, 0, 2, 7, 5, 6, 4])
    sf1 = game(competition, "sf1")
    results.clear_result(sf1, by=user, reset=True, reason="un error")  # final and third cleared
    sf1, table = played(competition, user, game(competition, "sf1"))
    assert results.is_final(sf1)
    for door in (lambda: tables.undo_last(table, via="edit_link"),
                 lambda: tables.add_hand(table, PLAIN, via="edit_link"),
                 lambda: tables.add_piedras(table, "A", 2, via="edit_link")):
        with pytest.raises(tables.ResultSettled, match="knockout match"):
            door()
    final = game(competition, "final")
    results.record_result(final, by=user, juegos=[3, 0], reason="acta")
    with pytest.raises(tables.ResultSettled, match=f"partida {final.number}"):
        tables.undo_last(table, via="edit_link")
    sf1.refresh_from_db()
    assert sf1.outcome.source == "table" and sf1.outcome.winner == 0
    assert Table.objects.get(pk=table.pk).hands.count() == 6


def undone_then_settled(competition: Competition, user: Any) -> tuple[Match, Table, int]:
    """A played match whose winning hand was undone (the result taken back) and whose result
    an organiser then entered: the table's first vaca is open again, its result final."""
    match, table = played(competition, user)
    tables.undo_last(table, via="edit_link")
    results.record_result(match, by=user, juegos=[3, 1], reason="acta en papel")
    return match, table, Table.objects.get(pk=table.pk).revision


def test_a_redo_or_an_added_hand_that_would_change_a_final_result_is_refused() -> None:
    competition, user = liguilla(2)
    match, table, revision = undone_then_settled(competition, user)
    with pytest.raises(tables.ResultSettled, match=competition.name):
        tables.redo_last(table, via="edit_link")  # would win the first vaca again
    with pytest.raises(tables.ResultSettled, match=competition.name):
        tables.add_hand(table, ORDAGO_A, via="edit_link")
    with pytest.raises(tables.ResultSettled, match=competition.name):
        tables.add_piedras(table, "A", 5, via="edit_link")
    table.refresh_from_db()
    assert table.revision == revision and table.hands.count() == 5  # nothing half-saved
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 1))


def test_the_api_and_the_board_refuse_them_with_409_naming_the_competition(
    client: Client,
) -> None:
    competition, user = liguilla(2)
    match, table, revision = undone_then_settled(competition, user)
    key = {"X-Table-Key": table.edit_key}
    added = client.post(f"/api/v1/tables/{table.id}/hands", ORDAGO_A,
                        content_type="application/json", headers=key)
    piedras = client.post(f"/api/v1/tables/{table.id}/piedras", {"side": "A", "n": 5},
                          content_type="application/json", headers=key)
    for response in (added, piedras):
        assert response.status_code == 409
        assert competition.name in response.json()["error"]
    url = reverse("tables:redo", args=[table.id, table.edit_key])
    response = client.post(url, {"revision": str(revision)}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 409
    text = response.content.decode()
    assert SETTLED in text and competition.name in text
    assert Table.objects.get(pk=table.pk).revision == revision
