"""The hand lector: what four cards hold in each lance, in 8 and in 4 reyes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore import rules
from muscore.disputes.lector import read_hand
from tests.examples import examples

HX = {"HX-Request": "true"}


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def cell(html: str, reyes: int, lance: str) -> str:
    table = re.search(rf'<table class="mode" data-reyes="{reyes}">.*?</table>', html, re.S)
    assert table
    found = re.search(rf'<td data-lance="{lance}">(.*?)</td>', table.group(0), re.S)
    assert found
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


@pytest.mark.parametrize(
    ("cards", "eight", "four"),
    [
        # (pares words, juego words) in 8 reyes and in 4 reyes.
        ("R 3 5 4", ("par de reyes", "sin juego: 29 al punto"),
         ("sin pares", "sin juego: 22 al punto")),
        ("3 3 2 2", ("duples de reyes y ases", "sin juego: 22 al punto"),
         ("duples de treses y doses", "sin juego: 10 al punto")),
        ("7 7 7 R", ("medias de sietes", "juego de 31 (cobra 3)"),
         ("medias de sietes", "juego de 31 (cobra 3)")),
        ("R R R R", ("duples de reyes (cuatro iguales)", "juego de 40 (cobra 2)"),
         ("duples de reyes (cuatro iguales)", "juego de 40 (cobra 2)")),
        ("1 4 6 C", ("sin pares", "sin juego: 21 al punto"),
         ("sin pares", "sin juego: 21 al punto")),
    ],
)
def test_lector_reads_each_lance_in_both_modes(
    client: Client, cards: str, eight: tuple[str, str], four: tuple[str, str]
) -> None:
    response = client.get("/lector/", {"c0": cards})
    assert response.status_code == 200
    html = response.content.decode()
    for reyes, (pares, juego) in ((8, eight), (4, four)):
        assert cell(html, reyes, "pares").startswith(pares)
        assert cell(html, reyes, "juego") == juego


def test_lector_says_which_31_real_variants_the_hand_is(client: Client) -> None:
    html = client.get("/lector/", {"c0": "7 7 7 S"}).content.decode()
    real = cell(html, 8, "real31")
    assert "figura" in real and "sota" in real and "rey" not in real.replace("figura", "")
    assert cell(client.get("/lector/", {"c0": "7 7 7 3"}).content.decode(), 8, "real31") == "no"


def test_lector_shows_grande_and_chica_as_the_cards_play(client: Client) -> None:
    html = client.get("/lector/", {"c0": "3 2 5 4"}).content.decode()
    # The as is written 1, as the keypad says it ("A" is a side).
    assert cell(html, 8, "grande") == "R 5 4 1"
    assert cell(html, 8, "chica") == "1 4 5 R"
    assert cell(html, 4, "grande") == "5 4 3 2"


def test_lector_htmx_returns_the_reading_partial(client: Client) -> None:
    response = client.get("/lector/", {"c0": "R R 5 4"}, headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="reading"')


@pytest.mark.parametrize(("cards", "message"), [("R X 5 4", "«X» no es una carta"),
                                                 ("R R 5", "Una mano tiene 4 cartas, no 3")])
def test_lector_bad_cards_are_a_400_naming_the_fault(
    client: Client, cards: str, message: str
) -> None:
    response = client.get("/lector/", {"c0": cards})
    assert response.status_code == 400
    assert message in text_of(response)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(rules.INDICES), min_size=4, max_size=4))
def test_lector_agrees_with_the_engine_for_every_hand(cards: list[int]) -> None:
    reading = read_hand(tuple(sorted(cards, reverse=True)))
    for mode in reading["modes"]:
        r = rules.Rules(reyes=mode["reyes"])
        hand = rules.Hand(tuple(sorted(cards, reverse=True)))
        assert mode["pares"] == hand.pares(r)
        assert mode["total"] == hand.juego_total(r)
        assert mode["juego"] == hand.has_juego(r)
        for variant in ("rey", "figura", "sota"):
            expected = hand.is_real31(rules.Rules(reyes=mode["reyes"], real31=variant))
            assert (variant in mode["real31"]) == expected
