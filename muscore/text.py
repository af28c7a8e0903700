"""What text muscore accepts: what both databases can store and every page can show.

Text reaches muscore as JSON (the API, an import, a permalink), where an escape such
as "\\ud800" gives a lone surrogate that no UTF-8 page or PostgreSQL column can hold,
and "\\u0000" a NUL that PostgreSQL's json refuses. Forms and URLs are decoded by
Django with replacement characters, so they never carry a surrogate, but may carry
control characters. Each entry point checks its text here and answers a clear 400.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

# Characters that draw nothing: format characters (zero-width space and joiners, the
# bidirectional marks), every kind of space, and letters that render blank.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Bidirectional embeddings, overrides and isolates: inside a name they reverse how the
# rest of a line of the board reads.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# JSON nested deeper than this is not a hand record or an exported table.
MAX_DEPTH = 50

SURROGATE = "surrogate"
CONTROL = "control"


def problem(text: str) -> str | None:
    """None when `text` can be stored and shown; SURROGATE or CONTROL otherwise.

    A lone surrogate (U+D800..U+DFFF) is not Unicode text; a control character
    (category Cc: NUL, tab, newline, escape, DEL, C1...) has no place in a name,
    a card or a key.
    """
    # Searched by compiled patterns (C), not character by character: a league import
    # checks 160,000 strings in its request.
    if _SURROGATE.search(text):
        return SURROGATE
    if _CONTROL.search(text):
        return CONTROL
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")
# Unicode's category Cc is exactly these 65 code points (C0, DEL and C1).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def is_invisible(text: str) -> bool:
    """True when nothing of `text` would show: only spaces, zero-width and format
    characters (a right-to-left override...) or letters that draw blank."""
    return all(
        ch in BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp", "Cc")
        for ch in text
    )


def has_bidi_control(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


def json_problem(value: Any, depth: int = 0) -> str | None:
    """The first problem() of any string (keys too) inside parsed JSON, or None."""
    if isinstance(value, str):
        return problem(value)
    if depth > MAX_DEPTH:
        return None  # the reader of this JSON refuses the depth itself
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = (problem(key) if isinstance(key, str) else None) or json_problem(
                item, depth + 1
            )
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = json_problem(item, depth + 1)
            if found:
                return found
    return None


# --- sorting names as Spanish does ---------------------------------------------------------------

# Ñ is a letter of its own in Spanish, after N (Inza, Iñaki, Io): the Unicode Collation
# Algorithm (pyuca, DUCET) reads it as an N with an accent, so it is written as an N
# followed by a code point that sorts after every letter.
_ENYE = str.maketrans({"ñ": "n\U000effff", "Ñ": "N\U000effff"})


@functools.lru_cache(maxsize=1)
def _collator() -> Any:
    import pyuca  # type: ignore[import-untyped]  # (no stubs) loads its table on the first sort

    return pyuca.Collator()


def spanish_key(name: str) -> tuple[int, ...]:
    """The sort key of `name` as Spanish orders names: accents and case do not move a name
    (Álvaro beside Alberto, Órdago among the O), ñ after n; the same on SQLite and
    PostgreSQL, since it sorts in Python."""
    key: tuple[int, ...] = _collator().sort_key(name.translate(_ENYE))
    return key


def sorted_by_name(items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:
    """`items` in Spanish order of `name(item)` (its str by default)."""
    return sorted(items, key=lambda item: spanish_key(name(item)))
