"""The first check of any league document, before muscore.leagues.compute.document reads
it: no deeper than MAX_DEPTH, every string (keys too) text both databases can store. A
module of its own because it knows nothing of leagues: it walks whatever JSON it is
given, fast enough for an import's 160,000 strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import chain

from muscore import text as unicode_text
from muscore.leagues.compute.errors import LeagueError

# JSON nested deeper than this is no league (a vaca's hand is about 8 levels down).
MAX_DEPTH = unicode_text.MAX_DEPTH

_SCALARS = frozenset({int, float, bool, type(None)})


def check_json(data: object) -> None:
    """What any document must be before it is read: no deeper than MAX_DEPTH, and every
    string (keys too) text both databases can store (no lone surrogate, no NUL...).

    The depth is refused first wherever it is; otherwise the first string with a problem
    (in document order) names it. The walk recurses, but never past MAX_DEPTH, so a
    document deeper than Python's stack is refused without reaching it; the strings are
    searched at the end, all at once (an import's 160,000 strings one by one were a
    third of its request)."""
    strings: list[str] = []
    _walk(data, 0, strings)
    found = _first_problem(strings)
    if found == unicode_text.SURROGATE:
        raise LeagueError("text_surrogate")
    if found:
        raise LeagueError("text_control")


def _walk(item: object, depth: int, strings: list[str]) -> None:
    """check_json's walk: each string of `item` onto `strings`, in document order (a
    mapping's key before its value); LeagueError past MAX_DEPTH."""
    kind = type(item)
    if kind in _SCALARS:  # most of a document: its numbers (exact types: cheap)
        return
    if isinstance(item, str):
        strings.append(item)
        return
    children: Iterable[object]
    if kind is dict or isinstance(item, Mapping):
        children = chain.from_iterable(item.items())  # type: ignore[attr-defined]
    elif isinstance(item, list | tuple):
        children = item
    else:
        return
    if depth >= MAX_DEPTH:
        raise LeagueError("too_deep", limit=MAX_DEPTH)
    for child in children:
        child_kind = type(child)
        if child_kind in _SCALARS:
            continue
        if child_kind is str:
            strings.append(child)  # type: ignore[arg-type]
        else:
            _walk(child, depth + 1, strings)


def _first_problem(strings: list[str]) -> str | None:
    """unicode_text.problem of the first of `strings` that has one: one search of them
    all joined (a character class matches within one string, whatever its neighbours)."""
    joined = "".join(strings)
    found = _ANY_PROBLEM.search(joined)
    if found is None:
        return None
    at, start = found.start(), 0
    for text in strings:  # only on the way to a refusal: which string it is in
        if at < start + len(text):
            return unicode_text.problem(text)
        start += len(text)
    return None  # unreachable: the match is inside one of them


# Either of muscore.text.problem's patterns: a lone surrogate or a control character.
_ANY_PROBLEM = re.compile("[\ud800-\udfff\x00-\x1f\x7f-\x9f]")
