"""Issue 19.7: a winner the cards contradict is said as a sentence read aloud, the verb
agreeing with the side (a pair, or one player at a table of two), and what to correct
being what gave the lance."""

from __future__ import annotations

from django.utils import translation

from muscore.handentry.messages import winner_message
from muscore.rules.errors import RuleError
from muscore.tables.forms import HandEntry


def test_a_pair_agrees_in_the_plural_and_the_cards_are_what_to_correct() -> None:
    error = RuleError("winner_contradicts", lance="grande", side="A", got="B")
    with translation.override("es"):
        text = winner_message(error, ["Ana", "Bruno", "Carla", "Diego"])
    assert text == (
        "Grande: según las cartas la ganan Ana y Carla, pero habéis marcado que la ganaron "
        "Bruno y Diego. Quitad ese ganador o corregid las cartas."
    )


def test_one_player_a_side_agrees_in_the_singular() -> None:
    error = RuleError("winner_contradicts_jugadas", lance="pares", side="B", got="A", seat=1,
                      held="pares", other_seat=0, other_held="no")
    with translation.override("es"):
        text = winner_message(error, ["Ana", "Bruno"])
    assert text == (
        "Pares: según las jugadas la gana Bruno, pero habéis marcado que la ganó Ana. "
        "Quitad ese ganador o corregid las jugadas."
    )
    with translation.override("en"):
        english = winner_message(error, ["Ana", "Bruno"])
    assert "Bruno wins it" in english and "correct the jugadas" in english


def test_a_winner_for_the_side_without_pares_is_said_in_words_not_a_crash() -> None:
    """The engine's winner_not_holder (it was a KeyError, a 500, on this POST)."""
    data = {"c0": "C R 5 3", "c1": "1 6 R C", "p2": "par", "j2": "31", "p3": "no", "j3": "31",
            "b_pares": "A5 B10", "e_pares": "no_quiero", "w_pares": "B"}
    form = HandEntry(players=["Ana", "Bruno", "Carla", "Diego"], rules={}, mano=0,
                     score={"A": 10, "B": 38}, number=1, data=data)
    assert any("solo Ana y Carla tienen pares" in e for e in form.errors), form.errors
