"""What a club's competition is part of: a championship's venue heat, a phase's group or a
knockout's games are each a competition of a club, but the club's lists (its page, the
organiser's night, the leaders' picker) show the championship once, with its phases and
games on its own pages, not each of them as one of the club's leagues (issue 36).

An app built on the league (the championships) registers its answer here in its
``AppConfig.ready``, since the league never imports it (the import-linter layers). An
answer takes competition ids and says, of those that are its parts, what they are part of.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class Whole:
    """What competitions are part of, as a club's lists show it once: ``key`` tells one
    from another across apps, ``name`` and ``url`` its own page, ``note`` its state in
    words (in the active language)."""

    key: str
    name: str
    url: str
    note: str = ""


Answer = Callable[[Collection[int]], dict[int, Whole]]
#: Of competition ids, those that are parts (membership alone: no names, links or states).
Members = Callable[[Collection[int]], Collection[int]]

_ANSWERS: dict[str, Answer] = {}
_MEMBERS: dict[str, Members] = {}


def register(name: str, answer: Answer, members: Members) -> None:
    """Add (or replace, by ``name``) an answer to "what are these competitions part of?"
    and its cheaper "which of them are parts?"."""
    _ANSWERS[name] = answer
    _MEMBERS[name] = members


def wholes(ids: Collection[int]) -> dict[int, Whole]:
    """Of the competitions ``ids``, those that are part of something larger, and of what
    (a club's own leagues are not in it)."""
    if not ids:
        return {}
    found: dict[int, Whole] = {}
    for answer in _ANSWERS.values():
        found.update(answer(ids))
    return found


def parts(ids: Collection[int]) -> set[int]:
    """The ids of ``ids`` that are part of something larger (see :func:`wholes`), asked
    without building what they are part of: a club's lists that only leave them out."""
    found: set[int] = set()
    if ids:
        for members in _MEMBERS.values():
            found.update(members(ids))
    return found
