"""The errors of muscore.leagues: a code, its parameters, and readable English.

Every error is a :class:`LeagueError` (muscore's coded error, a ``ValueError``).
``code`` names the kind of mistake and ``params`` its details (pair and match numbers,
the values found, and the words it needs as codes: where in the document, what kind of
value), so a program can react to it and a user interface can say it in its own
language: the web app words it with gettext (``muscore.messages``, in Spanish,
English, Basque and French). ``str(error)`` is English, for the command line
(league.md's ``{"error": ...}``), the API and the logs. This module imports no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from muscore.errors import MuscoreError


@dataclass(frozen=True)
class Where:
    """Where in the document a mistake is: ``kind`` is "league", "points", "fixtures",
    "pair" or "match" (with its ``number``: a pair's index, a match's place from 1)."""

    kind: str
    number: int | None = None

    def __str__(self) -> str:
        if self.kind == "pair":
            return f"Pair {self.number}"
        if self.kind == "match":
            return "The match" if self.number is None else f"Match {self.number}"
        return WHERE[self.kind]


#: The English words of the places a message names (``Where.kind``).
WHERE: dict[str, str] = {
    "league": "the league",
    "points": "points",
    "fixtures": "the fixtures request",
    "format": "the format",
}

LEAGUE = Where("league")
THE_MATCH = Where("match")
POINTS = Where("points")
FORMAT = Where("format")
FIXTURES = Where("fixtures")

#: ``not_a``'s ``what``: the kind of value a field must hold.
WHAT: dict[str, str] = {
    "object": "an object",
    "string": "a string",
    "list": "a list",
    "names": "a list of names",
    "pair_indices": "a list of two pair indices",
    "counts": "a list of two whole numbers, 0 or more",
    "number": "a whole number",
    "pairs": "a whole number of pairs, or the list of pairs",
}

#: ``draw``'s ``problem``: what is wrong with the order of the draw.
DRAW_PROBLEMS: dict[str, str] = {
    "not_list": "got {got}",
    "not_index": "{got} is not a pair index",
    "twice": "{item} appears {times} times",
    "missing": "{item} is missing",
}

#: The English template of each code; placeholders are the error's params, plus the
#: words :func:`english_params` derives from them.
MESSAGES: dict[str, str] = {
    "not_json": "The league is not valid JSON: {msg} (line {line}, column {column}).",
    "not_object": "{where} must be a JSON object.",
    "unknown_key": "Unknown field '{key}' in {where}.",
    "not_a": "'{field}' in {where} must be {what}, not {got}.",
    "name_missing": "{where} needs a name.",
    "name_long": "The name in {where} is too long: {limit} characters at most.",
    "rules": "The league's rules: {detail}",
    "individual_rules": "The league's rules: a league's matches are between two pairs (or two "
                        "players), not {players} players each for himself.",
    "legs": "'legs' must be 1 (one leg) or 2 (ida y vuelta), not {got}.",
    "too_few_pairs": "A league needs at least 2 pairs, not {count}.",
    "too_many_pairs": "A league has at most {limit} pairs, not {count}.",
    "too_many_matches": "A league has at most {limit} matches ({pairs} pairs, home and "
                        "away), not {count}.",
    "players_count": "Pair {pair} ({name}) has {count} players: at a table of {players} each "
                     "pair has {size}.",
    "player_twice": "{where}: {player} cannot sit twice.",
    "draw": "'draw' must list every pair index from 0 to {last} exactly once; {detail}.",
    "unknown_pair": "{where}: there is no pair {got}; the pairs go from 0 to {last}.",
    "plays_itself": "{where}: pair {pair} ({name}) cannot play itself.",
    "two_results": "{where} has more than one result ({keys}): give juegos, a vaca or a "
                   "forfeit.",
    "tantos_alone": "{where} has tantos but no juegos: tantos go with the juegos entered by "
                    "hand.",
    "juegos_end": "{where}: juegos {got} do not end the match: one pair needs exactly {juegos} "
                  "and the other fewer.",
    "forfeit_pair": "{where}: the pair that did not show up must be one of the match's pairs "
                    "({first} or {second}) or \"both\", not {got}.",
    "vaca_rules": "{where}: the vaca takes the league's rules; leave 'rules' out of it.",
    "vaca_invalid": "{where}: the vaca's hands cannot be replayed: {detail}",
    "vaca_unfinished": "{where}: the vaca is not finished (juegos {a}-{b}; {juegos} win it): "
                       "it is not a result yet.",
    "players_shape": "{where}: 'players' lists who sat for each of the two pairs (a list of "
                     "names, or null for the pair's own), not {got}.",
    "player_both_sides": "{where}: {player} cannot sit for both pairs.",
    "meets_too_often": "Pairs {first} ({first_name}) and {second} ({second_name}) meet {count} "
                       "times, but with {legs} leg(s) they meet at most {legs}.",
    "meets_in_groups": "Pairs {first} ({first_name}) and {second} ({second_name}) meet "
                       "{count} times, but in groups and a knockout they meet at most "
                       "{most} ({legs} in their group, once in the knockout).",
    "format_kind": "'kind' in the format must be \"liguilla\", \"groups\" or \"ceros\", "
                   "not {got}.",
    "format_groups": "'groups' in the format must be 2 or 4, not {got}.",
    "format_knockout": "This is a knockout's document (its format's kind is \"knockout\"): "
                       "its matches are those of a bracket's ties, not a league's, so it "
                       "cannot be read or imported as a league.",
    "round": "{where}: 'round' must be a whole number, 1 or more, not {got}.",
    "number_range": "'{field}' in {where} must be a whole number from {low} to {high}, not "
                    "{got}.",
    "too_deep": "The league nests lists and objects more than {limit} deep.",
    "text_surrogate": "The league holds text that is not valid Unicode (a lone surrogate such "
                      "as \\ud800).",
    "text_control": "The league holds a control character (such as \\u0000) in a text.",
    "name_invisible": "The name in {where} has only invisible characters.",
    "name_bidi": "The name in {where} holds a character that reverses the direction of the "
                 "text.",
}


def english_params(code: str, params: dict[str, Any]) -> dict[str, Any]:
    """The params with the English words their template needs added."""
    values = dict(params)
    if "where" in params:
        values["where"] = str(params["where"])
    if code == "not_a":
        values["what"] = WHAT.get(params["what"], params["what"])
    elif code == "draw":
        values["detail"] = DRAW_PROBLEMS[params["problem"]].format(**params)
    elif code in ("rules", "vaca_invalid"):
        values["detail"] = str(params["inner"])
    return values


class LeagueError(MuscoreError):
    """A league document (or a request about one) breaks the contract of league.md."""

    family = "league"
    MESSAGES = MESSAGES

    def english_params(self) -> dict[str, Any]:
        return english_params(self.code, self.params)


def where_match(number: int) -> Where:
    """How a message names a match: by its place in the document (1-based)."""
    return Where("match", number)


def where_pair(index: int) -> Where:
    """How a message names a pair: by its index."""
    return Where("pair", index)
