"""A 1 v 1 table (two players, each for himself) on every screen: /nueva, the board,
the hand entry, the calculator, the lector, and the API (issue 19)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.tables.test_pages import edit_url, hand_url, post_hand, score_of, text_of

pytestmark = pytest.mark.django_db

SETUP = {"players": "2", "name_0": "Ana", "name_1": "Bruno", "name_2": "Carla",
         "name_3": "Diego", "mano": "1", "reyes": "8", "target": "30", "juegos": "1",
         "real31": "no"}


def test_nueva_offers_two_players_each_for_himself(client: Client) -> None:
    page = client.get(reverse("tables:new")).content.decode()
    assert re.search(r'name="players" value="2"', page)
    # Two is offered among the tables each for himself (issue 37), and says so.
    alone = page[page.index("Cada uno por su cuenta"):]
    assert 'name="players" value="2"' in alone[:alone.index("</div>")]
    assert "A dos: cada jugador juega por su cuenta" in page


def test_setup_of_two_keeps_two_names_and_the_mano(client: Client) -> None:
    response = client.post(reverse("tables:new"), SETUP)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.players == ["Ana", "Bruno"]  # the hidden names of seats 3 and 4 are dropped
    assert table.rules["players"] == 2 and table.first_mano == 1
    board = text_of(client.get(response.url))
    assert "Mano: Bruno" in board and "da: Ana" in board
    assert "Ana y" not in board  # a side of one player is named alone


def test_setup_of_two_refuses_a_third_seat_as_mano(client: Client) -> None:
    response = client.post(reverse("tables:new"), {**SETUP, "mano": "2"})
    assert response.status_code == 400
    assert "En una mesa de 2 la mano es un asiento del 1 al 2." in text_of(response)
    assert not Table.objects.exists()


def test_two_names_make_a_table_of_two() -> None:
    table = services.create_table(players=["Ana", "Bruno"])
    assert table.rules["players"] == 2


def test_a_hand_at_two_is_entered_with_two_seats_and_counted(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno"], rules={"target": 30}, mano=1)
    form = client.get(hand_url(table)).content.decode()
    assert re.findall(r'data-picker-seat="(\d)"', form) == ["1", "0"]
    # The first shared two-player example, entered as a table would: cards and taps.
    data = {"c0": "6 4 C 7", "c1": "R 2 4 C",
            "b_grande": "B2", "e_grande": "no_quiero",
            "b_chica": "A5", "e_chica": "no_quiero",
            "b_punto": "B2", "e_punto": "no_quiero"}
    saved = post_hand(client, table, data)
    assert saved.status_code == 302, text_of(saved)
    assert score_of(table) == {"A": 1, "B": 3}
    board = text_of(client.get(edit_url(table)))
    assert "Mano: Ana" in board
    assert Hand.objects.get().record["hands"] == {"0": "6 4 C 7", "1": "R 2 4 C"}


def test_without_cards_one_player_declares_for_his_side(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno"])
    saved = post_hand(client, table, {"p1": "medias", "j1": "31", "c0": "R R 5 4",
                                      "w_grande": "A", "w_chica": "B"})
    assert saved.status_code == 302, text_of(saved)
    hand = services.table_state(table)["current"]["hands"][-1]
    assert hand["result"]["lances"]["pares"] == {"side": "B", "points": 2}
    assert hand["result"]["lances"]["juego"] == {"side": "B", "points": 3}


def test_the_calculator_has_a_two_player_table(client: Client) -> None:
    page = client.get("/calculadora/?players=2").content.decode()
    assert 'name="c1"' in page and 'name="c2"' not in page
    assert 'href="/calculadora/?players=2" aria-current="true"' in page
    answer = client.post("/calculadora/", {"players": "2", "c0": "5 7 6 4", "c1": "R C 3 R",
                                           "f_grande": "B", "b_grande": "10",
                                           "e_grande": "no_quiero", "f_chica": "A",
                                           "b_chica": "5", "e_chica": "no_quiero"})
    assert answer.status_code == 200
    assert "Queda 1–5" in text_of(answer)


def test_the_lector_reads_a_hand_whatever_the_table() -> None:
    # The lector reads four cards, not a table: a 1 v 1 hand reads as any other.
    response = Client().get("/lector/", {"c0": "R C 3 R"})
    assert response.status_code == 200


def test_the_api_creates_and_scores_a_table_of_two(client: Client) -> None:
    created = client.post("/api/v1/tables", json.dumps({"players": ["Ana", "Bruno"]}),
                          content_type="application/json")
    assert created.status_code == 201, created.content
    body: dict[str, Any] = created.json()
    assert body["rules"]["players"] == 2
    schema = client.get("/api/v1/openapi.json").json()
    assert 2 in schema["components"]["schemas"]["Rules"]["properties"]["players"]["enum"]


def test_a_lone_holder_is_told_in_the_singular(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno"])
    page = text_of(client.post(hand_url(table), {"act": "check", "j1": "31"}))
    assert "Solo Bruno tiene juego: cobra sin apostar." in page
