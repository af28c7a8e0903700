"""Which topics a live screen listens to, what a write publishes, and the revisions a
stream server checks when it hears nothing.

A topic names one stored thing whose change redraws screens: ``table:<id>`` (a table's
revision), ``competition:<id>`` (a competition's revision: the club's TV),
``championship:<id>`` (a championship's stamp: its halls and pages). A screen is its poll
URL; :func:`for_url` says which topics it listens to, or None for a URL that has no
stream (anything but the live screens).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.urls import Resolver404, resolve

from muscore import bus
from muscore.championships import kept
from muscore.championships.models import Championship
from muscore.leagues.models import Competition
from muscore.tables.models import Table

#: The screens with a stream: URL name -> the topics of its keyword arguments and query.
#: Each is a page whose poll answers its live part (an htmx partial) with an ETag.
STREAMED = {
    "tables:board": "table",
    "tables:edit_board": "table",
    "clubs:tv": "competition",
    "championships:detail": "championship",
    "championships:phase": "championship",
    "championships:tv": "championship",
}


def for_url(url: str) -> tuple[str, ...] | None:
    """The topics of the screen polled at ``url`` (a path with its query), or None when
    ``url`` is not a live screen's."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    kind = STREAMED.get(match.view_name)
    if kind is None:
        return None
    return _topics(kind, match.kwargs, parse_qs(parts.query))


def _topics(kind: str, kwargs: dict[str, Any], query: dict[str, list[str]]) -> tuple[str, ...]:
    if kind == "table":
        return (f"table:{kwargs['table_id']}",)
    if kind == "competition":
        # The TV's poll names its competition (?liga=); a club with none has nothing live.
        liga = (query.get("liga") or [""])[0]
        return (f"competition:{liga}",) if liga.isdigit() else ()
    return (f"championship:{kwargs['pk']}",)


# ------------------------------------------------------------------ what writes publish


def on_table_changed(sender: Any, table: Table, **kwargs: Any) -> None:
    """A table's write (inside its transaction): its screens hear it after the commit."""
    bus.publish(f"table:{table.pk}")


def on_result_changed(sender: Any, competition: Competition, **kwargs: Any) -> None:
    """A league result (inside its write): a championship's game or heat is also its
    championship's (the competition's own topic goes out with its revision's bump)."""
    row = (Competition.objects.filter(pk=competition.pk)
           .values_list("phase_group__phase__championship_id", "sede__championship_id")
           .first())
    if row is not None:
        bus.publish_many(f"championship:{pk}" for pk in row if pk is not None)


# ------------------------------------------------------------- the revisions, checked


def tokens(topics: Iterable[str]) -> dict[str, str]:
    """What each topic's screens depend on, now: a topic whose token moved has changed
    (a write whose publish did not arrive, or a site without Redis). One query per kind,
    and two per championship."""
    ids: dict[str, list[str]] = {}
    for topic in topics:
        kind, _, key = topic.partition(":")
        ids.setdefault(kind, []).append(key)
    found: dict[str, str] = {}
    if ids.get("table"):
        rows = Table.objects.filter(pk__in=ids["table"]).values_list("pk", "revision")
        found.update({f"table:{pk}": str(rev) for pk, rev in rows})
    numbers = [int(k) for k in ids.get("competition", []) if k.isdigit()]
    if numbers:
        rows2 = Competition.objects.filter(pk__in=numbers).values_list("pk", "revision")
        found.update({f"competition:{pk}": str(rev) for pk, rev in rows2})
    numbers = [int(k) for k in ids.get("championship", []) if k.isdigit()]
    for championship in Championship.objects.filter(pk__in=numbers):
        found[f"championship:{championship.pk}"] = kept.stamp(championship)
    return found
