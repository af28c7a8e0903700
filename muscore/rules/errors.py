"""The errors of muscore.rules: a code, its parameters, and readable English.

Every error is a :class:`RuleError`, muscore's coded error
(:class:`muscore.errors.MuscoreError`, a :class:`ValueError`), so callers can catch one
type. ``code`` names the kind of mistake and ``params`` its details (seats, lances,
values: no words of any language), so a program can react to it and a user interface
can say it in its own language: the web app translates them with gettext
(``muscore.messages``). ``str(error)`` is English, for the JSON API, the command line
and the logs. The subclasses say which part of the record is at
fault.
"""

from __future__ import annotations

from typing import Any

from muscore.errors import MuscoreError

#: The English template of each code; the placeholders are the error's params, plus
#: the words :func:`english_params` derives from them.
MESSAGES: dict[str, str] = {
    "not_object": "A hand record must be a JSON object.",
    "not_vaca": "A vaca must be a JSON object with the list of its hands.",
    "unknown_key": "Unknown field '{key}' in {where}.",
    "not_a": "'{field}' must be {what}, not {got}.",
    "rule_value": "The option '{field}' cannot be {got}: it must be {allowed}.",
    "mano": "The mano must be a seat from 0 to {last}, not {got}.",
    "score_side": "The score is kept for sides A and B, not '{key}'.",
    "score_value": "Side {side}'s score must be a whole number of piedras from 0 to {last}, "
                   "not {got}.",
    "score_at_target": "Side {side} already has {got} piedras: at {target} the juego was over "
                       "before this hand.",
    "seat": "There is no seat '{key}' at a table of {players}: seats go from 0 to {last}.",
    "card": "Seat {seat}: '{token}' is not a card. Cards are 1-7, 10 (S, sota), 11 (C, caballo), "
            "12 (R, rey).",
    "card_count": "Seat {seat} has {count} cards ({cards}): a hand has 4.",
    "too_many": "There are {count} cards of index {index} ({name}) on the table: the deck has "
                "only 4.",
    "no_cards_no_jugadas": "Seat {seat} has neither cards nor jugadas: give its four cards, or "
                           "what it declared.",
    "jugada_missing": "Seat {seat} showed no cards: its jugadas need '{field}'.",
    "jugada_pares": "Seat {seat}: pares must be \"no\", \"par\", \"medias\" or \"duples\", "
                    "not {got}.",
    "jugada_juego": "Seat {seat}: juego must be \"no\" or a total of 31, 32, 33, 34, 35, 36, 37 "
                    "or 40, not {got}.",
    "jugada_contradicts": "Seat {seat} shows {cards}, which has {has} in {lance}, but its "
                          "jugadas say {said}.",
    "lance_name": "'{key}' is not a lance: the lances are grande, chica, pares and juego "
                  "(or punto).",
    "juego_not_punto": "Nobody has juego, so the fourth lance is punto, not juego.",
    "punto_not_juego": "Seat {seat} has juego, so the fourth lance is juego, not punto.",
    "bet_side": "{lance}, bet {i}: the side must be \"A\" or \"B\", not {got}.",
    "bet_n": "{lance}, bet {i}: a bet is a whole number of piedras, 1 or more, or \"ordago\"; "
             "not {got}.",
    "first_bet": "{lance}: the first bet of a lance is an envido of 2 or more piedras, not {got}; "
                 "only a raise can add 1.",
    "bet_own": "{lance}: side {side} cannot raise its own bet (bet {i}); raises alternate "
               "between the sides.",
    "after_ordago": "{lance}: nothing can be bet after an órdago; only quiero or no quiero.",
    "no_answer": "{lance}: the bet was never answered: say \"quiero\" or \"no_quiero\" in 'end'.",
    "end_value": "{lance}: 'end' must be \"quiero\" or \"no_quiero\", not {got}.",
    "end_without_bets": "{lance}: nobody bet, so nobody could say {got}.",
    "bet_one_side": "{lance}: only side {side} has {lance}, so nobody can bet in it: it is "
                    "collected at the count.",
    "bet_nobody": "{lance}: nobody has {lance}, so nobody can bet in it.",
    "winner_value": "The winner of {lance} must be \"A\" or \"B\", not {got}.",
    "winner_missing": "Who won {lance}? Seat {seat} showed no cards: give the winner of {lance} "
                      "in 'winners'.",
    "winner_contradicts": "The cards give {lance} to side {side}, but 'winners' says {got}.",
    "winner_contradicts_jugadas": "The jugadas give {lance} to side {side} (seat {seat} has "
                                  "{held}, seat {other_seat} {other_held}), but 'winners' says "
                                  "{got}.",
    "winner_contradicts_lie": "Seat {seat} lied in {lance}, so {lance} goes to side {side}, but "
                              "'winners' says {got}.",
    "winner_not_holder": "'winners' gives {lance} to side {got}, but only side {side} has "
                         "{lance}.",
    "winner_nobody": "'winners' gives {lance} to side {got}, but nobody has {lance}.",
    "declared_value": "Seat {seat}: a declaration of {lance} is true or false, not {got}.",
    "declared_no_cards": "Seat {seat} showed no cards and its declaration of {lance} does not "
                         "match its jugadas: without cards a lie cannot be seen.",
    "piedras_alone": "A piedras entry holds only 'piedras', not '{key}'.",
    "piedras_side": "Piedras are tapped for side \"A\" or \"B\", not {got}.",
    "piedras_n": "Piedras tapped must be a whole number from -{limit} to {limit}, not 0, "
                 "not {got}.",
    "perete_off": "This table does not play perete (the option 'perete' is off): a perete "
                  "cannot be noted.",
    "perete_alone": "A perete entry holds only 'perete', not '{key}'.",
    "perete_side": "A perete is noted for side \"A\" or \"B\", not {got}.",
    "tap_illegal": "{lance}: {tap} cannot be said now.",
    "tap_unanswered": "{lance}: the bet in {earlier} was never answered; answer it first.",
    "vaca_hands": "A vaca needs 'hands': the list of its hands in order.",
    "vaca_hand": "Hand {n}: {detail}",
    "vaca_hand_field": "Hand {n}: '{field}' is carried by the vaca, not given per hand.",
    "vaca_over": "Hand {n}: side {side} already won the vaca at hand {at}.",
    # Individual play (rules.md, "Individual play"): each player a side of his own.
    "pairs_players": "A table of {players} cannot play in pairs (pairs are 4 or 6 players): "
                     "each plays for himself, so 'individual' cannot be false.",
    "score_player": "There is no player '{key}' at a table of {players}: the players are "
                    "{letters}.",
    "score_value_player": "Player {side}'s score must be a whole number of piedras from 0 to "
                          "{last}, not {got}.",
    "score_at_target_player": "Player {side} already has {got} piedras: at {target} the juego "
                              "was over before this hand.",
    "bet_player": "{lance}, bet {i}: the player who bets must be one of {letters}, not {got}.",
    "raise_own": "{lance}: player {side} cannot raise his own bet (bet {i}): another player "
                 "raises it or answers it.",
    "bet_one_player": "{lance}: only player {side} has {lance}, so nobody can bet in it: he "
                      "collects it at the count.",
    "bet_not_playing": "{lance}: player {side} does not play {lance}, so he cannot bet in it "
                       "(bet {i}); {lance} is played by {players}.",
    "out_pairs": "{lance}: 'out' is for individual play of 3 or more players; with two sides "
                 "a no quiero ends the lance.",
    "out_player": "{lance}: 'out' names players of the table ({letters}), not {got}.",
    "out_twice": "{lance}: player {side} is named twice in 'out': a player leaves a lance once.",
    "out_without_bets": "{lance}: nobody bet, so player {side} cannot have left the lance "
                        "('out').",
    "out_last_bettor": "{lance}: player {side} made the last bet, so he cannot have left the "
                       "lance: the others answer his bet.",
    "out_not_playing": "{lance}: player {side} does not play {lance}, so he cannot have left "
                       "it ('out'); {lance} is played by {players}.",
    "quiero_nobody": "{lance}: nobody was left to say quiero to player {side}'s bet ({out} "
                     "left the lance): the answer was no quiero.",
    "winner_player": "The winner of {lance} must be one of the players {letters}, not {got}.",
    "winner_nobody_player": "'winners' gives {lance} to player {got}, but nobody has {lance}.",
    "winner_not_player": "'winners' gives {lance} to player {got}, but he does not play "
                         "{lance}: only {players} do.",
    "winner_out": "'winners' gives {lance} to player {got}, but he left the lance: it was "
                  "held on by {players}.",
    "winner_liar": "'winners' gives {lance} to player {got}, but he lied in {lance} (seat "
                   "{seat}): a liar collects nothing in it.",
    "winner_contradicts_player": "The cards give {lance} to player {side}, but 'winners' says "
                                 "{got}.",
    "winner_contradicts_jugadas_player": "The jugadas give {lance} to player {side} (seat "
                                         "{seat} has {held}, seat {other_seat} {other_held}), "
                                         "but 'winners' says {got}.",
    "winner_contradicts_lie_player": "Seat {seat} lied in {lance}, so {lance} goes to player "
                                     "{side}, the best honest player, but 'winners' says {got}.",
    "piedras_player": "Piedras are tapped for a player of the table ({letters}), not {got}.",
    "perete_player": "A perete is noted for a player of the table ({letters}), not {got}.",
    "vaca_over_player": "Hand {n}: player {side} already won the vaca at hand {at}.",
    "tap_turn": "{lance}: it is player {turn}'s turn to speak, not {side}'s.",
    "tap_players": "{lance}: who plays {lance} is not known yet: enter each player's cards, or "
                   "what he said, first.",
    "tap_text": "{got} is not a tap: a tap reads \"A:paso\", \"B:envido:5\", \"C:ordago\", "
                "\"A:quiero\", \"B:no_quiero\" or \":paso\" (everybody passes).",
}

#: The params that hold several players by letter, joined in words ("A, B and C").
LIST_PARAMS = ("letters", "players", "out")

#: ``not_a``'s ``what``: the kind of value a field must hold.
WHAT: dict[str, str] = {
    "object": "an object",
    "list": "a list",
    "cards": "a string of four cards",
    "number": "a whole number",
}

#: ``unknown_key``'s ``where`` when it is not a field's path.
WHERE: dict[str, str] = {"record": "the record", "vaca": "the vaca"}


def english_params(code: str, params: dict[str, Any]) -> dict[str, Any]:
    """The params with the English words their template needs added."""
    values = dict(params)
    for key in LIST_PARAMS:
        value = params.get(key)
        if isinstance(value, tuple | list):
            names = [str(v) for v in value]
            values[key] = names[0] if len(names) == 1 else (
                ", ".join(names[:-1]) + " and " + names[-1])
    if code == "not_a":
        values["what"] = WHAT.get(params["what"], params["what"])
    elif code == "unknown_key":
        values["where"] = WHERE.get(params["where"], params["where"])
    elif code == "rule_value":
        choices = params.get("choices")
        if choices:
            words = [f'"{c}"' if isinstance(c, str) else str(c).lower() if isinstance(c, bool)
                     else str(c) for c in choices]
            values["allowed"] = ", ".join(words[:-1]) + " or " + words[-1]
        else:
            values["allowed"] = f"a whole number from {params['low']} to {params['high']}"
    elif code == "tap_illegal":
        values["tap"] = params["tap"].replace("_", " ") + (
            f" ({params['side']})" if params.get("side") else "")
    elif code == "vaca_hand":
        inner = params["inner"]
        values["detail"] = str(inner)
    return values


class RuleError(MuscoreError):
    """A hand record or a vaca breaks a rule of the game or of the contract.

    ``code`` names the kind of mistake and ``params`` its details, so a program can
    react to it and a user interface can word it (``muscore.messages`` does, in the
    page's language); ``str()`` is the English message.
    """

    family = "rules"
    MESSAGES = MESSAGES

    def english_params(self) -> dict[str, Any]:
        return english_params(self.code, self.params)


class RecordError(RuleError):
    """The record's shape is wrong: a missing, unknown or mistyped field."""


class CardError(RuleError):
    """A seat's cards are impossible: not a card, not four cards, more than the deck holds."""


class BettingError(RuleError):
    """A lance's betting cannot have happened at a table."""


class ScoreError(RuleError):
    """The score before the hand is impossible under the table's options."""


class VacaError(RuleError):
    """A vaca's hands cannot be replayed: a hand is wrong or comes after the vaca was won."""

    @property
    def number(self) -> int | None:
        """The number (from 1) of the entry at fault, when one is."""
        n = self.params.get("n")
        return n if isinstance(n, int) else None

    @property
    def cause(self) -> RuleError | None:
        """The entry's own error (what :func:`score` would say of it), when there is one."""
        inner = self.params.get("inner")
        return inner if isinstance(inner, RuleError) else None
