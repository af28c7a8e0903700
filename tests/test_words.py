"""The words a table reads (issue 9, point 7): each one as the table would say it.

"Juego no se cuentan", an English "+2 quiero", a recuento line without its side, the
as written "A" (the letter of a side) though the keypad says 1, the API page in English
on a Spanish phone, and the rules index ending on "Las más corrientes:".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore import rules
from muscore.api import openapi
from muscore.disputes import lector, rules_pages
from muscore.tables import board
from tests.test_languages_pages import render, visible_text

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
CARDS = {"0": "R R R 7", "1": "4 4 5 5", "2": "1 1 4 5", "3": "6 6 7 7"}


@pytest.fixture(autouse=True)
def spanish() -> Iterator[None]:
    with translation.override("es"):
        yield


def lines_of(language: str, **record: object) -> list[str]:
    with translation.override(language):
        return board.recuento_lines(rules.score({"hands": dict(CARDS), **record}), NAMES)


def test_one_lance_left_uncounted_is_singular() -> None:
    # B at 34 takes pares en paso with two duples (+6): 40, and only juego is left.
    record = {"score": {"A": 0, "B": 34}}
    lines = lines_of("es", **record)
    assert lines[-1] == "Juego no se cuenta.", lines
    assert lines_of("en", **record)[-1] == "Juego is not counted."
    assert lines_of("eu", **record)[-1] == "Jokoa ez da kontatzen."


def test_two_lances_left_uncounted_are_plural() -> None:
    lines = lines_of("es", score={"A": 38, "B": 35})
    assert lines[-1] == "Pares y juego no se cuentan."
    assert lines_of("en", score={"A": 38, "B": 35})[-1] == "Pares and juego are not counted."
    assert lines_of("eu", score={"A": 38, "B": 35})[-1] == "Pareak eta jokoa ez dira kontatzen."


def test_one_lance_left_unplayed_after_a_deje_is_singular() -> None:
    deje = {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}
    lines = lines_of("es", score={"A": 39, "B": 0}, lances={"pares": deje})
    assert lines[-1] == "Juego no se juega.", lines
    lines = lines_of("es", score={"A": 39, "B": 0}, lances={"grande": deje})
    assert lines[-1] == "Chica, pares y juego no se juegan."


def test_english_says_the_bet_was_accepted_not_quiero() -> None:
    accepted = {"bets": [{"side": "A", "n": 2}], "end": "quiero"}
    lines = lines_of("en", lances={"grande": accepted})
    assert lines[0] == "Grande: Ana and Carla +2, bet accepted, 2.", lines
    assert not any(re.search(r"\+\d+ quiero", line) for line in lines)
    refused = {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}
    assert not any("+1 (no quiero)" in line for line in lines_of("en", lances={"pares": refused}))


def test_every_recuento_line_names_its_side() -> None:
    # A wins grande and chica en paso: the chica line names A again ("Chica: +1" alone
    # tells a reader of that one line nothing).
    pairs = (
        ("es", "Ana y Carla"),
        ("en", "Ana and Carla"),
        ("eu", "Ana eta Carla"),
        ("fr", "Ana et Carla"),
    )
    for language, names in pairs:
        lines = lines_of(language)
        steps = rules.score({"hands": dict(CARDS)})["recuento"]
        for step, line in zip(steps, lines, strict=False):
            side_names = names if step["side"] == "A" else names.replace(
                "Ana", "Bruno").replace("Carla", "Diego")
            assert side_names in line, (language, line)
        assert lines[1].startswith(("Chica: Ana", "Txikia: Ana", "Petit\u00a0: Ana")), lines


def test_the_as_is_written_1_everywhere_a_card_is_shown(client: Client) -> None:
    assert rules.CARD_TEXT[1] == "1"
    assert lector.read_hand((1, 1, 6, 7))["cards"] == "1 1 6 7"
    html = client.get(reverse("disputes:lector"), {"c0": "A 1 6 7"}).content.decode()
    assert "1 1 6 7" in visible_text(html)
    assert not re.search(r"(?<![\w-])A 1 6 7|1 A 6 7|A A", visible_text(html))
    # "A" still reads as an as, for records written before.
    assert rules.score({"hands": {**CARDS, "2": "A A 4 5"}}) == rules.score({"hands": CARDS})


def test_the_api_page_speaks_the_readers_language(client: Client) -> None:
    spanish = visible_text(render(client, "es", reverse("api_docs")))
    assert "Contar una mano" in spanish and "Score one hand record" not in spanish
    assert "Deshacer la última mano" in spanish and "Undo the last hand" not in spanish
    basque = visible_text(render(client, "eu", reverse("api_docs")))
    assert "Esku bat kontatu" in basque
    english = visible_text(render(client, "en", reverse("api_docs")))
    assert "Score one hand record" in english


def test_openapi_json_stays_english_whatever_the_reader_speaks(client: Client) -> None:
    client.cookies["django_language"] = "eu"
    data = client.get("/api/v1/openapi.json").json()
    assert data == openapi.spec()
    assert data["paths"]["/api/v1/score"]["post"]["summary"] == "Score one hand record"
    assert data["info"]["summary"] == "Score Mus hands, replay vacas and keep a table's hands."


@pytest.mark.parametrize("language", ["es", "en", "eu", "fr"])
def test_no_rules_intro_ends_on_a_colon_with_nothing_after(client: Client, language: str) -> None:
    with translation.override(language):
        for page in rules_pages.pages():
            assert not str(page.intro).rstrip().endswith(":"), page.slug
    index = visible_text(render(client, language, reverse("disputes:rules")))
    assert not re.search(r":\n", index), "an index entry ends on a colon"


def test_the_senas_page_opens_its_list_after_the_intro(client: Client) -> None:
    html = render(client, "es", reverse("disputes:rules_page", args=["senas"]))
    lead_in = html.index("<p>Las más corrientes:</p>")
    assert html.index('class="lead"') < lead_in < html.index('<section class="rule" id="reyes"')
