"""The rules engine's errors in the page's language (gettext), for every app.

``muscore.rules`` raises a :class:`~muscore.rules.RuleError` with a ``code`` and its
``params`` (seats, lances, values) and an English ``str()`` for the API, the command
line and the logs. This module words it for a player in the active language: each
code has a Spanish message id (Spanish is the source language) translated in
``locale/en`` and ``locale/eu``, and the params that are words (a lance, the kind of
value a field needs) are translated too. It sits below every app and imports no app.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop, override

from muscore.rules import RuleError

#: The message of each engine error code, as a Spanish msgid with %(param)s placeholders.
MESSAGES: dict[str, str] = {
    "not_object": gettext_noop("Una mano debe ser un objeto JSON."),
    "not_vaca": gettext_noop("Una vaca debe ser un objeto JSON con la lista de sus manos."),
    "unknown_key": gettext_noop("Campo desconocido «%(key)s» en %(where)s."),
    "not_a": gettext_noop("«%(field)s» debe ser %(what)s, no %(got)s."),
    "rule_value": gettext_noop("La opción «%(field)s» no puede ser %(got)s: debe ser %(allowed)s."),
    "mano": gettext_noop("La mano debe ser un asiento del 0 al %(last)s, no %(got)s."),
    "score_side": gettext_noop("El tanteo se lleva por bandos A y B, no «%(key)s»."),
    "score_value": gettext_noop(
        "El tanteo del bando %(side)s debe ser un número de piedras del 0 al %(last)s, "
        "no %(got)s."),
    "score_at_target": gettext_noop(
        "El bando %(side)s ya tiene %(got)s piedras: con %(target)s el juego acabó antes de "
        "esta mano."),
    "seat": gettext_noop(
        "No hay asiento «%(key)s» en una mesa de %(players)s: los asientos van del 0 al "
        "%(last)s."),
    "card": gettext_noop(
        "Asiento %(seat)s: «%(token)s» no es una carta. Las cartas son 1-7, 10 (S, sota), "
        "11 (C, caballo), 12 (R, rey)."),
    "card_count": gettext_noop(
        "El asiento %(seat)s tiene %(count)s cartas (%(cards)s): una mano tiene 4."),
    "too_many": gettext_noop(
        "Hay %(count)s cartas de índice %(index)s (%(name)s) en la mesa: la baraja solo "
        "tiene 4."),
    "no_cards_no_jugadas": gettext_noop(
        "El asiento %(seat)s no tiene ni cartas ni jugadas: indica sus cuatro cartas o lo que "
        "declaró."),
    "jugada_missing": gettext_noop(
        "El asiento %(seat)s no enseñó cartas: falta lo que declaró en %(field)s."),
    "jugada_pares": gettext_noop(
        "Asiento %(seat)s: los pares deben ser «no», «par», «medias» o «duples», no %(got)s."),
    "jugada_juego": gettext_noop(
        "Asiento %(seat)s: el juego debe ser «no» o un total de 31, 32, 33, 34, 35, 36, 37 o "
        "40, no %(got)s."),
    "jugada_contradicts": gettext_noop(
        "El asiento %(seat)s enseña %(cards)s, que tiene %(has)s en %(lance)s, pero sus "
        "jugadas dicen %(said)s."),
    "lance_name": gettext_noop(
        "«%(key)s» no es un lance: los lances son grande, chica, pares y juego (o punto)."),
    "juego_not_punto": gettext_noop(
        "Nadie tiene juego, así que el cuarto lance es el punto, no el juego."),
    "punto_not_juego": gettext_noop(
        "El asiento %(seat)s tiene juego, así que el cuarto lance es el juego, no el punto."),
    "bet_side": gettext_noop(
        "%(lance)s, apuesta %(i)s: el bando debe ser A o B, no %(got)s."),
    "bet_n": gettext_noop(
        "%(lance)s, apuesta %(i)s: una apuesta es un número entero de piedras, 1 o más, u "
        "órdago; no %(got)s."),
    "first_bet": gettext_noop(
        "%(lance)s: la primera apuesta de un lance es un envido de 2 piedras o más, no de "
        "%(got)s; solo una subida puede ser de 1."),
    "bet_own": gettext_noop(
        "%(lance)s: el bando %(side)s no puede subir su propia apuesta (apuesta %(i)s); los "
        "envites se alternan entre los bandos."),
    "after_ordago": gettext_noop(
        "%(lance)s: después de un órdago no se puede envidar; solo quiero o no quiero."),
    "no_answer": gettext_noop(
        "%(lance)s: nadie contestó al envite: falta el quiero o el no quiero."),
    "end_value": gettext_noop(
        "%(lance)s: la respuesta debe ser quiero o no quiero, no %(got)s."),
    "end_without_bets": gettext_noop(
        "%(lance)s: nadie envidó, así que nadie pudo decir %(got)s."),
    "bet_one_side": gettext_noop(
        "%(lance)s: solo el bando %(side)s tiene %(lance)s, así que no se envida: se cobra en "
        "el recuento."),
    "bet_nobody": gettext_noop(
        "%(lance)s: nadie tiene %(lance)s, así que nadie puede envidar."),
    "winner_value": gettext_noop(
        "El ganador de %(lance)s debe ser el bando A o el B, no %(got)s."),
    "winner_missing": gettext_noop(
        "¿Quién ganó %(lance)s? El asiento %(seat)s no enseñó cartas: indica el bando que "
        "ganó %(lance)s."),
    "winner_contradicts": gettext_noop(
        "Las cartas dan %(lance)s al bando %(side)s, pero el ganador indicado es %(got)s."),
    "winner_contradicts_jugadas": gettext_noop(
        "Las jugadas dan %(lance)s al bando %(side)s (el asiento %(seat)s tiene %(held)s, el "
        "asiento %(other_seat)s %(other_held)s), pero el ganador indicado es %(got)s."),
    "winner_contradicts_lie": gettext_noop(
        "El asiento %(seat)s mintió en %(lance)s, así que %(lance)s es del bando %(side)s, "
        "pero el ganador indicado es %(got)s."),
    "winner_not_holder": gettext_noop(
        "El ganador indicado de %(lance)s es el bando %(got)s, pero solo el bando %(side)s "
        "tiene %(lance)s."),
    "winner_nobody": gettext_noop(
        "El ganador indicado de %(lance)s es el bando %(got)s, pero nadie tiene %(lance)s."),
    "declared_value": gettext_noop(
        "Asiento %(seat)s: lo declarado en %(lance)s es sí o no, no %(got)s."),
    "declared_no_cards": gettext_noop(
        "El asiento %(seat)s no enseñó cartas y lo que declaró en %(lance)s no coincide con "
        "sus jugadas: sin cartas no se puede ver una mentira."),
    "piedras_alone": gettext_noop(
        "Una anotación de piedras solo lleva las piedras, no «%(key)s»."),
    "piedras_side": gettext_noop(
        "Las piedras se anotan al bando A o al B, no %(got)s."),
    "piedras_n": gettext_noop(
        "Las piedras anotadas deben ser un número entero del -%(limit)s al %(limit)s, "
        "distinto de 0, no %(got)s."),
    "perete_off": gettext_noop(
        "Esta mesa no juega el perete (la opción «perete» está desactivada): no se puede "
        "anotar un perete."),
    "perete_alone": gettext_noop(
        "Una anotación de perete solo lleva el perete, no «%(key)s»."),
    "perete_side": gettext_noop(
        "El perete se anota al bando A o al B, no %(got)s."),
    "tap_illegal": gettext_noop("%(lance)s: ahora no se puede decir %(tap)s."),
    "tap_unanswered": gettext_noop(
        "%(lance)s: nadie contestó al envite de %(earlier)s; contéstalo antes."),
    "vaca_hands": gettext_noop("Una vaca necesita la lista de sus manos en orden."),
    "vaca_hand": gettext_noop("Mano %(n)s: %(detail)s"),
    "vaca_hand_field": gettext_noop(
        "Mano %(n)s: «%(field)s» lo lleva la vaca, no se indica en cada mano."),
    "vaca_over": gettext_noop(
        "Mano %(n)s: el bando %(side)s ya ganó la vaca en la mano %(at)s."),
}

#: ``not_a``'s ``what``: the kind of value a field must hold.
WHAT: dict[str, str] = {
    "object": gettext_noop("un objeto"),
    "list": gettext_noop("una lista"),
    "cards": gettext_noop("una cadena de cuatro cartas"),
    "number": gettext_noop("un número entero"),
}

#: ``unknown_key``'s ``where`` when it is not a field's path.
WHERE: dict[str, str] = {
    "record": gettext_noop("la mano"),
    "vaca": gettext_noop("la vaca"),
}

#: The lances and what a side can say in their betting: game words, translated too.
WORDS: dict[str, str] = {
    "grande": gettext_noop("grande"),
    "chica": gettext_noop("chica"),
    "pares": gettext_noop("pares"),
    "juego": gettext_noop("juego"),
    "punto": gettext_noop("punto"),
    "paso": gettext_noop("paso"),
    "envido": gettext_noop("envido"),
    "ordago": gettext_noop("órdago"),
    "quiero": gettext_noop("quiero"),
    "no_quiero": gettext_noop("no quiero"),
}

_WORD_PARAMS = ("lance", "earlier", "field")


def _translated_params(error: RuleError) -> dict[str, Any]:
    params: dict[str, Any] = dict(error.params)
    code = error.code
    for key in _WORD_PARAMS:
        value = params.get(key)
        if isinstance(value, str) and value in WORDS:
            params[key] = gettext(WORDS[value])
    if code == "not_a":
        params["what"] = gettext(WHAT.get(params["what"], params["what"]))
    elif code == "unknown_key":
        where = params["where"]
        params["where"] = gettext(WHERE[where]) if where in WHERE else where
    elif code == "rule_value":
        choices = params.get("choices")
        if choices:
            words = [f"«{c}»" if isinstance(c, str) else str(c).lower() if isinstance(c, bool)
                     else str(c) for c in choices]
            params["allowed"] = gettext("%(first)s o %(last)s") % {
                "first": ", ".join(words[:-1]), "last": words[-1]}
        else:
            params["allowed"] = gettext("un número entero del %(low)s al %(high)s") % params
    elif code == "tap_illegal":
        tap = gettext(WORDS.get(params["tap"], params["tap"]))
        side = params.get("side")
        params["tap"] = gettext("%(tap)s (bando %(side)s)") % {"tap": tap, "side": side} if (
            side) else tap
    elif code == "vaca_hand":
        inner = params.get("inner")
        params["detail"] = rule_message(inner) if isinstance(inner, RuleError) else str(inner)
    return params


def rule_message(error: BaseException, language: str | None = None) -> str:
    """A rules error in words a player understands, in the active language (or
    ``language``). An error this catalogue does not know keeps its own message."""
    if language is not None:
        with override(language):
            return rule_message(error)
    if not isinstance(error, RuleError) or error.code not in MESSAGES:
        message = getattr(error, "message", None)
        if callable(message):
            try:
                return str(message((get_language() or "es")[:2]))
            except Exception:  # noqa: BLE001 - a message must never break the page
                pass
        return str(error)
    try:
        text: str = gettext(MESSAGES[error.code]) % _translated_params(error)
    except (KeyError, TypeError, ValueError):  # a param the template lacks: still say it
        return str(error)
    return text
