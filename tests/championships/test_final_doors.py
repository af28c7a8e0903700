"""A result is final when the table is done (issue 36 item 1): the deciding game of a
championship's final, once stored at its table, is final at once. Every door on it is
refused, changes nothing and names the championship: the phone's undo, the table API's
DELETE hands/last and PUT hands/N, piedras taps (page and API), a new hand (a vaca 2 on the
won table), the pair's link; the board offers neither "Deshacer" nor a new vaca. Only the
organiser changes it (docs/league.md, "When a result is final")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.championships import knockout, services
from muscore.championships.models import Championship
from muscore.leagues import competitions, confirmations, results
from muscore.leagues.models import Match
from muscore.leagues.views.base import pair_url
from muscore.tables import services as tables
from muscore.tables.models import Table
from tests.championships.factory import open_games, played_heats
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN

pytestmark = pytest.mark.django_db


def on_table(match: Match, by: Any) -> Table:
    """The match played on its table (one órdago: the championship's vacas are of 1
    juego), its first pair winning."""
    table = competitions.open_table(match, by=by)
    tables.add_hand(table, ORDAGO_A, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0
    return table


@dataclass
class Final:
    championship: Championship
    boss: Any
    match: Match
    table: Table
    champion: str


def final_on_tables(best_of: int) -> Final:
    """A knockout played on tables to its champion; the final's deciding game."""
    championship, boss, barmen, _sedes = played_heats()
    phase = services.add_phase(championship, by=boss, name="Final a cuatro", knockout=True,
                               best_of=best_of)
    phase = services.draw_phase(phase, by=boss, seed="Txapelketa")
    while games := open_games(phase):
        for match in games:
            on_table(match, boss)
    state = knockout.bracket(phase)
    assert state is not None and state.champion is not None
    match = Match.objects.select_related("competition", "table").get(
        pk=state.rounds[-1][0].games[-1].pk)
    assert match.table is not None
    champion = Client().get(f"/api/v1/championships/{championship.pk}").json()["champion"]
    assert champion
    return Final(championship, boss, match, match.table, champion)


def snapshot(final: Final) -> tuple[Any, ...]:
    match = Match.objects.get(pk=final.match.pk)
    table = Table.objects.get(pk=final.table.pk)
    return ((match.outcome, match.players), match.result_at, table.revision,
            list(table.hands.order_by("number").values_list("record", flat=True)))


@pytest.mark.parametrize("best_of", [1, 3])
def test_every_door_on_the_final_s_deciding_game_is_refused(best_of: int) -> None:
    final = final_on_tables(best_of)
    name = final.championship.name
    table = final.table
    assert results.is_final(final.match)
    before = snapshot(final)
    revision = str(Table.objects.get(pk=table.pk).revision)
    last = table.hands.count()
    key = {"X-Table-Key": table.edit_key}
    api = f"/api/v1/tables/{table.pk}"
    phone = Client(HTTP_ACCEPT_LANGUAGE="es")
    answers = {
        "phone's undo": phone.post(reverse("tables:undo", args=[table.pk, table.edit_key]),
                                   {"revision": revision}),
        "piedras tapped": phone.post(reverse("tables:piedras",
                                             args=[table.pk, table.edit_key]),
                                     {"side": "A", "n": "1", "revision": revision}),
        "API undo": Client().delete(f"{api}/hands/last", headers=key),
        "API correction": Client().put(f"{api}/hands/{last}", ORDAGO_B,
                                       content_type="application/json", headers=key),
        "API piedras": Client().post(f"{api}/piedras", {"side": "B", "n": 5},
                                     content_type="application/json", headers=key),
        "API vaca 2": Client().post(f"{api}/hands", PLAIN, content_type="application/json",
                                    headers=key),
    }
    for door, response in answers.items():
        assert response.status_code == 409, (door, response.status_code)
        text = response.content.decode()
        assert name in text, (door, text[:300])
        assert snapshot(final) == before, door
    spanish = answers["phone's undo"].content.decode()
    assert "definitivo" in spanish and "organizadores" in spanish
    # The pair's link: the losing pair cannot enter a result over it.
    keys = confirmations.keys_for([final.match])[final.match.pk]
    link = pair_url(final.match, keys[1]) + "anotar"
    response = phone.post(link, {"juegos_first": "0", "juegos_second": "1"})
    assert response.status_code == 403 and name in response.content.decode()
    with pytest.raises(confirmations.ClaimForbidden, match=name):
        confirmations.claim(final.match, side=1, juegos=[0, 1])
    assert snapshot(final) == before
    assert Client().get(f"/api/v1/championships/{final.championship.pk}"
                        ).json()["champion"] == final.champion
    # The board offers nothing that would be refused: no undo, no new vaca, no taps.
    board = reverse("tables:edit_board", args=[table.pk, table.edit_key])
    for url in (board, board + "?otra-vaca=1"):
        text = phone.get(url).content.decode()
        assert "Definitivo" in text and "btn-undo" not in text, url
        assert 'data-action="enter-hand"' not in text and 'name="side"' not in text, url
    # The organiser still corrects it (with its reason): his word is the league's.
    results.record_result(final.match, by=final.boss, juegos=[0, 1], reason="acta firmada")
    assert Client().get(f"/api/v1/championships/{final.championship.pk}"
                        ).json()["champion"] != final.champion


def test_a_best_of_3_s_first_game_is_final_once_won_too() -> None:
    """A knockout's game is final as soon as it is won (what is won in a knockout is won),
    whatever its number: the first game's table refuses an undo at once."""
    championship, boss, barmen, _sedes = played_heats()
    phase = services.draw_phase(
        services.add_phase(championship, by=boss, name="Cuadro", knockout=True, best_of=3),
        by=boss, seed="Txapelketa")
    match = open_games(phase)[0]
    table = on_table(match, boss)
    with pytest.raises(tables.ResultSettled, match=championship.name):
        tables.undo_last(table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0
