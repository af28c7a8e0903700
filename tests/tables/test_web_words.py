"""The words of issue 19.5-7 that the pages draw: a piedras tap is an "anotación" where
the undo names it, "dentro" is translated, and Basque says a hand's mano once."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.tables import services
from muscore.tables.board import recuento_lines
from tests.tables.factory import make_table

pytestmark = pytest.mark.django_db

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def table_with_a_tap() -> tuple[str, str]:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": SEED}, via="api")
    services.add_piedras(table, "B", 1, via="api")
    return f"/t/{table.id}/k/{table.edit_key}/", f"/t/{table.id}/"


def test_the_undo_names_a_tap_an_anotacion(client: Client) -> None:
    edit, _ = table_with_a_tap()
    board = client.get(edit, headers={"accept-language": "es"}).content.decode()
    assert "Deshacer la última anotación" in board
    assert "Deshacer la última mano" not in board
    undo = client.get(edit + "deshacer", headers={"accept-language": "es"}).content.decode()
    assert "<title>¿Deshacer la anotación 2 (piedras a mano)?" in undo
    assert "La anotación sale del marcador" in undo
    english = client.get(edit, headers={"accept-language": "en"}).content.decode()
    assert "Undo the last entry" in english


def test_dentro_is_translated_and_basque_says_the_mano_once(client: Client) -> None:
    edit, view = table_with_a_tap()
    english = client.get(view, headers={"accept-language": "en"}).content.decode()
    assert "in (36)" in english and "dentro (36)" not in english
    basque = client.get(view, headers={"accept-language": "eu"}).content.decode()
    assert "barruan (36)" in basque
    history = client.get(edit + "historial", headers={"accept-language": "eu"}).content.decode()
    assert "eskua <small>eskua" not in history
    assert "1. eskua <small>Ana da esku</small>" in history


NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}


def grande(winner: str, n: int | str) -> dict[str, object]:
    return {"jugadas": NOBODY, "winners": {"grande": winner, "chica": "A", "punto": "A"},
            "lances": {"grande": {"bets": [{"side": "A", "n": n}], "end": "quiero"}}}


def test_a_juego_is_titled_with_the_winners_score_first(client: Client) -> None:
    """Issue 19.5: "Juego 1 para Bruno y Diego (40–0)", never the loser's score first; a
    juego won by an accepted órdago says so instead of a score."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, grande("B", 40), via="api")
    services.add_hand(table, grande("B", "ordago"), via="api")
    page = client.get(f"/t/{table.id}/", headers={"accept-language": "es"}).content.decode()
    page = page.replace("\u2060", "")
    assert "Juego 1 para Bruno y Diego (40–0)" in page
    assert "Juego 2 para Bruno y Diego (órdago)" in page


def test_the_audit_reads_before_and_after_in_words(client: Client) -> None:
    """Issue 19.7: a corrected hand's "Antes y después" says the cards and bets seat by
    seat with the players' names, not seats 0-3 in JSON (which stays, one tap further)."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": SEED}, via="api")
    services.replace_hand(table, 1, {"hands": SEED, "lances": {
        "grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}}}, via="edit_link")
    page = client.get(f"/t/{table.id}/historial", headers={"accept-language": "es"})
    text = page.content.decode()
    assert "<p>cartas de Ana: R R 5 4</p>" in text
    assert "<p>cartas de Diego: S S 7 7</p>" in text
    # Who said what (issue 30.6): the change log reads as the table says it.
    assert "<p>apuestas a grande: Ana y Carla: envido 2, Bruno y Diego: no quiero</p>" in text
    assert '<details class="record-json"><summary>JSON</summary>' in text


def test_the_puntos_extra_one_is_the_punto_not_jugadas(client: Client) -> None:
    """Issue 19.7: an accepted punto envite of 2 pays 3, "2 querido y 1 del punto"."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {
        "jugadas": NOBODY, "winners": {"grande": "A", "chica": "A", "punto": "B"},
        "lances": {"punto": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
    }, via="api")
    page = client.get(f"/t/{table.id}/", headers={"accept-language": "es"}).content.decode()
    assert "Bruno y Diego +3 (2 querido y 1 del punto)" in page
    assert "de jugadas" not in page


def test_a_lance_paid_by_its_deje_is_not_said_uncounted() -> None:
    """Issue 19.5: a chica deje, then the recuento ends the juego at grande: pares and
    punto are not counted; chica was paid when it was said and is not among them."""
    lances = {"grande": {}, "chica": {}, "pares": {}, "punto": {}}
    result = {
        "recuento": [
            {"lance": "chica", "side": "A", "points": 1, "score": {"A": 30, "B": 0},
             "why": "deje"},
            {"lance": "grande", "side": "A", "points": 10, "stake": 10,
             "score": {"A": 40, "B": 0}, "why": "quiero"},
        ],
        "winner": "A", "ended_by": "recuento", "lances": lances,
    }
    lines = recuento_lines(result, ["Ana", "Bruno", "Carla", "Diego"])
    assert lines[-1] == "Pares y punto no se cuentan.", lines


def test_an_accepted_ordago_is_not_told_as_a_score(client: Client) -> None:
    """Issue 19.5: the preview of a hand whose órdago was accepted says who won the juego
    by it, never "Queda 15–10"."""
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"])
    url = f"/t/{table.id}/k/{table.edit_key}/mano"
    page = client.post(url, {"act": "check", "b_chica": "Bo", "e_chica": "quiero",
                             "w_chica": "B"}, headers={"accept-language": "es"})
    text = page.content.decode()
    assert "Órdago: juego para Bruno y Diego" in text
    assert "Queda " not in text


def test_the_chart_counts_hands_not_piedras_taps(client: Client) -> None:
    """Issue 19.6: two hands and a tap are "2 manos en este juego", not 3."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": SEED}, via="api")
    services.add_piedras(table, "B", 1, via="api")
    services.add_hand(table, {"hands": SEED}, via="api")
    page = client.get(f"/t/{table.id}/", headers={"accept-language": "es"}).content.decode()
    assert "2 manos en este juego" in page
    assert "3 manos en este juego" not in page
