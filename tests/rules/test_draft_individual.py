"""The hand in progress in individual play: the talk entered player by player (issue 37).

A phone enters each lance as the table talks it: who passes, who bets how much, who
answers quiero, no quiero or a raise, in turn, until the lance closes. The property:
entering random tables' talk word by word, the draft always says whose turn it is, offers
that word among the legal taps, and ends with exactly the record and the result that
score() gives; a stored record read back makes a talk that gives the same record again.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from muscore.rules import BettingError, HandDraft, Lance, Rules, Side, Tap, TapKind, score
from tests.examples import examples
from tests.rules.individual import LETTERS, individual_records

PROPERTY = settings(max_examples=examples(200), deadline=None)
THREE = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7"}
WORDS = {"paso": Tap.paso, "ordago": Tap.ordago, "quiero": Tap.quiero,
         "no_quiero": Tap.no_quiero}


def tap_of(seat: int, word: str, n: int | None) -> Tap:
    side = Side(LETTERS[seat])
    return Tap.envido(side, n or 2) if word == "envido" else WORDS[word](side)


def plain(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "_talk"}


def same(lance: Any) -> dict[str, Any]:
    """A lance's betting with its ``out`` as a set: who left counts, not in what order."""
    return {**lance, "out": set(lance.get("out", ()))}


def cards_first(record: dict[str, Any]) -> HandDraft:
    n = record["rules"]["players"]
    draft = HandDraft(rules=Rules.from_json(record["rules"]), mano=record["mano"],
                      score=tuple(record["score"][LETTERS[s]] for s in range(n)))
    for seat, text in record["hands"].items():
        draft = draft.with_cards(int(seat), text)
    for seat, said in record.get("declared", {}).items():
        for lance, value in said.items():
            draft = draft.with_declared(int(seat), lance, value)
    return draft


@PROPERTY
@given(individual_records().filter(lambda r: r["rules"]["players"] > 2))
def test_the_talk_entered_word_by_word_gives_the_record_and_its_score(
    record: dict[str, Any]
) -> None:
    talks = record["_talk"]
    record = plain(record)
    draft = cards_first(record)
    expected = score(record)
    for name in ("grande", "chica", "pares", "juego", "punto"):
        if name not in talks:
            continue
        lance = Lance(name)
        if draft.ended_in() is not None:
            break  # the juego was won in the betting: nothing more is said
        for seat, word, n in talks[name]:
            tap = tap_of(seat, word, n)
            assert draft.to_speak(lance) == tap.side
            assert (tap.kind, tap.side) in {(t.kind, t.side) for t in draft.legal_taps(lance)}
            before = draft.preview().steps
            draft = draft.tap(lance, tap)
            assert draft.preview().steps[:len(before)] == before  # certain steps stay
        if record.get("lances", {}).get(name, {}).get("bets"):
            assert draft.is_closed(lance)
            assert draft.to_speak(lance) is None and draft.legal_taps(lance) == ()
            assert same(draft.to_record()["lances"][name]) == same(record["lances"][name])
    if draft.ended_in() is None:
        assert draft.closed().result() == expected
    else:
        assert draft.preview().result is not None
        assert draft.preview().result["score"] == expected["score"]


@PROPERTY
@given(individual_records().filter(lambda r: r["rules"]["players"] > 2))
def test_a_record_read_back_talks_the_same_betting(record: dict[str, Any]) -> None:
    record = plain(record)
    draft = HandDraft.from_record(record)
    assert draft.result() == score(record)
    ended = draft.ended_in()
    order = ["grande", "chica", "pares", "juego", "punto"]
    for name, data in record.get("lances", {}).items():
        if ended is not None and order.index(name) > order.index(ended.value):
            continue  # never played: the juego was won before it
        if data.get("bets"):
            assert draft.to_record()["lances"][name] == data
            again = draft.with_talk(name, draft.talk_text(name).split())
            assert same(again.to_record()["lances"][name]) == same(data)


def three() -> HandDraft:
    draft = HandDraft(rules=Rules(players=3), score=(0, 0, 0))
    for seat, text in THREE.items():
        draft = draft.with_cards(int(seat), text)
    return draft


def test_a_player_out_of_turn_is_refused_naming_whose_turn_it_is() -> None:
    draft = three().tap(Lance.GRANDE, Tap.paso(Side.A))
    with pytest.raises(BettingError) as raised:
        draft.tap(Lance.GRANDE, Tap.envido(Side.C))
    assert raised.value.code == "tap_turn"
    assert str(raised.value) == "grande: it is player B's turn to speak, not C's."


def test_a_raise_is_answered_again_by_who_had_said_quiero() -> None:
    draft = three()
    for tap in (Tap.envido(Side.A), Tap.quiero(Side.B), Tap.envido(Side.C, 3)):
        draft = draft.tap(Lance.GRANDE, tap)
    assert draft.answering(Lance.GRANDE) == (Side.A, Side.B)
    assert draft.lance(Lance.GRANDE).stake == 5 and draft.lance(Lance.GRANDE).deje == 2
    draft = draft.tap(Lance.GRANDE, Tap.no_quiero(Side.A))
    assert draft.out(Lance.GRANDE) == (Side.A,) and draft.to_speak(Lance.GRANDE) is Side.B
    assert draft.still_in(Lance.GRANDE) == (Side.B, Side.C)
    done = draft.tap(Lance.GRANDE, Tap.quiero(Side.B))
    assert done.is_closed(Lance.GRANDE)
    assert done.to_record()["lances"]["grande"] == {
        "bets": [{"side": "A", "n": 2}, {"side": "C", "n": 3}], "end": "quiero", "out": ["A"]}
    # B (R C C 5) beats C (1 1 6 7) at grande: the 5 between B and C, A out of it.
    assert done.closed().result()["lances"]["grande"] == {"side": "B", "points": 5}
    assert done.undo(Lance.GRANDE) == draft


def test_everybody_rejecting_pays_the_deje_at_once() -> None:
    draft = three()
    for tap in (Tap.paso(Side.A), Tap.envido(Side.B, 5), Tap.no_quiero(Side.C)):
        draft = draft.tap(Lance.CHICA, tap)
    assert draft.preview().steps == ()
    assert draft.preview_tap(Lance.CHICA, Tap.no_quiero(Side.A)).steps[0]["side"] == "B"
    draft = draft.tap(Lance.CHICA, Tap.no_quiero(Side.A))
    assert draft.ends[Lance.CHICA] == "no_quiero" and Lance.GRANDE in draft.passed
    assert draft.to_record()["lances"]["chica"] == {"bets": [{"side": "B", "n": 5}],
                                                    "end": "no_quiero"}


def test_pares_waits_for_who_plays_it() -> None:
    draft = HandDraft(rules=Rules(players=3), score=(0, 0, 0)).with_cards(0, "R R 5 4")
    assert draft.players(Lance.PARES) is None and draft.legal_taps(Lance.PARES) == ()
    with pytest.raises(BettingError) as raised:
        draft.tap(Lance.PARES, Tap.envido(Side.A))
    assert raised.value.code == "tap_players"
    draft = draft.with_declared(1, Lance.PARES, False).with_declared(2, Lance.PARES, True)
    assert draft.players(Lance.PARES) == (Side.A, Side.C)
    assert draft.to_speak(Lance.PARES) is Side.A


def test_everybody_passes_in_one_tap() -> None:
    draft = three().tap(Lance.GRANDE, Tap.paso(Side.A)).tap(Lance.GRANDE, Tap.paso())
    assert draft.is_closed(Lance.GRANDE) and Lance.GRANDE in draft.passed
    assert {t.kind for t in draft.legal_taps(Lance.CHICA)} == {
        TapKind.PASO, TapKind.ENVIDO, TapKind.ORDAGO}


def test_an_ordago_accepted_by_one_of_two_wins_the_juego_for_the_better() -> None:
    draft = three().with_score(10, 30, 5)
    for tap in (Tap.paso(Side.A), Tap.ordago(Side.B), Tap.no_quiero(Side.C),
                Tap.quiero(Side.A)):
        draft = draft.tap(Lance.GRANDE, tap)
    assert draft.ended_in() is Lance.GRANDE
    result = draft.preview().result
    assert result is not None and result["winner"] == "A" and result["ended_by"] == "ordago"
    assert draft.legal_taps(Lance.CHICA) == ()


def test_the_lance_state_says_the_turns() -> None:
    state = three().tap(Lance.GRANDE, Tap.envido(Side.A)).lance(Lance.GRANDE)
    assert state.players == (Side.A, Side.B, Side.C)
    assert (state.turn, state.answering, state.out) == (Side.B, (Side.B, Side.C), ())
    assert [t.text() for t in state.talk] == ["A:envido:2"]
    assert {t.text() for t in state.taps} == {"B:quiero", "B:no_quiero", "B:envido",
                                              "B:ordago"}


def test_a_winner_is_asked_among_those_still_in() -> None:
    draft = HandDraft(rules=Rules(players=3), score=(0, 0, 0)).with_cards(0, "R R 5 4")
    draft = draft.with_jugada(1, "par", "no").with_jugada(2, "no", 31)
    for tap in (Tap.envido(Side.A), Tap.quiero(Side.B), Tap.no_quiero(Side.C)):
        draft = draft.tap(Lance.GRANDE, tap)
    assert Lance.GRANDE in draft.winners_needed()
    wrong = draft.with_winner(Lance.GRANDE, Side.C)
    assert [e.code for e in wrong.problems()] == ["winner_out"]
    right = draft.with_winner(Lance.GRANDE, Side.B)
    assert right.problems() == () and Lance.GRANDE not in right.winners_needed()
