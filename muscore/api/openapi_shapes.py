"""What the API's contract (muscore.api.contract) says beyond a type, as JSON Schema: a
seat's name as muscore.tables.services.checks reads it, a mano and a list of names that
fit the table's players, a hand with a seat (issue 28: schemathesis' negative and positive
data checks hold the document to exactly what the API accepts). Conditions across keys,
which no type annotation says: the contract's types carry them into the document."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from muscore import text as unicode_text
from muscore.handentry.words import NAME_MAX


# Written as the regular expression's escape \uXXXX rather than as themselves: control
# characters (U+007F-U+009F are legal raw in JSON, not in YAML, and YAML-based validators
# read openapi.json as YAML: issue 36.5) and what YAML reads as a line break (U+0085,
# U+2028, U+2029) or drops (U+FEFF). Every one is in the Basic Multilingual Plane, where
# Python's re, the Rust regex of jsonschema-rs and ECMAScript all read \uXXXX alike.
def _escaped(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char == "\ufeff"


def _spelled(code: int) -> str:
    """One character of a pattern's class, as itself or as its \\uXXXX escape."""
    char = chr(code)
    return f"\\u{code:04x}" if _escaped(char) else char


def _char_class(keep: Callable[[str], bool]) -> str:
    """The characters `keep` says, as a regular expression's class of ranges, written as
    the characters themselves past U+FFFF (Python's re, the Rust regex of jsonschema-rs
    and JSON all read them alike; no escape spelling is common to the three there), and
    those _escaped says as \\uXXXX."""
    ranges: list[tuple[int, int]] = []
    # Planes 0, 1 and 14: the others (ideographs, private use) hold no space, format or
    # control character, and reading all 1.1 million would slow every start by half a second.
    for code in [*range(0x20000), *range(0xE0000, 0xE1000)]:
        if 0xD800 <= code <= 0xDFFF or not keep(chr(code)):
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(_spelled(a) if a == b else f"{_spelled(a)}-{_spelled(b)}"
                   for a, b in ranges)


def _invisible(char: str) -> bool:
    return (char in unicode_text.BLANK_LETTERS
            or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp", "Cc"))


# A seat's name as muscore.tables.services.checks reads it: no control character (the API
# refuses one anywhere in a body: muscore.text) nor direction control, at most NAME_MAX
# characters, and blank (its seat's default) or with something that shows.
_REFUSED = "\\u0000-\\u001f\\u007f-\\u009f" + "".join(sorted(unicode_text.BIDI_CONTROLS))
NAME = {"type": "string", "maxLength": NAME_MAX, "pattern": f"^[^{_REFUSED}]*$",
        "anyOf": [{"pattern": f"^[{_char_class(str.isspace)}]*$"},
                  {"pattern": f"[^{_char_class(_invisible)}]"}]}


def _rules_players(count: int) -> dict[str, object]:
    """A body whose rules say the table is for `count` players."""
    return {"required": ["rules"], "properties": {"rules": {
        "type": "object", "required": ["players"], "properties": {"players": {"const": count}}}}}


# Rules without "players" (left out, null, or an object without the key): a table of 4.
_NO_RULES_PLAYERS = {"not": {"required": ["rules"], "properties": {"rules": {
    "type": "object", "required": ["players"]}}}}


def _seats(count: int, names: bool = True) -> dict[str, object]:
    """mano a seat of `count` players; with `names`, that many of them when listed."""
    properties: dict[str, object] = {"mano": {"maximum": count - 1}}
    if names:
        properties["players"] = {"minItems": count, "maxItems": count}
    return {"properties": properties}


# muscore.rules.scoring.parse_mano: a record's (or a vaca's) mano is a seat of its rules'
# players, 4 unless the rules say 2, 3, 5 or 6.
MANO_OF_THE_RULES = {"anyOf": [
    *({"allOf": [_rules_players(count), _seats(count, names=False)]} for count in (2, 3, 5, 6)),
    {"allOf": [*({"not": _rules_players(count)} for count in (2, 3, 5, 6)),
               _seats(4, names=False)]},
]}
# muscore.tables.services.create_table: as many names as the rules' players; without them
# 2, 3, 5 or 6 names make the table of that many, anything else (no list, 4 names) one of 4.
SEATS_OF_A_NEW_TABLE = [
    {"allOf": [_rules_players(count), _seats(count)]} for count in (2, 3, 4, 5, 6)
] + [
    {"allOf": [_NO_RULES_PLAYERS, {"required": ["players"], "properties": {
        "players": {"type": "array"}}}, _seats(count)]} for count in (2, 3, 5, 6)
] + [
    {"allOf": [_NO_RULES_PLAYERS, {"properties": {"players": {"type": ["array", "null"]}}},
               _seats(4)]},
]


# A hand needs a seat with its cards or with what it had: {} (or "hands": {}) is refused
# by the engine with a 400, and the document says so (issue 40.10).
SOME_SEAT = {"anyOf": [{"required": ["hands"], "properties": {"hands": {"minProperties": 1}}},
                       {"required": ["jugadas"], "properties": {"jugadas": {"minProperties": 1}}}]}
