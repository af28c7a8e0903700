"""Shapes of the OpenAPI document (muscore.api.openapi) that say what the tables' services
check beyond a type: a seat's name as muscore.tables.services.checks reads it, and a mano
and a list of names that fit the table's players (issue 28: schemathesis' negative and
positive data checks hold the document to exactly what the API accepts)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from muscore import text as unicode_text
from muscore.handentry.words import NAME_MAX


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


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


RULES_OR_NULL = {"anyOf": [_ref("Rules"), {"type": "null"}]}


def _rules_players(count: int) -> dict[str, Any]:
    """A body whose rules say the table is for `count` players."""
    return {"required": ["rules"], "properties": {"rules": {
        "type": "object", "required": ["players"], "properties": {"players": {"const": count}}}}}


# Rules without "players" (left out, null, or an object without the key): a table of 4.
_NO_RULES_PLAYERS = {"not": {"required": ["rules"], "properties": {"rules": {
    "type": "object", "required": ["players"]}}}}


def _seats(count: int, names: bool = True) -> dict[str, Any]:
    """mano a seat of `count` players; with `names`, that many of them when listed."""
    properties: dict[str, Any] = {"mano": {"maximum": count - 1}}
    if names:
        properties["players"] = {"minItems": count, "maxItems": count}
    return {"properties": properties}


# muscore.rules.scoring.parse_mano: a record's (or a vaca's) mano is a seat of its rules'
# players, 4 unless the rules say 2 or 6.
MANO_OF_THE_RULES = {"anyOf": [
    {"allOf": [_rules_players(2), _seats(2, names=False)]},
    {"allOf": [_rules_players(6), _seats(6, names=False)]},
    {"allOf": [{"not": _rules_players(2)}, {"not": _rules_players(6)}, _seats(4, names=False)]},
]}
# muscore.tables.services.create_table: as many names as the rules' players; without them
# 2 or 6 names make the table of 2 or 6, anything else (no list, 4 names) one of 4.
SEATS_OF_A_NEW_TABLE = [
    {"allOf": [_rules_players(count), _seats(count)]} for count in (2, 4, 6)
] + [
    {"allOf": [_NO_RULES_PLAYERS, {"required": ["players"], "properties": {
        "players": {"type": "array"}}}, _seats(count)]} for count in (2, 6)
] + [
    {"allOf": [_NO_RULES_PLAYERS, {"properties": {"players": {"type": ["array", "null"]}}},
               _seats(4)]},
]


# A hand of a table as the API answers it (muscore.api.openapi's ENTRY).
ENTRY = {"anyOf": [_ref("HandRecordBody"), _ref("PiedrasEntry"), _ref("PereteEntry")]}

NEW_TABLE: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "description": "A new table: as many names as its players (rules.players; without "
                   "it, 2 or 6 names make a table of 2 or 6, else 4), its mano one of "
                   "their seats.",
    "properties": {
        # null is the default, as the key left out (what POST /tables does with it).
        "players": {"type": ["array", "null"], "items": {"anyOf": [NAME, {"type": "null"}]},
                    "description": "Names in speaking order (default A1, B1, A2, B2; a "
                                   "blank or null name is its seat's default)."},
        "rules": RULES_OR_NULL,
        "mano": {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 5},
                           {"const": "random"}, {"type": "null"}]},
    },
    "anyOf": SEATS_OF_A_NEW_TABLE,
}

IMPORTED_TABLE: dict[str, Any] = {
    # What POST /tables/import reads: an export, every key of which may be left out
    # (format and version say what it is, the rest as POST /tables has them, "hands"
    # none), with a table's names and seats as POST /tables checks them.
    "type": "object", "additionalProperties": False,
    "description": "An exported table (Export) to copy: a key left out or null is its "
                   "default, as in POST /tables; mano is a seat (not \"random\").",
    "properties": {
        "format": {"const": "muscore-table"}, "version": {"const": 1},
        "rules": RULES_OR_NULL,
        "mano": {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 5},
                           {"type": "null"}]},
        "players": {"type": ["array", "null"], "items": {"anyOf": [NAME, {"type": "null"}]}},
        "hands": {"type": "array", "items": ENTRY},
    },
    "anyOf": SEATS_OF_A_NEW_TABLE,
}
