"""The hand entry in individual play (3 to 6 players, each for himself; issue 37): each
lance follows the table's talk, player by player, in turn.

The engine's :class:`muscore.rules.HandDraft` says who plays the lance, whose turn it
is, what he may say, who must still answer the bet and who left it (rules.md,
"Individual play"); here that is only read into what the page draws: the players of
the lance with what each said, the buttons of the player whose turn it is, the names a
screen reader hears, and what is still missing. No rule is worked out here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from muscore import rules as rules_engine
from muscore.handentry.spoken import talk_names
from muscore.handentry.taps import talk_words
from muscore.handentry.words import Seating
from muscore.rules import HandDraft, LanceState, Tap, TapKind

LANCES = ("grande", "chica", "pares", "juego", "punto")
#: The most words a lance's talk field holds (six players raising each other).
TALK_MAX = 60


def talk_fields(get: Callable[[str], Any]) -> tuple[dict[str, list[str]], list[str]]:
    """Each lance's talk from its field t_<lance> ("A:paso B:envido:2"), and the lances
    whose field is no talk (said by the page, their talk left out)."""
    talks: dict[str, list[str]] = {}
    bad: list[str] = []
    for lance in LANCES:
        words = str(get(f"t_{lance}") or "")[:1000].split()[:TALK_MAX]
        try:
            talks[lance] = [Tap.parse(word).text() for word in words]
        except rules_engine.RuleError:
            bad.append(lance)
            talks[lance] = []
    return talks, bad


def alone_lance(
    draft: HandDraft, state: LanceState, seating: Seating, info: dict[str, Any]
) -> list[str]:
    """Fills a lance's dict for templates/tables/_talk.html from the engine's answers:
    `players` (each with what he said, whether he left, whether it is his turn), `turn`,
    `can` (the words the player whose turn it is may say), `can_win` (who can collect it,
    for the winner's question), `said` (the buttons' names); returns the talk in words."""
    lance = state.lance
    labels = {side: seating.label(side) for side in seating.letters}
    talk = draft.talk(lance)
    out = {side.value for side in state.out}
    answering = {side.value for side in state.answering}
    turn = state.turn.value if state.turn is not None else None
    last: dict[str, Tap] = {}
    for tap in talk:
        if tap.side is not None:
            last[tap.side.value] = tap
    everybody_passed = any(tap.side is None for tap in talk)
    info["players"] = [
        {
            "side": side.value,
            "name": seating.names(side.value),
            "out": side.value in out,
            "turn": side.value == turn,
            "answering": side.value in answering and side.value != turn,
            "word": _word(last.get(side.value), everybody_passed, bool(state.bets)),
        }
        for side in state.players or ()
    ]
    kinds = {(tap.kind, tap.side is None) for tap in state.taps}
    info["turn"] = turn
    info["turn_name"] = seating.names(turn) if turn else ""
    info["open"] = turn is not None and state.bettable is True
    info["can"] = {
        "paso": (TapKind.PASO, False) in kinds,
        "all_paso": (TapKind.PASO, True) in kinds,
        "envido": (TapKind.ENVIDO, False) in kinds,
        "ordago": (TapKind.ORDAGO, False) in kinds,
        "answer": (TapKind.QUIERO, False) in kinds,
    }
    info["raise"] = bool(state.bets)
    info["talked"] = bool(talk)
    info["out_names"] = [seating.names(side) for side in out] if state.end != "no_quiero" \
        else []
    # Who can collect the lance: those still in a lance held on, else all who play it.
    still_in = draft.still_in(lance) if state.end == "quiero" else state.players
    info["can_win"] = [side.value for side in still_in or state.players or ()]
    names = {side: seating.names(side) for side in seating.letters}
    info["said"] = talk_names(lance.value, turn, names)
    return talk_words(talk, labels)


def _word(tap: Tap | None, everybody_passed: bool, bet: bool) -> str:
    """What a player said last in the lance, in a word for his chip."""
    if tap is None:
        return str(_("paso")) if everybody_passed and not bet else ""
    if tap.kind is TapKind.PASO:
        return str(_("paso"))
    if tap.kind is TapKind.ORDAGO:
        return str(_("órdago"))
    if tap.kind is TapKind.ENVIDO:
        return str(_("envida %(n)s") % {"n": tap.n})
    return str(_("quiero") if tap.kind is TapKind.QUIERO else _("no quiero"))


def alone_missing(lances: Sequence[Mapping[str, Any]], seating: Seating) -> list[dict[str, str]]:
    """What must still be said before the hand can be scored, lance by lance: who must
    answer a bet, or who won a lance nothing else settles, named among those who can."""
    out = []
    for info in lances:
        if info["not_played"]:
            continue
        if info["bets"] and info["end"] is None and info.get("turn"):
            text = _("%(lance)s: falta lo que dice %(who)s a la apuesta.") % {
                "lance": info["name"], "who": seating.names(info["turn"])}
        elif info.get("needs_winner") and info.get("winner") is None:
            # "Ana, Bruno o Carla": Django's own "or" in each language.
            who = get_text_list([seating.names(side) for side in info.get("can_win", ())])
            text = _("%(lance)s: falta quién gana: %(who)s.") % {"lance": info["name"],
                                                                 "who": who}
        else:
            continue
        out.append({"lance": info["lance"], "text": text})
    return out
