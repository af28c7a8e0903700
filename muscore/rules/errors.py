"""The errors of muscore.rules: each says, in a player's words, what is wrong.

Every error is a :class:`RuleError`, a :class:`ValueError` subclass, so callers
can catch one type. ``str(error)`` is English; :meth:`RuleError.message`
gives the Spanish text (the app's default language) or the English one.
The subclasses say which part of the record is at fault.
"""

from __future__ import annotations

from typing import Any

# One template per kind of mistake: (English, Spanish). The placeholders are
# filled from the error's params; the web layer picks the language.
MESSAGES: dict[str, tuple[str, str]] = {
    "not_object": (
        "A hand record must be a JSON object.",
        "Una mano debe ser un objeto JSON.",
    ),
    "not_vaca": (
        "A vaca must be a JSON object with the list of its hands.",
        "Una vaca debe ser un objeto JSON con la lista de sus manos.",
    ),
    "unknown_key": (
        "Unknown field '{key}' in {where}.",
        "Campo desconocido '{key}' en {where_es}.",
    ),
    "not_a": (
        "'{field}' must be {what}, not {got}.",
        "'{field}' debe ser {what_es}, no {got}.",
    ),
    "rule_value": (
        "The option '{field}' cannot be {got}: it must be {allowed}.",
        "La opción '{field}' no puede ser {got}: debe ser {allowed_es}.",
    ),
    "mano": (
        "The mano must be a seat from 0 to {last}, not {got}.",
        "La mano debe ser un asiento del 0 al {last}, no {got}.",
    ),
    "score_side": (
        "The score is kept for sides A and B, not '{key}'.",
        "El tanteo se lleva por bandos A y B, no '{key}'.",
    ),
    "score_value": (
        "Side {side}'s score must be a whole number of piedras from 0 to {last}, not {got}.",
        "El tanteo del bando {side} debe ser un número de piedras del 0 al {last}, no {got}.",
    ),
    "score_at_target": (
        "Side {side} already has {got} piedras: at {target} the juego was over before this hand.",
        "El bando {side} ya tiene {got} piedras: con {target} el juego acabó antes de esta mano.",
    ),
    "seat": (
        "There is no seat '{key}' at a table of {players}: seats go from 0 to {last}.",
        "No hay asiento '{key}' en una mesa de {players}: los asientos van del 0 al {last}.",
    ),
    "card": (
        "Seat {seat}: '{token}' is not a card. Cards are 1-7, 10 (S, sota), 11 (C, caballo), "
        "12 (R, rey).",
        "Asiento {seat}: '{token}' no es una carta. Las cartas son 1-7, 10 (S, sota), "
        "11 (C, caballo), 12 (R, rey).",
    ),
    "card_count": (
        "Seat {seat} has {count} cards ({cards}): a hand has 4.",
        "El asiento {seat} tiene {count} cartas ({cards}): una mano tiene 4.",
    ),
    "too_many": (
        "There are {count} cards of index {index} ({name}) on the table: the deck has only 4.",
        "Hay {count} cartas de índice {index} ({name_es}) en la mesa: la baraja solo tiene 4.",
    ),
    "no_cards_no_jugadas": (
        "Seat {seat} has neither cards nor jugadas: give its four cards, or what it declared.",
        "El asiento {seat} no tiene ni cartas ni jugadas: indica sus cuatro cartas o lo que "
        "declaró.",
    ),
    "jugada_missing": (
        "Seat {seat} showed no cards: its jugadas need '{field}'.",
        "El asiento {seat} no enseñó cartas: sus jugadas necesitan '{field}'.",
    ),
    "jugada_pares": (
        "Seat {seat}: pares must be \"no\", \"par\", \"medias\" or \"duples\", not {got}.",
        "Asiento {seat}: los pares deben ser \"no\", \"par\", \"medias\" o \"duples\", no {got}.",
    ),
    "jugada_juego": (
        "Seat {seat}: juego must be \"no\" or a total of 31, 32, 33, 34, 35, 36, 37 or 40, "
        "not {got}.",
        "Asiento {seat}: el juego debe ser \"no\" o un total de 31, 32, 33, 34, 35, 36, 37 o 40, "
        "no {got}.",
    ),
    "jugada_contradicts": (
        "Seat {seat} shows {cards}, which has {has} in {lance}, but its jugadas say {said}.",
        "El asiento {seat} enseña {cards}, que tiene {has_es} en {lance}, pero sus jugadas dicen "
        "{said}.",
    ),
    "lance_name": (
        "'{key}' is not a lance: the lances are grande, chica, pares and juego (or punto).",
        "'{key}' no es un lance: los lances son grande, chica, pares y juego (o punto).",
    ),
    "juego_not_punto": (
        "Nobody has juego, so the fourth lance is punto, not juego.",
        "Nadie tiene juego, así que el cuarto lance es el punto, no el juego.",
    ),
    "punto_not_juego": (
        "{who} has juego, so the fourth lance is juego, not punto.",
        "{who_es} tiene juego, así que el cuarto lance es el juego, no el punto.",
    ),
    "bet_side": (
        "{lance}, bet {i}: the side must be \"A\" or \"B\", not {got}.",
        "{lance}, apuesta {i}: el bando debe ser \"A\" o \"B\", no {got}.",
    ),
    "bet_n": (
        "{lance}, bet {i}: a bet is a whole number of piedras, 1 or more, or \"ordago\"; "
        "not {got}.",
        "{lance}, apuesta {i}: una apuesta es un número entero de piedras, 1 o más, u "
        "\"ordago\"; no {got}.",
    ),
    "bet_own": (
        "{lance}: side {side} cannot raise its own bet (bet {i}); raises alternate between "
        "the sides.",
        "{lance}: el bando {side} no puede subir su propia apuesta (apuesta {i}); los envites "
        "se alternan entre los bandos.",
    ),
    "after_ordago": (
        "{lance}: nothing can be bet after an órdago; only quiero or no quiero.",
        "{lance}: después de un órdago no se puede envidar; solo quiero o no quiero.",
    ),
    "no_answer": (
        "{lance}: the bet was never answered: say \"quiero\" or \"no_quiero\" in 'end'.",
        "{lance}: nadie contestó a la apuesta: indica \"quiero\" o \"no_quiero\" en 'end'.",
    ),
    "end_value": (
        "{lance}: 'end' must be \"quiero\" or \"no_quiero\", not {got}.",
        "{lance}: 'end' debe ser \"quiero\" o \"no_quiero\", no {got}.",
    ),
    "end_without_bets": (
        "{lance}: nobody bet, so nobody could say {got}.",
        "{lance}: nadie envidó, así que nadie pudo decir {got}.",
    ),
    "bet_one_side": (
        "{lance}: only side {side} has {lance}, so nobody can bet in it: it is collected at "
        "the count.",
        "{lance}: solo el bando {side} tiene {lance}, así que no se envida: se cobra en el "
        "recuento.",
    ),
    "bet_nobody": (
        "{lance}: nobody has {lance}, so nobody can bet in it.",
        "{lance}: nadie tiene {lance}, así que nadie puede envidar.",
    ),
    "winner_value": (
        "The winner of {lance} must be \"A\" or \"B\", not {got}.",
        "El ganador de {lance} debe ser \"A\" o \"B\", no {got}.",
    ),
    "winner_missing": (
        "Who won {lance}? Seat {seat} showed no cards: give the winner of {lance} in 'winners'.",
        "¿Quién ganó {lance}? El asiento {seat} no enseñó cartas: indica el ganador de {lance} "
        "en 'winners'.",
    ),
    "winner_contradicts": (
        "The cards give {lance} to side {side}, but 'winners' says {got}.",
        "Las cartas dan {lance} al bando {side}, pero 'winners' dice {got}.",
    ),
    "winner_contradicts_jugadas": (
        "The jugadas give {lance} to side {side} (seat {seat} has {held}, seat {other_seat} "
        "{other_held}), but 'winners' says {got}.",
        "Las jugadas dan {lance} al bando {side} (el asiento {seat} tiene {held}, el asiento "
        "{other_seat} {other_held}), pero 'winners' dice {got}.",
    ),
    "winner_contradicts_lie": (
        "Seat {seat} lied in {lance}, so {lance} goes to side {side}, but 'winners' says {got}.",
        "El asiento {seat} mintió en {lance}, así que {lance} es del bando {side}, pero "
        "'winners' dice {got}.",
    ),
    "winner_not_holder": (
        "'winners' gives {lance} to side {got}, but only side {side} has {lance}.",
        "'winners' da {lance} al bando {got}, pero solo el bando {side} tiene {lance}.",
    ),
    "winner_nobody": (
        "'winners' gives {lance} to side {got}, but nobody has {lance}.",
        "'winners' da {lance} al bando {got}, pero nadie tiene {lance}.",
    ),
    "declared_value": (
        "Seat {seat}: a declaration of {lance} is true or false, not {got}.",
        "Asiento {seat}: lo declarado en {lance} es true o false, no {got}.",
    ),
    "declared_no_cards": (
        "Seat {seat} showed no cards and its declaration of {lance} does not match its "
        "jugadas: without cards a lie cannot be seen.",
        "El asiento {seat} no enseñó cartas y lo que declaró en {lance} no coincide con sus "
        "jugadas: sin cartas no se puede ver una mentira.",
    ),
    "piedras_alone": (
        "A piedras entry holds only 'piedras', not '{key}'.",
        "Una anotación de piedras solo lleva 'piedras', no '{key}'.",
    ),
    "piedras_side": (
        "Piedras are tapped for side \"A\" or \"B\", not {got}.",
        "Las piedras se anotan al bando \"A\" o \"B\", no {got}.",
    ),
    "piedras_n": (
        "Piedras tapped must be a whole number from -{limit} to {limit}, not 0, not {got}.",
        "Las piedras anotadas deben ser un número entero del -{limit} al {limit}, distinto "
        "de 0, no {got}.",
    ),
    "tap_illegal": (
        "{lance}: {tap} cannot be said now.",
        "{lance}: ahora no se puede decir {tap}.",
    ),
    "tap_unanswered": (
        "{lance}: the bet in {earlier} was never answered; answer it first.",
        "{lance}: nadie contestó al envite de {earlier}; contéstalo antes.",
    ),
    "vaca_hands": (
        "A vaca needs 'hands': the list of its hands in order.",
        "Una vaca necesita 'hands': la lista de sus manos en orden.",
    ),
    "vaca_hand": (
        "Hand {n}: {detail}",
        "Mano {n}: {detail_es}",
    ),
    "vaca_hand_field": (
        "Hand {n}: '{field}' is carried by the vaca, not given per hand.",
        "Mano {n}: '{field}' lo lleva la vaca, no se indica en cada mano.",
    ),
    "vaca_over": (
        "Hand {n}: side {side} already won the vaca at hand {at}.",
        "Mano {n}: el bando {side} ya ganó la vaca en la mano {at}.",
    ),
}

# Spanish words for the few parameters that are themselves words.
_ES_WORDS = {
    "a whole number": "un número entero",
    "an object": "un objeto",
    "a list": "una lista",
    "a string of four cards": "una cadena de cuatro cartas",
    "true or false": "true o false",
    "the record": "la mano",
    "rules": "las opciones (rules)",
    "hands": "las cartas (hands)",
    "jugadas": "las jugadas",
    "winners": "los ganadores (winners)",
    "lances": "los lances",
    "a lance": "un lance",
    "a bet": "una apuesta",
    "the score": "el tanteo",
    "the vaca": "la vaca",
    "declared": "lo declarado (declared)",
}


def _es(word: object) -> object:
    if isinstance(word, str):
        if word in _ES_WORDS:
            return _ES_WORDS[word]
        # "rules" inside lists of allowed values and the like: translate "or".
        return word.replace(" or ", " o ").replace(" to ", " a ")
    return word


class RuleError(ValueError):
    """A hand record or a vaca breaks a rule of the game or of the contract.

    ``code`` names the kind of mistake and ``params`` its details, so a
    program can react to it; ``str()`` is the English message and
    :meth:`message` gives it in Spanish or English.
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "es") -> str:
        """The error in words a player understands, in Spanish ("es") or English."""
        english, spanish = MESSAGES[self.code]
        if language.startswith("es"):
            values = dict(self.params)
            for key, value in self.params.items():
                values.setdefault(f"{key}_es", _es(value))
            if self.code == "vaca_hand":
                inner = self.params["inner"]
                values["detail_es"] = inner.message("es")
            return spanish.format(**values)
        if self.code == "vaca_hand":
            return english.format(n=self.params["n"], detail=self.params["inner"].message("en"))
        return english.format(**self.params)


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
