"""A hand record carried whole in a URL: /calculadora/?h=<code>, and the links to it.

Below both apps that use it: the calculator (muscore.disputes) reads the code, a table's
history (muscore.tables) links each hand to the calculator. Neither app imports the other
for it, so the apps' imports stay one-way (.importlinter's layers and no-cycles contracts).

The code is the record's compact JSON, deflated and written in base64url without
padding, so a permalink needs no database and opens the same answer on any phone.
Decoding is defensive: the code comes from anyone's address bar.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from muscore.errors import MuscoreError
from muscore.rules import Rules
from muscore.text import json_problem

#: A hand record is a few hundred bytes; anything far larger is not one.
MAX_CODE = 4000
MAX_JSON = 20_000


class PermalinkError(MuscoreError):
    """The code in a permalink cannot be read back into a hand record."""

    family = "permalink"
    MESSAGES = {
        "length": "The link's code is empty or longer than {limit} characters.",
        "size": "The link's code opens to more than {limit} bytes: it is not a hand.",
        "damaged": "The link's code is damaged: it holds no hand that can be read.",
        "not_record": "The link's code holds JSON, but not a hand record.",
    }


def encode(record: dict[str, Any]) -> str:
    """The URL-safe code of a record (JSON -> deflate -> base64url, no padding)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(text.encode(), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode(code: str) -> dict[str, Any]:
    """The record a code carries; PermalinkError when it is damaged or not a record."""
    code = code.strip()
    if not code or len(code) > MAX_CODE:
        raise PermalinkError("length", limit=MAX_CODE)
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        # Bounded inflate: a small code must not expand into megabytes (a zip bomb).
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON)
        if inflater.unconsumed_tail or not inflater.eof:
            raise PermalinkError("size", limit=MAX_JSON)
        record = json.loads(raw.decode())
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError, RecursionError) as exc:
        if isinstance(exc, PermalinkError):
            raise
        raise PermalinkError("damaged") from None
    if not isinstance(record, dict):
        raise PermalinkError("not_record")
    if json_problem(record):
        # A lone surrogate or a control character: no page can show it back.
        raise PermalinkError("damaged")
    return record


# --- links into the calculator from a table's history ---------------------------------------
# The stored record lacks what the table knows (rules, mano, score before the hand); the
# replayed state has it, so the link carries the hand exactly as it was scored on the board.
def permalink_url(record: Mapping[str, Any], names: list[str] | None = None) -> str:
    """/calculadora/?h=<code>[&n=Ana,Bruno,...]#result: the whole hand in the address."""
    query = {"h": encode(dict(record))}
    if names:
        query["n"] = ",".join(name.replace(",", " ") for name in names)
    # Opened at the recuento, not at the top of the form 3,000 px above it.
    return f"{reverse('disputes:calculator')}?{urlencode(query)}#result"


def score_after(hand: Mapping[str, Any]) -> dict[str, int]:
    """The score the next hand starts from: 0-0 after a hand that won the juego."""
    score = dict(hand["score"])
    return dict.fromkeys(score, 0) if hand.get("winner") else score


def next_context(vaca: Mapping[str, Any]) -> tuple[int, dict[str, int]]:
    """The mano and the score before the hand that would follow `vaca`'s hands."""
    hands = vaca["hands"]
    return int(vaca["next_mano"]), score_after(hands[-1]) if hands else _zero(vaca)


def _zero(vaca: Mapping[str, Any]) -> dict[str, int]:
    """Every side of the vaca at 0 (A and B, or one a player in individual play)."""
    return dict.fromkeys(vaca.get("juegos") or ("A", "B"), 0)


def hand_contexts(state: Mapping[str, Any]) -> dict[int, tuple[int, dict[str, int]]]:
    """{table-wide hand number: (its mano, the score before it)} for every stored hand of
    the table state, and for the next hand to be entered (the highest number).

    The one place the pages read "the score before hand n" from the replayed state:
    the history's calculator links, the hand being corrected, the audit in words.
    """
    out: dict[int, tuple[int, dict[str, int]]] = {}
    last = 0
    for vaca in [*state["finished"], state["current"]]:
        before = _zero(vaca)
        for i, hand in enumerate(vaca["hands"]):
            number = int(vaca["first_hand"]) + i
            out[number] = (int(hand["mano"]), dict(before))
            before = score_after(hand)
            last = max(last, number)
    out[last + 1] = next_context(state["current"])
    return out


def table_hand_records(
    state: Mapping[str, Any], records: Mapping[int, Mapping[str, Any]]
) -> dict[int, dict[str, Any]]:
    """{hand number: full record (rules, mano, score before + the stored record)}.

    `state` is the table state (muscore.tables.services.table_state); `records`
    the stored records by table-wide hand number.
    """
    out: dict[int, dict[str, Any]] = {}
    for number, (mano, score) in hand_contexts(state).items():
        stored = records.get(number)
        if stored is not None:
            out[number] = {**stored, "rules": dict(state["rules"]), "mano": mano, "score": score}
    return out


def table_hand_links(table: Any, state: Mapping[str, Any]) -> dict[int, str]:
    """{hand number: calculator permalink} for every hand of a table; none in individual
    play of 3 or more (the calculator recounts two sides: it says so, and links none)."""
    if Rules.from_json(state["rules"]).sides > 2:
        return {}
    records = dict(table.hands.values_list("number", "record"))
    names = list(state["players"])
    return {
        number: permalink_url(record, names)
        for number, record in table_hand_records(state, records).items()
    }
