"""The league contract's errors in the page's language: muscore.messages (gettext,
Spanish source, English and Basque catalogues), while str() stays the contract's English."""

from __future__ import annotations

import re
from typing import Any

import pytest

from muscore.leagues import LeagueError, read_league
from muscore.leagues.compute.errors import FIXTURES, LEAGUE, POINTS, Where
from muscore.leagues.compute.errors import MESSAGES as ENGLISH
from muscore.messages import LEAGUE as MESSAGES
from muscore.messages import league_message
from muscore.rules import RecordError

from .helpers import league

# One error of every code, with params as muscore.leagues gives them.
SAMPLES: dict[str, dict[str, Any]] = {
    "not_json": {"msg": "Expecting value", "line": 1, "column": 2},
    "not_object": {"where": LEAGUE},
    "unknown_key": {"key": "forfiet", "where": Where("match", 3)},
    "not_a": {"field": "pairs", "where": FIXTURES, "what": "pairs", "got": '"x"'},
    "name_missing": {"where": Where("pair", 0)},
    "name_long": {"where": LEAGUE, "limit": 200},
    "rules": {"inner": RecordError("rule_value", field="juegos", got="9", low=1, high=5)},
    "individual_rules": {"players": 3},
    "legs": {"got": "3"},
    "too_few_pairs": {"count": 1},
    "too_many_pairs": {"count": 1001, "limit": 1000},
    "too_many_matches": {"pairs": 200, "count": 39801, "limit": 39800},
    "players_count": {"pair": 0, "name": "A", "count": 1, "players": 4, "size": 2},
    "player_twice": {"where": Where("pair", 1), "player": "Ana"},
    "draw": {"last": 3, "problem": "twice", "item": 0, "times": 2},
    "unknown_pair": {"where": Where("match", 1), "got": "7", "last": 3},
    "plays_itself": {"where": Where("match", 2), "pair": 1, "name": "P1"},
    "two_results": {"where": Where("match", 1), "keys": "juegos, forfeit"},
    "tantos_alone": {"where": Where("match", 4)},
    "juegos_end": {"where": Where("match", 1), "got": "[2, 1]", "juegos": 3},
    "forfeit_pair": {"where": Where("match", 1), "first": 0, "second": 1, "got": "2"},
    "vaca_rules": {"where": Where("match", 5)},
    "vaca_invalid": {"where": Where("match"), "inner": RecordError("card", seat=0, token="9")},
    "vaca_unfinished": {"where": Where("match", 1), "a": 1, "b": 0, "juegos": 3},
    "players_shape": {"where": Where("match", 1), "got": "[1]"},
    "player_both_sides": {"where": Where("match", 1), "player": "Ana"},
    "meets_too_often": {"first": 0, "second": 1, "first_name": "A", "second_name": "B",
                        "count": 3, "legs": 2},
    "meets_in_groups": {"first": 0, "second": 1, "first_name": "A", "second_name": "B",
                        "count": 3, "legs": 1, "most": 2},
    "format_kind": {"got": '"copa"'},
    "format_groups": {"got": "3"},
    "format_knockout": {},
    "round": {"where": Where("match", 2), "got": "0"},
    "number_range": {"field": "win", "where": POINTS, "low": -1000, "high": 1000,
                     "got": "1e+40"},
    "too_deep": {"limit": 50},
    "text_surrogate": {},
    "text_control": {},
    "name_invisible": {"where": Where("pair", 1)},
    "name_bidi": {"where": Where("pair", 0)},
}

# Words of the English messages that Spanish or Basque never has.
ENGLISH_WORDS = re.compile(
    r"\b(the|must|not|pair|pairs|match|league|cannot|needs|has|there|give|leave|"
    r"whole|number|list|object|string|rules|players?|of|in|and|or|is|got|missing)\b")


def test_every_league_error_has_a_message_and_a_sample() -> None:
    assert set(MESSAGES) == set(ENGLISH) == set(SAMPLES)


@pytest.mark.parametrize("code", sorted(SAMPLES))
@pytest.mark.parametrize("language", ["es", "en", "eu"])
def test_every_league_error_is_worded_in_every_language(code: str, language: str) -> None:
    error = LeagueError(code, **SAMPLES[code])
    text = league_message(error, language)
    assert text and "%(" not in text and "{" not in text, text
    assert text[0] == text[0].upper(), text
    for value in SAMPLES[code].values():
        if isinstance(value, (int, str)) and code not in ("not_json", "draw"):
            assert str(value) in text, (value, text)
    if language == "en":
        return
    # No English left: the quoted field names and values aside, not one English word.
    bare = re.sub(r"«[^»]*»|'[^']*'|\"[^\"]*\"|\([^)]*\)", "", text)
    assert not ENGLISH_WORDS.findall(bare.replace("null", "")), text
    assert text != league_message(error, "en")


def test_the_three_languages_differ_and_str_is_the_contract_english() -> None:
    error = LeagueError("plays_itself", where=Where("match", 1), pair=1, name="P1")
    assert str(error) == "Match 1: pair 1 (P1) cannot play itself."
    assert league_message(error, "es") == \
        "La partida 1: la pareja 1 (P1) no puede jugar contra sí misma."
    assert league_message(error, "en") == "Match 1: pair 1 (P1) cannot play itself."
    assert league_message(error, "eu") == \
        "1. partida: 1 zenbakiko bikoteak (P1) ezin du bere buruaren aurka jokatu."


def test_words_inside_a_message_are_translated() -> None:
    problem = LeagueError("not_a", field="win", where=POINTS, what="number", got='"x"')
    assert league_message(problem, "es") == \
        "«win» en los puntos (points) debe ser un número entero, no \"x\"."
    assert "zenbaki oso bat" in league_message(problem, "eu")
    draw = LeagueError("draw", last=1, problem="missing", item=1)
    assert league_message(draw, "es").endswith("exactamente una vez; falta el 1.")
    assert str(draw).endswith("exactly once; 1 is missing.")


def test_an_engine_error_inside_a_vaca_is_worded_by_the_engine_catalogue() -> None:
    doc = league(2, [{"pairs": [0, 1], "vaca": {"mano": 0, "hands": [{"hands": {"0": "R"}}]}}])
    with pytest.raises(LeagueError) as caught:
        read_league(doc)
    spanish = league_message(caught.value, "es")
    assert spanish.startswith("La partida 1: las manos de la vaca no se pueden reproducir: ")
    assert "cannot be replayed" in str(caught.value)
    assert "cannot" not in spanish and "Hand" not in spanish


def test_an_error_it_does_not_know_keeps_its_words() -> None:
    assert league_message(ValueError("no idea"), "eu") == "no idea"
