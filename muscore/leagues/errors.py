"""The errors of muscore.leagues: each says, in an organiser's words, what is wrong.

Every error is a :class:`LeagueError` (a ``ValueError``): ``str(error)`` is English,
:meth:`LeagueError.message` gives Spanish (the app's language) or English. ``code``
names the kind of mistake and ``params`` its details.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    "not_json": (
        "The league is not valid JSON: {detail}.",
        "La liga no es JSON válido: {detail}.",
    ),
    "not_object": (
        "{where} must be a JSON object.",
        "{where_es} debe ser un objeto JSON.",
    ),
    "unknown_key": (
        "Unknown field '{key}' in {where}.",
        "Campo desconocido '{key}' en {where_es}.",
    ),
    "not_a": (
        "'{field}' in {where} must be {what}, not {got}.",
        "'{field}' en {where_es} debe ser {what_es}, no {got}.",
    ),
    "name_missing": (
        "{where} needs a name.",
        "{where_es} necesita un nombre.",
    ),
    "name_long": (
        "The name in {where} is too long: {limit} characters at most.",
        "El nombre en {where_es} es demasiado largo: {limit} caracteres como mucho.",
    ),
    "rules": (
        "The league's rules: {detail}",
        "Las reglas de la liga: {detail_es}",
    ),
    "legs": (
        "'legs' must be 1 (one leg) or 2 (ida y vuelta), not {got}.",
        "'legs' debe ser 1 (solo ida) o 2 (ida y vuelta), no {got}.",
    ),
    "too_few_pairs": (
        "A league needs at least 2 pairs, not {count}.",
        "Una liga necesita al menos 2 parejas, no {count}.",
    ),
    "too_many_pairs": (
        "A league has at most {limit} pairs, not {count}.",
        "Una liga tiene como mucho {limit} parejas, no {count}.",
    ),
    "players_count": (
        "Pair {pair} ({name}) has {count} players: at a table of {players} each pair has {size}.",
        "La pareja {pair} ({name}) tiene {count} jugadores: en una mesa de {players} cada "
        "pareja tiene {size}.",
    ),
    "player_twice": (
        "{where}: {player} cannot sit twice.",
        "{where_es}: {player} no puede sentarse dos veces.",
    ),
    "draw": (
        "'draw' must list every pair index from 0 to {last} exactly once; {detail}.",
        "'draw' debe nombrar cada índice de pareja del 0 al {last} exactamente una vez; "
        "{detail_es}.",
    ),
    "unknown_pair": (
        "{where}: there is no pair {got}; the pairs go from 0 to {last}.",
        "{where_es}: no hay pareja {got}; las parejas van del 0 al {last}.",
    ),
    "plays_itself": (
        "{where}: pair {pair} ({name}) cannot play itself.",
        "{where_es}: la pareja {pair} ({name}) no puede jugar contra sí misma.",
    ),
    "two_results": (
        "{where} has more than one result ({keys}): give juegos, a vaca or a forfeit.",
        "{where_es} tiene más de un resultado ({keys}): indica los juegos, una vaca o una "
        "incomparecencia.",
    ),
    "tantos_alone": (
        "{where} has tantos but no juegos: tantos go with the juegos entered by hand.",
        "{where_es} tiene tantos pero no juegos: los tantos van con los juegos anotados a mano.",
    ),
    "juegos_end": (
        "{where}: juegos {got} do not end the match: one pair needs exactly {juegos} and the "
        "other fewer.",
        "{where_es}: los juegos {got} no terminan la partida: una pareja necesita exactamente "
        "{juegos} y la otra menos.",
    ),
    "forfeit_pair": (
        "{where}: the pair that did not show up must be one of the match's pairs ({first} or "
        "{second}) or \"both\", not {got}.",
        "{where_es}: la pareja que no se presentó debe ser una de las de la partida ({first} o "
        "{second}) o \"both\", no {got}.",
    ),
    "vaca_rules": (
        "{where}: the vaca takes the league's rules; leave 'rules' out of it.",
        "{where_es}: la vaca usa las reglas de la liga; quita 'rules' de ella.",
    ),
    "vaca_invalid": (
        "{where}: the vaca's hands cannot be replayed: {detail}",
        "{where_es}: las manos de la vaca no se pueden reproducir: {detail_es}",
    ),
    "vaca_unfinished": (
        "{where}: the vaca is not finished (juegos {a}-{b}; {juegos} win it): it is not a result "
        "yet.",
        "{where_es}: la vaca no ha terminado (juegos {a}-{b}; se gana con {juegos}): todavía no "
        "es un resultado.",
    ),
    "players_shape": (
        "{where}: 'players' lists who sat for each of the two pairs (a list of names, or null "
        "for the pair's own), not {got}.",
        "{where_es}: 'players' indica quién se sentó por cada una de las dos parejas (una lista "
        "de nombres, o null para los suyos), no {got}.",
    ),
    "player_both_sides": (
        "{where}: {player} cannot sit for both pairs.",
        "{where_es}: {player} no puede sentarse con las dos parejas.",
    ),
    "meets_too_often": (
        "Pairs {first} ({first_name}) and {second} ({second_name}) meet {count} times, but with "
        "{legs} leg(s) they meet at most {legs}.",
        "Las parejas {first} ({first_name}) y {second} ({second_name}) se enfrentan {count} "
        "veces, pero a {legs} vuelta(s) se enfrentan como mucho {legs}.",
    ),
    "round": (
        "{where}: 'round' must be a whole number, 1 or more, not {got}.",
        "{where_es}: 'round' debe ser un número entero, 1 o más, no {got}.",
    ),
}

_ES_WORDS = {
    "the league": "la liga",
    "the fixtures request": "la petición de calendario",
    "points": "los puntos (points)",
    "a whole number": "un número entero",
    "a list": "una lista",
    "a string": "un texto",
    "a list of names": "una lista de nombres",
    "a list of two pair indices": "una lista de dos índices de pareja",
    "a list of two whole numbers, 0 or more": "una lista de dos números enteros, 0 o más",
    "an object": "un objeto",
    "a whole number of pairs, or the list of pairs": "un número de parejas, o la lista de parejas",
}


def _es(value: object) -> object:
    if not isinstance(value, str):
        return value
    if value in _ES_WORDS:
        return _ES_WORDS[value]
    for english, spanish in (("pair ", "pareja "), ("Pair ", "Pareja "),
                             ("match ", "partida "), ("Match ", "Partida ")):
        value = value.replace(english, spanish)
    return value


class LeagueError(ValueError):
    """A league document (or a request about one) breaks the contract of league.md."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "es") -> str:
        """The error in words an organiser understands, in Spanish ("es") or English."""
        english, spanish = MESSAGES[self.code]
        if language.startswith("es"):
            values = dict(self.params)
            for key, value in self.params.items():
                values.setdefault(f"{key}_es", _es(value))
            inner = self.params.get("inner")
            if inner is not None and hasattr(inner, "message"):
                values["detail_es"] = inner.message("es")
            return spanish.format(**values)
        return english.format(**self.params)


def where_match(number: int) -> str:
    """How a message names a match: by its place in the document (1-based)."""
    return f"Match {number}"


def where_pair(index: int) -> str:
    """How a message names a pair: by its index."""
    return f"Pair {index}"
