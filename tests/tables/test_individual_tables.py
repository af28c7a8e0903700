"""Individual play at a table (issue 37): /nueva offers each for himself for 3 to 6, the
board shows every player's piedras, taps and the recuento name each player."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore.tables import board, services
from muscore.tables.models import Hand, Table

pytestmark = pytest.mark.django_db

SETUP = {"mano": "0", "reyes": "8", "target": "40", "juegos": "2", "real31": "no"}
# The shared example "three players, everyone passes": A 2, B 2, C 1.
THREE_CARDS = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}}
SIX = ["Ana", "Bruno", "Carla", "Diego", "Eva", "Fede"]


def edit_url(table: Table, name: str = "tables:edit_board") -> str:
    return reverse(name, args=[table.id, table.edit_key])


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.mark.parametrize(("choice", "count", "individual"), [
    ("3", 3, True), ("4i", 4, True), ("5", 5, True), ("6i", 6, True),
    ("4", 4, None), ("6", 6, None), ("2", 2, None),
])
def test_a_new_table_is_each_for_himself_from_3_to_6(
    client: Client, choice: str, count: int, individual: bool | None
) -> None:
    response = client.post(reverse("tables:new"), {**SETUP, "players": choice})
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.rules["players"] == count
    assert table.rules.get("individual") is individual
    # Without names each player is his own letter; by pairs A1, B1, A2...
    expected = list("ABCDEF"[:count]) if individual else [
        f"{'AB'[seat % 2]}{seat // 2 + 1}" for seat in range(count)]
    assert table.players == expected


def test_the_setup_offers_each_for_himself_and_says_so_for_two(client: Client) -> None:
    page = client.get(reverse("tables:new")).content.decode()
    for value in ("3", "4i", "5", "6i", "2", "4", "6"):
        assert f'name="players" value="{value}"' in page
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Por parejas" in text and "Cada uno por su cuenta" in text
    assert "A dos: cada jugador juega por su cuenta" in text
    assert "Tres en el bar" in text and "Cinco en familia" in text
    assert 'data-preset-players="3"' in page and 'data-preset-players="5"' in page


def test_a_setup_refused_saves_nothing(client: Client) -> None:
    # Three players: the mano is a seat from 1 to 3.
    response = client.post(reverse("tables:new"), {**SETUP, "players": "3", "mano": "4"})
    assert response.status_code == 400
    assert "la mano es un asiento del 1 al 3" in text_of(response)
    response = client.post(reverse("tables:new"), {**SETUP, "players": "7"})
    assert response.status_code == 400
    assert not Table.objects.exists()


def test_names_are_kept_by_seat(client: Client) -> None:
    names = {f"name_{seat}": name for seat, name in enumerate(SIX)}
    client.post(reverse("tables:new"), {**SETUP, "players": "5", **names})
    table = Table.objects.get()
    assert table.players == SIX[:5]
    assert table.rules["individual"] is True


def test_the_board_of_six_shows_every_players_piedras(client: Client) -> None:
    table = services.create_table(players=SIX, rules={"individual": True})
    for side, n in (("A", 5), ("C", 12), ("F", 37), ("D", 1)):
        services.add_piedras(table, side, n, via="api")
    response = client.get(edit_url(table))
    html = response.content.decode()
    assert response.status_code == 200
    cards = re.findall(r'<article class="side side-([A-F])( is-dentro)?" data-side="\1">', html)
    assert [side for side, _dentro in cards] == list("ABCDEF")
    assert [side for side, dentro in cards if dentro] == ["F"]
    points = re.findall(r'<p class="points" data-points>(\d+)</p>', html)
    assert points == ["5", "0", "12", "1", "0", "37"]
    # 5 + 12 + 1 + 37 piedras: 1 + 2 + 0 + 7 amarracos and 0 + 2 + 1 + 2 loose ones.
    assert html.count('class="amarraco"') == 10 and html.count('class="piedra"') == 5
    assert "<title>5–0–12–1–0–37 · muscore</title>" in html
    assert "Marcador: Ana, Bruno, Carla, Diego, Eva y Fede, cada uno por su cuenta" in html
    # Six lines in the chart, one colour each; and the taps, one set a player.
    lines = re.findall(r'<polyline class="chart-([a-f])"', html)
    assert lines == list("abcdef")
    assert len(re.findall(r'data-piedras-side="([A-F])"', html)) == 6
    text = text_of(response)
    assert "pareja" not in text.lower() and "compañer" not in text.lower()


def test_a_tap_for_a_player_of_the_table_counts_and_one_not_there_is_refused(
    client: Client,
) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla"])
    assert table.rules["players"] == 3
    url = edit_url(table, "tables:piedras")
    response = client.post(url, {"side": "C", "n": "5", "revision": str(table.revision)})
    assert response.status_code == 302
    assert services.table_state(table)["current"]["hands"][-1]["score"] == {
        "A": 0, "B": 0, "C": 5}
    with translation.override("es"):
        response = client.post(url, {"side": "D", "n": "5"})
    assert response.status_code == 409
    assert 'piedras son para un jugador de la mesa: "A", "B", "C"' in text_of(
        response).replace("&quot;", '"')
    assert Hand.objects.count() == 1


def test_the_recuento_names_each_player_who_wins_alone(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla"], rules={"target": 30})
    services.add_hand(table, THREE_CARDS, via="api")
    response = client.get(edit_url(table))
    text = text_of(response)
    assert "Grande: Ana +1, 1." in text and "Chica: Carla +1, 1." in text
    assert "Juego: Bruno +2 (solo él tiene), 2." in text
    assert "Queda Ana 2, Bruno 2 y Carla 1." in text
    # "Cantar el recuento" reads the lines and that score, each player by name.
    html = response.content.decode()
    assert '<p class="last-score" data-cantar-line>Queda Ana 2, Bruno 2 y Carla 1.</p>' in html
    assert html.count("data-cantar-line") == 5
    # Carla at 29 wins the juego with her chica: "gana", one player.
    services.add_piedras(table, "C", 28, via="api")
    services.add_hand(table, {**THREE_CARDS}, via="api")
    text = text_of(client.get(edit_url(table)))
    assert "Chica: Carla +1, 30: gana el juego." in text
    assert "ganan" not in text
    assert "Juego 1 para Carla (30\u2060–\u20603–\u20602)" in text
    history = text_of(client.get(edit_url(table, "tables:edit_history")))
    assert "Chica: Carla +1, 30: gana el juego." in history


def test_a_vaca_won_alone_says_each_players_juegos(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla"], rules={"juegos": 1})
    services.add_piedras(table, "B", 40, via="api")
    text = text_of(client.get(edit_url(table)))
    assert "Vaca para Bruno" in text
    assert "Vaca 1, juegos ganados: Ana 0, Bruno 1 y Carla 0" in text
    assert "Vacas: Ana 0 – Bruno 1 – Carla 0" in text


def test_recuento_lines_read_the_sides_from_the_result() -> None:
    """A result of three players named by a plain list of names: one side a player."""
    from muscore import rules as engine

    result = engine.score({"rules": {"players": 3}, **THREE_CARDS})
    with translation.override("es"):
        lines = board.recuento_lines(result, ["Ana", "Bruno", "Carla"])
        final = board.final_line(result, ["Ana", "Bruno", "Carla"])
    assert lines[0] == "Grande: Ana +1, 1."
    assert final == "Queda Ana 2, Bruno 2 y Carla 1."


def test_the_audit_says_a_correction_of_three_players_in_words() -> None:
    from muscore.tables import audit

    table = services.create_table(players=["Ana", "Bruno", "Carla"])
    held = {**THREE_CARDS, "lances": {"grande": {
        "bets": [{"side": "A", "n": 2}, {"side": "C", "n": 3}], "end": "quiero", "out": ["B"]}}}
    rejected = {**THREE_CARDS, "lances": {"grande": {
        "bets": [{"side": "A", "n": 2}, {"side": "C", "n": 3}], "end": "no_quiero"}}}
    services.add_hand(table, held, via="api")
    services.replace_hand(table, 1, rejected, via="api")
    with translation.override("es"):
        rows = audit.describe_changes(services.table_changes(table),
                                      services.table_state(table))
    words = rows[0]["words"]
    assert ("apuestas a grande: Ana: envido 2, Carla: 3 más, Bruno: no quiero, querido -> "
            "Ana: envido 2, Carla: 3 más, nadie quiso") in words
    assert "Grande: Ana -> Carla" in words
    # Each player's tantos: Ana 5+1 -> 1, Carla 1 -> 2+1.
    assert "tantos de la mano 1: 6-2-1 -> 1-2-3" in words
    assert "Bruno y" not in words and "pareja" not in words


def test_the_history_of_three_links_no_calculator(client: Client) -> None:
    """The calculator recounts two sides (it says so for more): the history of a table
    each for himself offers no link to it."""
    table = services.create_table(players=["Ana", "Bruno", "Carla"])
    services.add_hand(table, THREE_CARDS, via="api")
    html = client.get(edit_url(table, "tables:edit_history")).content.decode()
    assert "/calculadora/" not in html
    assert "Grande: Ana +1, 1." in text_of(client.get(edit_url(table, "tables:edit_history")))
