"""The hand entry in individual play (issue 37) at the view level: each lance follows the
table's talk player by player, in turn, as the engine's HandDraft says; a player who left
is shown out; the winner is asked only where the engine needs it; a word out of turn, a
bet from a player who does not play the lance, a side not at the table are refused in a
player's words and change nothing; a stored hand opens for correction with its talk."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
THREE = ["Ana", "Bruno", "Carla"]
CARDS = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7"}
NO_CARDS = {f"{field}{seat}": "no" for seat in range(3) for field in ("p", "j")}


def hand_url(table: Table, number: int | None = None) -> str:
    if number is None:
        return reverse("tables:hand", args=[table.id, table.edit_key])
    return reverse("tables:edit_hand", args=[table.id, table.edit_key, number])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


class Entry:
    """A phone entering one hand: each tap posts the form as the page holds it."""

    def __init__(self, client: Client, table: Table, fields: dict[str, str],
                 number: int | None = None) -> None:
        self.client, self.table, self.number = client, table, number
        self.fields = dict(fields)
        self.html = ""

    def tap(self, act: str, **extra: str) -> Any:
        response = self.client.post(hand_url(self.table, self.number),
                                    {**self.fields, **extra, "act": act}, headers=HX)
        self.html = response.content.decode()
        # The page's hidden talk fields go back with the next tap.
        for name, value in re.findall(r'name="(t_\w+)" value="([^"]*)"', self.html):
            self.fields[name] = value
        return response

    def section(self, lance: str) -> str:
        start = self.html.index(f'id="lance-{lance}"')
        end = self.html.find('<section class="', start + 10)
        return text_of(self.html[start:end if end > 0 else None])

    def acts(self, lance: str) -> list[str]:
        return re.findall(rf'name="act" value="((?:paso|bet|end|pop):{lance}[^"]*)"', self.html)


def test_the_table_talks_player_by_player_until_the_lance_closes(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, CARDS)
    entry.tap("check")
    # The mano speaks first: his words only, and everybody may pass at once.
    assert entry.acts("grande") == ["paso:grande:A", "bet:grande:A:2", "bet:grande:A:ordago",
                                    "bet:grande:A:amt", "paso:grande"]
    assert "Habla Ana" in entry.section("grande")
    entry.tap("bet:grande:A:2")
    # Bruno answers first, then Carla: quiero, no quiero, or a raise.
    assert entry.acts("grande")[:5] == ["end:grande:quiero:B", "end:grande:no_quiero:B",
                                        "bet:grande:B:2", "bet:grande:B:ordago",
                                        "bet:grande:B:amt"]
    entry.tap("end:grande:no_quiero:B")
    grande = entry.section("grande")
    assert "Bruno fuera" in grande and "Habla Carla" in grande
    entry.tap("bet:grande:C:amt", a_grande="3")
    assert "Habla Ana" in entry.section("grande")
    response = entry.tap("end:grande:quiero:A")
    assert response.status_code == 200
    grande = entry.section("grande")
    assert "Ana: envido 2 · Bruno: no quiero · Carla: 3 más · Ana: quiero" in grande
    assert "Habla" not in grande and "Bruno fuera" in grande
    assert entry.fields["t_grande"] == "A:envido:2 B:no_quiero C:envido:3 A:quiero"
    # The shared example "A envida 2, B no quiero, C raises 3, A quiero": A 6, B 2, C 1.
    assert "Grande: Ana +5 querido, 5." in text_of(entry.html)
    assert "Queda Ana 6, Bruno 2 y Carla 1." in text_of(entry.html)
    response = client.post(hand_url(table), {**entry.fields, "act": "save"})
    assert response.status_code == 302
    record = Hand.objects.get().record
    assert record["lances"] == {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "C", "n": 3}],
                                           "end": "quiero", "out": ["B"]}}
    assert services.table_state(table)["current"]["hands"][-1]["score"] == {
        "A": 6, "B": 2, "C": 1}


def test_a_word_out_of_turn_is_refused_naming_both_players(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, CARDS)
    entry.tap("bet:grande:A:2")
    before = dict(entry.fields)
    entry.tap("end:grande:quiero:C")
    assert "Grande: ahora habla Bruno, no Carla." in text_of(entry.html)
    assert entry.fields == before
    # A player who is not at the table.
    entry.tap("end:grande:quiero:D")
    assert "en esta mesa no hay ningún jugador «D»" in text_of(entry.html)
    assert entry.fields == before


def test_a_bet_from_a_player_who_does_not_play_the_lance_is_refused(client: Client) -> None:
    table = services.create_table(players=THREE)
    # Ana (R R) and Carla (1 1) have pares, Bruno (R C S 5) none.
    fields = {"c0": "R R 5 4", "c1": "R C S 5", "c2": "1 1 6 7"}
    entry = Entry(client, table, fields)
    entry.tap("check")
    pares = entry.section("pares")
    assert "Bruno" not in pares and "Habla Ana" in pares
    entry.tap("paso:pares:A")
    before = dict(entry.fields)
    entry.tap("bet:pares:B:2")
    assert "Pares: Bruno no juega este lance: no puede hablar en él." in text_of(entry.html)
    assert entry.fields == before
    assert not Hand.objects.exists()


def test_a_hand_without_cards_asks_each_winner_among_the_players(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, NO_CARDS)
    entry.tap("check")
    text = text_of(entry.html)
    for lance in ("Grande", "Chica", "Punto"):
        assert f"{lance}: falta quién gana: Ana, Bruno o Carla." in text
    winners = re.findall(r'name="w_grande" value="([A-F])"', entry.html)
    assert winners == ["A", "B", "C"]
    response = client.post(hand_url(table), {**entry.fields, "act": "save",
                                             "w_grande": "B", "w_chica": "C", "w_punto": "B"})
    assert response.status_code == 302
    assert services.table_state(table)["current"]["hands"][-1]["score"] == {
        "A": 0, "B": 2, "C": 1}


def test_the_winner_of_a_lance_held_on_is_asked_among_those_still_in(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, NO_CARDS)
    for act in ("bet:grande:A:2", "end:grande:no_quiero:B", "end:grande:quiero:C"):
        entry.tap(act)
    assert re.findall(r'name="w_grande" value="([A-F])"', entry.html) == ["A", "C"]
    assert "Grande: falta quién gana: Ana o Carla." in text_of(entry.html)


def test_a_player_who_left_cannot_win_the_lance(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, NO_CARDS)
    for act in ("bet:grande:A:2", "end:grande:no_quiero:B", "end:grande:quiero:C"):
        entry.tap(act)
    response = client.post(hand_url(table), {**entry.fields, "act": "save",
                                             "w_grande": "B", "w_chica": "A", "w_punto": "A"})
    assert response.status_code == 400
    assert not Hand.objects.exists()


def test_everybody_passes_in_one_tap(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, CARDS)
    entry.tap("paso:grande")
    assert entry.fields["t_grande"] == ":paso"
    assert "todos: paso" in entry.section("grande")
    assert entry.acts("grande") == ["pop:grande"]


def test_the_last_word_is_taken_back(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, CARDS)
    entry.tap("bet:grande:A:2")
    entry.tap("end:grande:no_quiero:B")
    entry.tap("pop:grande")
    assert entry.fields["t_grande"] == "A:envido:2"
    assert "Habla Bruno" in entry.section("grande")


def test_taps_kept_without_signal_are_said_in_turn_when_sent(client: Client) -> None:
    """The page without signal keeps each player's words in "taps" ("fourth" for juego or
    punto); the server says them to the engine in turn when the hand is sent."""
    table = services.create_table(players=THREE)
    taps = "bet:grande:A:2 end:grande:no_quiero:B end:grande:quiero:C paso:fourth"
    response = client.post(hand_url(table), {**NO_CARDS, "taps": taps, "w_grande": "C",
                                             "w_chica": "A", "w_punto": "A", "act": "save"})
    assert response.status_code == 302, text_of(response.content.decode())
    record = Hand.objects.get().record
    assert record["lances"]["grande"] == {"bets": [{"side": "A", "n": 2}], "end": "quiero",
                                          "out": ["B"]}


def test_a_word_kept_without_signal_out_of_turn_stops_there(client: Client) -> None:
    table = services.create_table(players=THREE)
    taps = "bet:grande:A:2 end:grande:quiero:C"
    response = client.post(hand_url(table), {**NO_CARDS, "taps": taps, "act": "save"})
    assert response.status_code == 400
    assert "ahora habla Bruno, no Carla" in text_of(response.content.decode())
    assert not Hand.objects.exists()


def test_a_stored_hand_opens_for_correction_with_its_talk(client: Client) -> None:
    table = services.create_table(players=THREE)
    services.add_hand(table, {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"},
                              "lances": {"grande": {"bets": [{"side": "A", "n": 2},
                                                             {"side": "C", "n": 3}],
                                                    "end": "quiero", "out": ["B"]}}},
                      via="api")
    page = client.get(hand_url(table, 1)).content.decode()
    assert 'name="t_grande" value="A:envido:2 B:no_quiero C:envido:3 A:quiero"' in page
    entry = Entry(client, table, {**CARDS, "t_grande": "A:envido:2 B:no_quiero C:envido:3 "
                                                     "A:quiero"}, number=1)
    entry.tap("pop:grande")
    entry.tap("end:grande:no_quiero:A")
    revision = str(Table.objects.get().revision)
    response = client.post(hand_url(table, 1), {**entry.fields, "act": "save",
                                                "revision": revision})
    assert response.status_code == 302
    # Everybody left Carla's raise: she takes the total before it, 2.
    assert Hand.objects.get().record["lances"]["grande"] == {
        "bets": [{"side": "A", "n": 2}, {"side": "C", "n": 3}], "end": "no_quiero"}
    assert Change.objects.filter(action=Change.Action.EDIT).count() == 1


def test_pares_bet_by_two_of_five_and_one_alone_collects(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego", "Eva"])
    fields = {f"p{seat}": "no" for seat in range(5)} | {f"j{seat}": "no" for seat in range(5)}
    fields |= {"p1": "par", "p3": "medias", "j4": "31"}
    entry = Entry(client, table, fields)
    entry.tap("check")
    pares = entry.section("pares")
    assert "Habla Bruno" in pares and "Ana" not in pares
    assert "Solo Eva tiene juego: cobra sin apostar." in text_of(entry.html)


def test_the_entry_speaks_no_pairs_where_nobody_has_a_partner(client: Client) -> None:
    table = services.create_table(players=THREE)
    entry = Entry(client, table, NO_CARDS)
    entry.tap("bet:grande:A:2")
    text = text_of(entry.html).lower()
    assert "pareja" not in text and "compañer" not in text and "bando" not in text


def test_no_rule_word_in_the_pages_scripts() -> None:
    """The page asks the engine (HandDraft) and draws what it says: no turn, holder or deje
    is worked out in JavaScript, for pairs or for each player alone."""
    scripts = Path(__file__).resolve().parents[2] / "static" / "js"
    rule_words = re.compile(r"\b(to_speak|answering|still_in|deje|ordago\s*[<>=]|"
                            r"players_of|holders?|best_seat|winner_of|turn\s*=)", re.I)
    for script in scripts.glob("*.js"):
        found = [line for line in script.read_text().splitlines() if rule_words.search(line)
                 and not line.strip().startswith("//")]
        assert not found, (script.name, found)


def test_the_talk_of_juego_goes_when_the_fourth_lance_is_punto(client: Client) -> None:
    table = services.create_table(players=THREE)
    fields = {**NO_CARDS, "j0": "31", "j1": "33"}
    entry = Entry(client, table, fields)
    entry.tap("bet:juego:A:2")
    assert entry.fields["t_juego"] == "A:envido:2"
    # Nobody had juego after all: punto is played, and juego's talk is not kept.
    entry.fields.update(j0="no", j1="no")
    entry.tap("check")
    assert entry.fields.get("t_juego", "") == ""
    assert 'id="lance-punto"' in entry.html
    assert "no cuadra" not in text_of(entry.html)
