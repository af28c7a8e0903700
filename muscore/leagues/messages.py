"""The league contract's errors in the page's language (gettext).

``muscore.leagues`` (its pure part, no Django) raises a
:class:`~muscore.leagues.compute.errors.LeagueError` with a ``code`` and its ``params`` (numbers,
values found, and the words it needs as codes: where in the document, what kind of
value) and an English ``str()`` for the command line and the API. This module words it
for an organiser in the active language, like ``muscore.rule_messages`` does for the
engine: each code has a Spanish message id (Spanish is the source language) translated
in ``locale/en`` and ``locale/eu``; the engine's error inside a vaca or the league's
rules is worded by ``muscore.rule_messages``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop, override

from muscore.leagues.compute.errors import LeagueError, Where
from muscore.rule_messages import rule_message

#: The message of each league error code, a Spanish msgid with %(param)s placeholders.
MESSAGES: dict[str, str] = {
    "not_json": gettext_noop("La liga no es JSON válido (línea %(line)s, columna %(column)s)."),
    "not_object": gettext_noop("%(where)s debe ser un objeto JSON."),
    "unknown_key": gettext_noop("Campo desconocido «%(key)s» en %(where)s."),
    "not_a": gettext_noop("«%(field)s» en %(where)s debe ser %(what)s, no %(got)s."),
    "name_missing": gettext_noop("%(where)s necesita un nombre."),
    "name_long": gettext_noop(
        "El nombre en %(where)s es demasiado largo: %(limit)s caracteres como mucho."),
    "rules": gettext_noop("Las reglas de la liga: %(detail)s"),
    "legs": gettext_noop("«legs» debe ser 1 (solo ida) o 2 (ida y vuelta), no %(got)s."),
    "too_few_pairs": gettext_noop("Una liga necesita al menos 2 parejas, no %(count)s."),
    "too_many_pairs": gettext_noop("Una liga tiene como mucho %(limit)s parejas, no %(count)s."),
    "players_count": gettext_noop(
        "La pareja %(pair)s (%(name)s) tiene %(count)s jugadores: en una mesa de %(players)s "
        "cada pareja tiene %(size)s."),
    "player_twice": gettext_noop("%(where)s: %(player)s no puede sentarse dos veces."),
    "draw": gettext_noop(
        "«draw» debe nombrar cada índice de pareja del 0 al %(last)s exactamente una vez; "
        "%(detail)s."),
    "unknown_pair": gettext_noop(
        "%(where)s: no hay pareja %(got)s; las parejas van del 0 al %(last)s."),
    "plays_itself": gettext_noop(
        "%(where)s: la pareja %(pair)s (%(name)s) no puede jugar contra sí misma."),
    "two_results": gettext_noop(
        "%(where)s tiene más de un resultado (%(keys)s): indica los juegos, una vaca o una "
        "incomparecencia."),
    "tantos_alone": gettext_noop(
        "%(where)s tiene tantos pero no juegos: los tantos van con los juegos anotados a mano."),
    "juegos_end": gettext_noop(
        "%(where)s: los juegos %(got)s no terminan la partida: una pareja necesita exactamente "
        "%(juegos)s y la otra menos."),
    "forfeit_pair": gettext_noop(
        "%(where)s: la pareja que no se presentó debe ser una de las de la partida (%(first)s "
        "o %(second)s) o «both», no %(got)s."),
    "vaca_rules": gettext_noop(
        "%(where)s: la vaca usa las reglas de la liga; quita «rules» de ella."),
    "vaca_invalid": gettext_noop(
        "%(where)s: las manos de la vaca no se pueden reproducir: %(detail)s"),
    "vaca_unfinished": gettext_noop(
        "%(where)s: la vaca no ha terminado (juegos %(a)s-%(b)s; se gana con %(juegos)s): "
        "todavía no es un resultado."),
    "players_shape": gettext_noop(
        "%(where)s: «players» indica quién se sentó por cada una de las dos parejas (una lista "
        "de nombres, o null para los suyos), no %(got)s."),
    "player_both_sides": gettext_noop(
        "%(where)s: %(player)s no puede sentarse con las dos parejas."),
    "meets_too_often": gettext_noop(
        "Las parejas %(first)s (%(first_name)s) y %(second)s (%(second_name)s) se enfrentan "
        "%(count)s veces, pero a %(legs)s vuelta(s) se enfrentan como mucho %(legs)s."),
    "round": gettext_noop("%(where)s: «round» debe ser un número entero, 1 o más, no %(got)s."),
    "number_range": gettext_noop(
        "«%(field)s» en %(where)s debe ser un número entero del %(low)s al %(high)s, no "
        "%(got)s."),
    "too_deep": gettext_noop(
        "La liga anida listas y objetos a más de %(limit)s niveles de profundidad."),
    "text_surrogate": gettext_noop(
        "La liga lleva texto que no es Unicode válido (un surrogate suelto, como \\ud800)."),
    "text_control": gettext_noop(
        "La liga lleva un carácter de control (como \\u0000) en un texto."),
    "name_invisible": gettext_noop("El nombre en %(where)s solo tiene caracteres invisibles."),
    "name_bidi": gettext_noop(
        "El nombre en %(where)s lleva un carácter que cambia el sentido del texto."),
}

#: Where in the document (``Where.kind``); a pair or a match with its number.
WHERE: dict[str, str] = {
    "league": gettext_noop("la liga"),
    "points": gettext_noop("los puntos (points)"),
    "fixtures": gettext_noop("la petición de calendario"),
    "pair": gettext_noop("la pareja %(n)s"),
    "match": gettext_noop("la partida %(n)s"),
    "the_match": gettext_noop("la partida"),
}

#: ``not_a``'s ``what``: the kind of value a field must hold.
WHAT: dict[str, str] = {
    "object": gettext_noop("un objeto"),
    "string": gettext_noop("un texto"),
    "list": gettext_noop("una lista"),
    "names": gettext_noop("una lista de nombres"),
    "pair_indices": gettext_noop("una lista de dos índices de pareja"),
    "counts": gettext_noop("una lista de dos números enteros, 0 o más"),
    "number": gettext_noop("un número entero"),
    "pairs": gettext_noop("un número de parejas, o la lista de parejas"),
}

#: ``draw``'s ``problem``.
DRAW_PROBLEMS: dict[str, str] = {
    "not_list": gettext_noop("se recibió %(got)s"),
    "not_index": gettext_noop("%(got)s no es un índice de pareja"),
    "twice": gettext_noop("el %(item)s aparece %(times)s veces"),
    "missing": gettext_noop("falta el %(item)s"),
}


def where_words(where: object) -> str:
    """A place in the document in the active language."""
    if not isinstance(where, Where):
        return str(where)
    if where.kind in ("pair", "match"):
        if where.number is None:
            return gettext(WHERE["the_match"])
        return gettext(WHERE[where.kind]) % {"n": where.number}
    return gettext(WHERE[where.kind]) if where.kind in WHERE else str(where)


def _params(error: LeagueError) -> dict[str, Any]:
    params: dict[str, Any] = dict(error.params)
    if "where" in params:
        params["where"] = where_words(params["where"])
    if error.code == "not_a":
        what = params["what"]
        params["what"] = gettext(WHAT[what]) if what in WHAT else what
    elif error.code == "draw":
        params["detail"] = gettext(DRAW_PROBLEMS[params["problem"]]) % params
    elif error.code in ("rules", "vaca_invalid"):
        params["detail"] = rule_message(params["inner"])
    return params


def league_message(error: BaseException, language: str | None = None) -> str:
    """A league error in words an organiser understands, in the active language (or
    ``language``): a sentence, its first letter a capital. An error this catalogue does
    not know keeps its own message."""
    if language is not None:
        with override(language):
            return league_message(error)
    if not isinstance(error, LeagueError) or error.code not in MESSAGES:
        return str(error)
    try:
        text = gettext(MESSAGES[error.code]) % _params(error)
    except (KeyError, TypeError, ValueError):  # a param the message lacks: still say it
        return str(error)
    return text[:1].upper() + text[1:]
