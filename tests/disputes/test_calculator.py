"""The recuento calculator page: plain POST, htmx, permalinks, bad input, history links."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings

from muscore import permalink, rules
from muscore.disputes.calculator import Calculation, settle
from muscore.tables import services
from tests.examples import examples
from tests.rules.strategies import records

HX = {"HX-Request": "true"}
URL = "/calculadora/"
CARDS = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
# The disputed hand: A 38, B 35; grande envido, cinco más, no quiero.
DISPUTED = {**CARDS, "players": "4", "sa": "38", "sb": "35", "mano": "0",
            "f_grande": "A", "b_grande": "2 5", "e_grande": "no_quiero"}


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def permalink_of(response: Any) -> str:
    found = re.search(r'href="(/calculadora/\?h=[^"]+)" data-permalink', response.content.decode())
    assert found, "no permalink on the page"
    return found.group(1).replace("&amp;", "&")


def test_calculator_page_opens_empty_with_the_card_picker(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-card-picker" in html
    assert 'name="c3"' in html and 'name="c4"' not in html


def test_six_players_shows_six_seats(client: Client) -> None:
    html = client.get(URL + "?players=6").content.decode()
    assert 'name="c5"' in html


def test_disputed_hand_gives_each_step_with_its_rule_and_a_link(client: Client) -> None:
    response = client.post(URL, DISPUTED)
    assert response.status_code == 200
    text = text_of(response)
    # B's cinco más was rejected: A? No: A envied 2, B raised 5, A said no quiero -> B gets 2.
    assert "Rechazado un reenvite: se cobra lo que había antes, 2." in text
    assert "Llegan a 40" in text
    expected = rules.score({"score": {"A": 38, "B": 35}, "hands": {
        "0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
        "lances": {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}],
                              "end": "no_quiero"}}})
    assert f"Queda {expected['score']['A']}–{expected['score']['B']}" in text
    assert 'href="/reglas/apuestas/#deje"' in response.content.decode()


def test_permalink_opens_the_same_answer(client: Client) -> None:
    first = client.post(URL, DISPUTED)
    link = permalink_of(first)
    second = Client().get(link)
    assert second.status_code == 200
    steps = re.compile(r'<ol class="steps">.*?</ol>', re.S)
    assert steps.search(first.content.decode()).group(0) == steps.search(
        second.content.decode()).group(0)
    # And the form is filled again from the link: the cards and the bets are there.
    html = second.content.decode()
    assert 'value="R R 5 4"' in html and 'value="A2 B5"' in html


def test_htmx_post_returns_the_result_partial_and_sets_the_address_to_the_permalink(
    client: Client,
) -> None:
    response = client.post(URL, DISPUTED, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="result"')
    assert "<form" not in html
    assert response["HX-Replace-Url"].startswith("/calculadora/?h=")


def test_lies_are_said_with_what_they_cost(client: Client) -> None:
    data = {"c0": "R R 5 4", "c1": "R C 6 5", "c2": "1 1 6 7", "c3": "S C 7 4",
            "n0": "Ana", "n1": "Bruno", "n2": "Carla", "n3": "Diego",
            "dp1": "si", "f_pares": "B", "b_pares": "2", "e_pares": "quiero"}
    text = text_of(client.post(URL, data))
    assert "Bruno dijo pares y no los tiene: el lance es para Ana y Carla, y Bruno y Diego " \
           "pierden lo apostado (4 piedras para Ana y Carla)." in text


def test_the_hand_that_won_each_lance_on_the_cards_is_named(client: Client) -> None:
    names = {"n0": "Ana", "n1": "Bruno", "n2": "Carla", "n3": "Diego"}
    html = client.post(URL, {**CARDS, **names}).content.decode()
    # Juego is B's alone (35 and 34): "solo", no hand to name.
    assert re.findall(r'<p class="step-winner">(.*?)</p>', html) == [
        "Gana Ana con R R 5 4.", "Gana Carla con 1 1 6 7.", "Gana Diego con S S 7 7 (duples)."]
    # Diego says he has no pares: he does not play them, Ana's reyes win.
    html = client.post(URL, {**CARDS, **names, "dp3": "no"}).content.decode()
    assert "Gana Ana con R R 5 4 (par)." in html


def test_a_false_no_says_the_player_did_not_play(client: Client) -> None:
    data = {**CARDS, "n0": "Ana", "dp0": "no"}
    text = text_of(client.post(URL, data))
    assert "Ana dijo que no tenía pares y los tiene: no jugó los pares." in text


def test_without_cards_the_winner_is_asked_and_then_used(client: Client) -> None:
    data = {"c0": "R R 5 4", "p1": "par", "j1": "no", "p2": "no", "j2": "no",
            "p3": "duples", "j3": "34"}
    text = text_of(client.post(URL, data))
    assert "Grande: sin las cartas de B1 no se sabe quién ganó." in text
    data.update(w_grande="A", w_chica="B", w_pares="B", w_juego="B")
    response = client.post(URL, data)
    text = text_of(response)
    assert "Queda" in text
    # Punto or juego: the form's fourth lance is named by the engine (here: juego, seat 3 has 34).
    assert "Juego:" in text


def test_nobody_with_juego_makes_the_fourth_lance_punto(client: Client) -> None:
    data = {"c0": "1 1 4 5", "c1": "6 6 7 S", "c2": "2 3 4 5", "c3": "7 7 C 1",
            "f_juego": "A", "b_juego": "2", "e_juego": "quiero"}
    text = text_of(client.post(URL, data))
    assert "Punto querido" in text
    assert "Queda 2–5" in text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"c0": "R X 5 4"}, "«X» no es una carta"),
        ({"c0": "R R 5"}, "3 cartas; hacen falta 4"),
        ({"sa": "50"}, "Tanteo de A: «50» no vale"),
        ({"target": "7"}, "Piedras por juego: «7» no vale"),
        ({"b_grande": "2 5"}, "Grande: ¿qué bando envidó primero?"),
        ({"f_grande": "A", "b_grande": "2 zz"}, "«zz» no es un envite"),
        ({"f_grande": "A", "b_grande": "2"}, "falta si quisieron o no quisieron"),
        ({"f_grande": "A", "b_grande": "o 5", "e_grande": "quiero"}, "tras un órdago"),
        ({"c0": "R R R R", "c1": "R C C 5"}, "la baraja solo tiene 4"),
        ({"f_pares": "A", "b_pares": "2", "e_pares": "quiero", "c0": "R C 5 4", "c1": "R C 6 5",
          "c2": "1 3 6 7", "c3": "S C 7 4"}, "nadie puede envidar"),
    ],
)
def test_bad_input_says_what_is_wrong_and_never_500(
    client: Client, data: dict[str, str], message: str
) -> None:
    full = {**CARDS, **data}
    response = client.post(URL, full)
    assert response.status_code == 200
    assert message in text_of(response)
    assert "data-permalink" not in response.content.decode()


@pytest.mark.parametrize("code", ["!!!", "abc", "x" * 5000])
def test_a_damaged_permalink_is_a_400_with_a_message(client: Client, code: str) -> None:
    response = client.get(URL, {"h": code})
    assert response.status_code == 400
    assert "Ese enlace está dañado" in text_of(response)


@pytest.mark.parametrize(
    "record",
    [{"hands": {"0": "R R R R R"}}, {"hands": [1, 2]}, {"mano": "x"}, {"lances": {"x": 1}},
     {"rules": {"players": 5}}, {"hands": {"0": "R R 5 4"}, "jugadas": []}],
)
def test_a_permalink_with_a_refused_record_is_a_400_naming_the_fault(
    client: Client, record: dict[str, Any]
) -> None:
    response = client.get(URL, {"h": permalink.encode(record)})
    assert response.status_code == 400
    assert 'class="errors"' in response.content.decode()


def test_names_travel_with_the_permalink(client: Client) -> None:
    data = {**DISPUTED, "n0": "Ana", "n1": "Bruno", "n2": "Carla", "n3": "Diego"}
    link = permalink_of(client.post(URL, data))
    assert parse_qs(urlsplit(link).query)["n"] == ["Ana,Bruno,Carla,Diego"]
    assert "Bruno y Diego" in text_of(Client().get(link))


def test_english_page_speaks_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    response = client.post(URL, DISPUTED, HTTP_ACCEPT_LANGUAGE="en")
    text = text_of(response)
    assert "A rejected raise pays what stood before it, 2." in text


@settings(max_examples=examples(60), deadline=None)
@given(records())
def test_every_valid_record_scores_the_same_through_the_form(record: dict[str, Any]) -> None:
    """A record shown in the form and read back scores exactly as the record itself."""
    calc = Calculation.from_record(record)
    assert not calc.errors
    settled = settle(calc.record(), calc.form_winners())
    assert settled.error is None
    assert settled.result == rules.score(record)


@pytest.mark.django_db
def test_a_history_hand_opens_in_the_calculator_with_its_score_and_mano(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    first = {"hands": dict(zip("0123", CARDS.values(), strict=True))}
    second = {"hands": dict(first["hands"]),
              "lances": {"grande": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}}
    services.add_hand(table, first, via="api")
    services.add_hand(table, second, via="api")
    html = client.get(reverse("tables:history", args=[table.id])).content.decode()
    links = re.findall(r'href="(/calculadora/\?h=[^"]+)" data-calc-link', html)
    assert len(links) == 2
    newest = permalink.decode(parse_qs(urlsplit(links[0].replace("&amp;", "&")).query)["h"][0])
    # Hand 2 was played at 2-8 with mano 1 (the mano moves one seat each hand).
    assert newest["score"] == {"A": 2, "B": 8}
    assert newest["mano"] == 1
    page = client.get(links[0].replace("&amp;", "&"))
    assert page.status_code == 200
    state = services.table_state(table)
    after = state["current"]["hands"][1]["score"]
    assert f"Queda {after['A']}–{after['B']}" in text_of(page)


def test_home_page_links_to_the_dispute_tools(client: Client) -> None:
    html = client.get("/").content.decode()
    for name in ("disputes:calculator", "disputes:lector", "disputes:rules"):
        assert f'href="{reverse(name)}"' in html


class _FormFields(HTMLParser):
    """The fields the calculator form would post as it stands (no button: those are taps)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag != "input" or not a.get("name") or a.get("name") == "csrfmiddlewaretoken":
            return
        if a.get("type") == "radio" and "checked" not in a:
            return
        self.fields[a["name"]] = a.get("value", "")


def form_fields(response: Any) -> dict[str, str]:
    parser = _FormFields()
    parser.feed(response.content.decode())
    return parser.fields


def tap(client: Client, fields: dict[str, str], act: str, **typed: str) -> Any:
    """Post the form as it stands with one bet button tapped, as a phone without JS does."""
    response = client.post(URL, {**fields, **typed, "act": act})
    assert response.status_code == 200
    return response


def test_bet_taps_post_the_same_record_as_the_typed_bets(client: Client) -> None:
    # The disputed hand, its grande tapped: A envido, B cinco más (otra cantidad), A no quiero.
    start = {k: v for k, v in DISPUTED.items() if not k.endswith("_grande")}
    page = client.post(URL, start)
    page = tap(client, form_fields(page), "bet:grande:A:2")
    assert "A1 y A2: envido 2" in text_of(page)
    page = tap(client, form_fields(page), "bet:grande:B:amt", a_grande="5")
    assert "B1 y B2: 5 más" in text_of(page)
    page = tap(client, form_fields(page), "end:grande:no_quiero")
    fields = form_fields(page)
    # The taps wrote the very fields the text entry uses, in the hand entry's encoding
    # (each bet with its side)...
    assert (fields["f_grande"], fields["b_grande"], fields["e_grande"]) == (
        "A", "A2 B5", "no_quiero")
    assert Calculation.from_data(fields).record() == Calculation.from_data(DISPUTED).record()
    # ...so the recuento and its permalink are the typed hand's, to the byte.
    typed = client.post(URL, DISPUTED)
    assert permalink_of(page) == permalink_of(typed)
    assert "Rechazado un reenvite: se cobra lo que había antes, 2." in text_of(page)


def test_an_ordago_tapped_leaves_only_quiero_and_undo_takes_the_answer_back(
    client: Client,
) -> None:
    page = tap(client, form_fields(client.post(URL, CARDS)), "bet:chica:B:ordago")
    html = page.content.decode()
    assert 'value="end:chica:quiero"' in html and 'value="bet:chica:A:2"' not in html
    page = tap(client, form_fields(page), "end:chica:quiero")
    assert form_fields(page)["b_chica"] == "Bo"
    page = tap(client, form_fields(page), "pop:chica")
    fields = form_fields(page)
    assert (fields["f_chica"], fields["b_chica"], fields["e_chica"]) == ("B", "Bo", "")


def test_a_refused_tap_says_why_and_changes_nothing(client: Client) -> None:
    page = tap(client, form_fields(client.post(URL, CARDS)), "bet:grande:A:2")
    fields = form_fields(page)
    again = tap(client, fields, "bet:grande:A:ordago")
    assert "Grande: ahora contesta el otro bando." in text_of(again)
    assert form_fields(again)["b_grande"] == "A2"
    assert "Grande: un envite es un número" in text_of(
        tap(client, fields, "bet:grande:B:amt", a_grande="150"))


def test_htmx_tap_sends_the_lances_back_and_a_typed_change_only_the_buttons(
    client: Client,
) -> None:
    tapped = client.post(URL, {**CARDS, "act": "bet:pares:B:2"}, headers=HX).content.decode()
    assert tapped.lstrip().startswith('<section id="result"')
    assert '<section id="calc-lances" class="calc-lances" hx-swap-oob="true">' in tapped
    assert 'name="b_pares" value="B2"' in tapped
    typed = client.post(URL, {**CARDS, "f_pares": "B", "b_pares": "2 5"}, headers=HX)
    html = typed.content.decode()
    assert 'id="calc-lances"' not in html and 'name="b_pares"' not in html
    assert '<div id="taps-pares" class="calc-taps" hx-swap-oob="true">' in html
    # The buttons follow the typed bets: B envido, A cinco más, so B answers.
    assert 'value="end:pares:quiero"' in html and 'value="bet:pares:B:2"' in html
    assert 'value="bet:pares:A:2"' not in html


def test_a_missing_winner_is_said_with_names_not_record_fields(client: Client) -> None:
    data = {"players": "4", "n0": "Ana", "n1": "Bruno", "n2": "Carla", "n3": "Diego"}
    text = text_of(client.post(URL, data))
    assert "Grande: sin las cartas de Ana no se sabe quién ganó." in text
    assert "winners" not in text and "El asiento" not in text


def test_permalinks_open_at_the_result(client: Client) -> None:
    link = permalink_of(client.post(URL, DISPUTED))
    assert link.endswith("#result")
    assert client.get(link).status_code == 200


def test_jugadas_that_settle_pares_need_no_winner_and_a_contradiction_is_named(
    client: Client,
) -> None:
    data = {"players": "4", "p0": "duples", "p3": "par",
            "w_grande": "A", "w_chica": "B", "w_juego": "A"}
    response = client.post(URL, data)
    text = text_of(response)
    assert "Queda" in text, text
    contradicted = text_of(client.post(URL, {**data, "w_pares": "B"}))
    assert (
        "Pares: según las jugadas la ganan A1 y A2, pero habéis marcado que la ganaron B1 y B2. "
        "Quitad ese ganador o corregid las jugadas." in contradicted
    )
