"""What a club's competition is part of: a championship's venue heat, a phase's group or a
knockout's games are each a competition of a club, but the club's lists (its page, the
organiser's night, the leaders' picker) show the championship once, with its phases and
games on its own pages, not each of them as one of the club's leagues (issue 36).

Which competitions are parts the league knows from its own rows: a stage placed them
(muscore.leagues.models.stage). What they are part of, as the club's lists show it (its
name, page and state in words, which moves with the clock: entries open, a champion), an
app built on the league (the championships) answers, registering it in its
``AppConfig.ready``, since the league never imports it (the import-linter layers). An
answer takes competition ids and says, of those that are its parts, what they are part of.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from muscore.leagues.models import Competition


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

_ANSWERS: dict[str, Answer] = {}


def register(name: str, answer: Answer) -> None:
    """Add (or replace, by ``name``) an answer to "what are these competitions part of?"."""
    _ANSWERS[name] = answer


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
    """The ids of ``ids`` that are part of something larger (see :func:`wholes`), for the
    club's lists that only leave them out: those a stage placed, from the league's own
    rows (muscore.leagues.models.stage)."""
    if not ids:
        return set()
    return set(Competition.objects.filter(pk__in=list(ids), stage__isnull=False)
               .values_list("pk", flat=True))
