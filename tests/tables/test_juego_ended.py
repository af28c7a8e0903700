"""Issue 19.5 (last fault): a lance says "no se juega: el juego ya terminó" only when the
juego really ended in an earlier lance's betting (an accepted órdago, a deje reaching the
target), as the engine's draft says it (muscore.rules.HandDraft.ended_in), never guessed
from which lances hold bets."""

from __future__ import annotations

from typing import Any

from muscore.handentry.taps import EntryError
from muscore.rules import HandDraft, Lance
from muscore.tables.forms import HandEntry

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
# Juego: only Bruno (35) and Diego (34), so nobody bets in it; pares: everybody.
DEAL = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}


def entry(data: dict[str, str], score: tuple[int, int] = (0, 0)) -> HandEntry:
    return HandEntry(players=NAMES, rules={"target": 40}, mano=0,
                     score={"A": score[0], "B": score[1]}, number=1, data=data)


def ended(form: HandEntry) -> dict[str, Any]:
    return {info["lance"]: info["not_played"] for info in form.lances}


def test_a_hand_whose_juego_goes_on_says_no_lance_ended() -> None:
    form = entry({**DEAL, "b_grande": "A2", "e_grande": "no_quiero",
                  "b_pares": "B2", "e_pares": "quiero"})
    assert form.draft is not None and form.draft.ended_in() is None
    assert not any(ended(form).values())
    assert not any(info.get("ends_juego") for info in form.lances)


def test_the_count_reaching_the_target_is_not_the_betting_ending_the_juego() -> None:
    """At 37, grande's accepted envite of 4 ends the juego at the count (issue 19.4): the
    later lances are still bet as the table bets them, so none says the juego ended."""
    form = entry({**DEAL, "b_grande": "A4", "e_grande": "quiero"}, score=(37, 10))
    assert not any(ended(form).values())
    form.apply("bet:chica:B:2")
    assert form.bets["chica"] == [("B", 2)]


def test_an_ordago_accepted_in_grande_ends_it_there_and_only_later_lances_say_so() -> None:
    form = entry({**DEAL, "b_grande": "Ao", "e_grande": "quiero"})
    assert ended(form) == {"grande": False, "chica": True, "pares": True, "juego": True}
    grande = form.lances[0]
    assert grande["ends_juego"]
    # The juego is not over: the órdago's lance decides it (issue 30.6).
    assert [info["after_ordago"] for info in form.lances] == [False, True, True, True]
    try:
        form.apply("bet:chica:A:2")
    except EntryError as error:
        assert "lo decide el órdago querido" in str(error)
        assert "el juego ya terminó" not in str(error)
    else:
        raise AssertionError("a bet after the juego ended was taken")


def test_an_ordago_in_pares_ends_the_juego_though_nobody_can_bet_in_juego() -> None:
    """Juego is not bettable here (only Bruno and Diego have it): the page used to guess
    the end from the next lance without taps, found none and showed juego as played."""
    form = entry({**DEAL, "b_pares": "Ao", "e_pares": "quiero"})
    assert form.draft is not None and form.draft.ended_in() is Lance.PARES
    assert ended(form) == {"grande": False, "chica": False, "pares": False, "juego": True}


def test_a_deje_reaching_the_target_ends_the_juego_in_its_lance() -> None:
    form = entry({**DEAL, "b_chica": "B2", "e_chica": "no_quiero"}, score=(10, 39))
    assert ended(form) == {"grande": False, "chica": False, "pares": True, "juego": True}
    # This juego is over: no órdago decides it.
    assert not any(info["after_ordago"] for info in form.lances)
    try:
        form.apply("bet:pares:A:2")
    except EntryError as error:
        assert "el juego ya terminó" in str(error)
    else:
        raise AssertionError("a bet after the juego ended was taken")


def test_the_earliest_end_is_the_end_whatever_was_bet_after_it() -> None:
    """Bets tapped in pares before grande's órdago was entered: the juego ended in
    grande, so pares is not played either (the guess took the last lance with bets)."""
    form = entry({**DEAL, "b_pares": "B2", "e_pares": "quiero",
                  "b_grande": "Ao", "e_grande": "quiero"})
    assert ended(form)["pares"] is True and ended(form)["chica"] is True


def test_ended_in_is_the_engines_answer() -> None:
    draft = HandDraft.from_record({"lances": {"grande": {
        "bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}}, passed=False)
    assert draft.ended_in() is Lance.GRANDE
    assert HandDraft.from_record({}, passed=False).ended_in() is None
