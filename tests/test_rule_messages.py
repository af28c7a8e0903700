"""The engine's errors in the page's language: muscore.messages and its catalogue."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.messages import RULES as MESSAGES
from muscore.messages import rule_message
from muscore.rules import RecordError, RuleError, VacaError, replay, score
from muscore.rules.errors import MESSAGES as ENGINE_MESSAGES
from tests.rules.test_errors import CASES

# One error of every code the engine raises, with params as the engine gives them.
SAMPLES: dict[str, dict[str, Any]] = {
    "not_object": {},
    "not_vaca": {},
    "unknown_key": {"key": "colour", "where": "record"},
    "not_a": {"field": "hands", "what": "object", "got": "[1]"},
    "rule_value": {"field": "players", "got": "5", "choices": (4, 6)},
    "mano": {"last": 3, "got": "7"},
    "score_side": {"key": "C"},
    "score_value": {"side": "A", "last": 39, "got": "-1"},
    "score_at_target": {"side": "A", "got": 40, "target": 40},
    "seat": {"key": "7", "players": 4, "last": 3},
    "card": {"seat": 1, "token": "9"},
    "card_count": {"seat": 2, "count": 3, "cards": "1 1 6"},
    "too_many": {"count": 5, "index": 12, "name": "reyes"},
    "no_cards_no_jugadas": {"seat": 1},
    "jugada_missing": {"seat": 1, "field": "juego"},
    "jugada_pares": {"seat": 3, "got": '"trio"'},
    "jugada_juego": {"seat": 3, "got": "38"},
    "jugada_contradicts": {"seat": 0, "cards": "R R 5 4", "has": "par", "lance": "pares",
                           "said": '"no"'},
    "lance_name": {"key": "flor"},
    "juego_not_punto": {},
    "punto_not_juego": {"seat": 1},
    "bet_side": {"lance": "grande", "i": 1, "got": '"C"'},
    "bet_n": {"lance": "chica", "i": 2, "got": "0"},
    "first_bet": {"lance": "grande", "got": 1},
    "bet_own": {"lance": "grande", "side": "A", "i": 2},
    "after_ordago": {"lance": "juego"},
    "no_answer": {"lance": "pares"},
    "end_value": {"lance": "pares", "got": '"si"'},
    "end_without_bets": {"lance": "punto", "got": '"quiero"'},
    "bet_one_side": {"lance": "pares", "side": "A"},
    "bet_nobody": {"lance": "juego"},
    "winner_value": {"lance": "grande", "got": '"C"'},
    "winner_missing": {"lance": "chica", "seat": 3},
    "winner_contradicts": {"lance": "grande", "side": "A", "got": "B"},
    "winner_contradicts_jugadas": {"lance": "pares", "side": "A", "got": "B", "seat": 0,
                                   "held": "duples", "other_seat": 1, "other_held": "par"},
    "winner_contradicts_lie": {"lance": "pares", "side": "B", "got": "A", "seat": 0},
    "winner_not_holder": {"lance": "pares", "got": "B", "side": "A"},
    "winner_nobody": {"lance": "pares", "got": "A"},
    "declared_value": {"seat": 1, "lance": "pares", "got": '"si"'},
    "declared_no_cards": {"seat": 3, "lance": "pares"},
    "piedras_alone": {"key": "hands"},
    "piedras_side": {"got": '"C"'},
    "piedras_n": {"got": "0", "limit": 100},
    "perete_off": {},
    "perete_alone": {"key": "hands"},
    "perete_side": {"got": '"C"'},
    "tap_illegal": {"lance": "grande", "tap": "quiero", "side": "A"},
    "tap_unanswered": {"lance": "chica", "earlier": "grande"},
    "vaca_hands": {},
    "vaca_hand": {"n": 2, "inner": RecordError("card", seat=0, token="9")},
    "vaca_hand_field": {"n": 1, "field": "score"},
    "vaca_over": {"n": 5, "side": "B", "at": 4},
    "pairs_players": {"players": 3},
    "score_player": {"key": "D", "players": 3, "letters": ("A", "B", "C")},
    "score_value_player": {"side": "C", "last": 39, "got": "-1"},
    "score_at_target_player": {"side": "E", "got": 40, "target": 40},
    "bet_player": {"lance": "grande", "i": 1, "got": '"G"', "letters": ("A", "B", "C")},
    "raise_own": {"lance": "chica", "side": "C", "i": 2},
    "bet_one_player": {"lance": "pares", "side": "D"},
    "bet_not_playing": {"lance": "pares", "side": "B", "i": 2, "players": ("A", "C")},
    "out_pairs": {"lance": "grande"},
    "out_player": {"lance": "grande", "got": '"G"', "letters": ("A", "B", "C")},
    "out_twice": {"lance": "chica", "side": "B"},
    "out_without_bets": {"lance": "punto", "side": "C"},
    "out_last_bettor": {"lance": "grande", "side": "A"},
    "out_not_playing": {"lance": "juego", "side": "B", "players": ("A", "C", "D")},
    "quiero_nobody": {"lance": "grande", "side": "A", "out": ("B", "C")},
    "winner_player": {"lance": "chica", "got": '"F"', "letters": ("A", "B", "C", "D")},
    "winner_nobody_player": {"lance": "pares", "got": "C"},
    "winner_not_player": {"lance": "pares", "got": "B", "players": ("A", "C")},
    "winner_out": {"lance": "grande", "got": "C", "players": ("A", "B")},
    "winner_liar": {"lance": "juego", "got": "B", "seat": 1},
    "winner_contradicts_player": {"lance": "grande", "side": "C", "got": "A"},
    "winner_contradicts_jugadas_player": {"lance": "pares", "side": "C", "got": "B",
                                          "seat": 2, "held": "duples", "other_seat": 1,
                                          "other_held": "par"},
    "winner_contradicts_lie_player": {"lance": "pares", "side": "D", "got": "A", "seat": 0},
    "piedras_player": {"got": '"F"', "letters": ("A", "B", "C")},
    "perete_player": {"got": '"F"', "letters": ("A", "B", "C", "D", "E")},
    "vaca_over_player": {"n": 7, "side": "C", "at": 6},
    "tap_turn": {"lance": "grande", "side": "C", "turn": "B"},
    "tap_players": {"lance": "pares"},
    "tap_text": {"got": '"Z:hola"'},
}


def test_every_engine_error_has_a_message_and_a_sample() -> None:
    assert set(MESSAGES) == set(ENGINE_MESSAGES) == set(SAMPLES)


@pytest.mark.parametrize("code", sorted(SAMPLES))
@pytest.mark.parametrize("language", ["es", "en", "eu", "fr"])
def test_every_error_reads_whole_in_every_language(code: str, language: str) -> None:
    error = RuleError(code, **SAMPLES[code])
    text = rule_message(error, language)
    assert text and "%(" not in text and "{" not in text, text
    for key in ("seat", "side", "got", "n", "key", "count"):
        value = SAMPLES[code].get(key)
        if value is not None:
            assert str(value).strip('"') in text, (key, text)
    if language != "es":
        assert text != rule_message(error, "es") or code == "vaca_hand", text


def test_lances_and_words_are_translated_too() -> None:
    error = RuleError("bet_nobody", lance="juego")
    assert rule_message(error, "es") == "juego: nadie tiene juego, así que nadie puede envidar."
    assert "jokoa" in rule_message(error, "eu")
    tap = RuleError("tap_illegal", lance="grande", tap="no_quiero", side="B")
    assert rule_message(tap, "es") == "grande: ahora no se puede decir no quiero (bando B)."
    assert rule_message(tap, "en") == "grande: no quiero (side B) cannot be said now."
    alone = RuleError("tap_illegal", lance="grande", tap="quiero", side="C", player=True)
    assert rule_message(alone, "es") == "grande: ahora no se puede decir quiero (jugador C)."
    players = RuleError("quiero_nobody", lance="grande", side="A", out=("B", "C"))
    assert "(fuera del lance: B y C)" in rule_message(players, "es")
    assert "(B and C left the lance)" in rule_message(players, "en")
    assert "(fuera del lance: B)" in rule_message(RuleError(
        "quiero_nobody", lance="pares", side="A", out=("B",)), "es")
    rule = RuleError("rule_value", field="real31", got='"x"', choices=("no", "rey", "sota"))
    assert rule_message(rule, "es").endswith("debe ser «no», «rey» o «sota».")
    assert rule_message(rule, "eu").endswith("«no», «rey» edo «sota» izan behar da.")


@pytest.mark.parametrize(
    "rec, kind, english, spanish", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_the_engines_refusals_in_spanish(
    rec: Any, kind: type[RuleError], english: list[str], spanish: list[str]
) -> None:
    with pytest.raises(kind) as raised:
        score(rec)
    text = rule_message(raised.value, "es").lower()
    for words in spanish:
        assert words.lower().replace("'", "«", 1).replace("'", "»", 1) in text or (
            words.lower() in text), (words, text)


def test_a_vaca_error_says_the_hand_and_its_cause_in_the_language() -> None:
    with pytest.raises(VacaError) as raised:
        replay({"hands": [{"hands": {"0": "R R 5"}}]})
    assert rule_message(raised.value, "es").startswith("Mano 1: El asiento 0 tiene 3 cartas")
    assert rule_message(raised.value, "en").startswith("Hand 1: Seat 0 has 3 cards")
    assert rule_message(raised.value, "eu").startswith("1. eskua: 0. eserlekuak 3 karta")


def test_an_error_the_catalogue_does_not_know_keeps_its_own_words() -> None:
    class Other(RuleError):
        def __init__(self) -> None:
            self.code = "something_else"
            self.params = {}
            ValueError.__init__(self, "plain")

        def message(self, language: str = "en") -> str:
            return f"own words ({language})"

    assert rule_message(Other(), "es") == "own words (es)"
    assert rule_message(ValueError("x"), "es") == "x"
