"""Which topics a live screen listens to, what a write publishes, and the revisions a
stream server checks when it hears nothing.

A topic names one stored thing whose change redraws screens: ``table:<id>`` (a table's
revision), ``competition:<id>`` (a competition's revision: the club's TV),
``championship:<id>`` (a championship's stamp: its halls and pages), ``club:<slug>`` (the
organiser's night: its competitions and their tables in play). A screen is the page its
poll URL shows, normalised (:func:`screen`: the path as the URL conf writes it, the query
its view reads, nothing else); :func:`for_url` says which topics it listens to, or None
for a URL that has no stream (anything but the live screens).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from django.db.models import Count, Sum
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from muscore import addresses, bus
from muscore.championships import kept
from muscore.championships.models import Championship
from muscore.leagues.models import Competition, Match
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
    "clubs:night": "club",
}
#: Screens drawn for the person watching (the organiser's night): drawn with the phone's
#: session, once per session, not once for everybody.
PERSONAL = {"clubs:night"}


#: The query a screen's drawing reads, by its URL name, beside ``live=1``: anything else
#: in a stream's ``u`` is dropped, so that one page is one screen, drawn once for all its
#: phones (it was the raw query: 500 made-up ``&x=N`` made a save cost 500 drawings).
QUERY = {
    "tables:board": ("otra-vaca",),
    "tables:edit_board": ("otra-vaca",),
    "clubs:tv": ("liga",),
    "championships:detail": ("region", "pagina"),
}


class Found(NamedTuple):
    """A live screen: its poll URL as drawn (normalised), its topics, and whether it is
    drawn for the person watching."""

    url: str
    topics: tuple[str, ...]
    personal: bool


def screen(url: str) -> Found | None:
    """The live screen polled at ``url`` (a path with its query), or None when ``url`` is
    not a live screen's: the page it shows, whatever else ``url`` carries (its path as
    the URL conf writes it, the query its view reads, ``live=1``)."""
    name = view_name(url)
    if name is None:
        return None
    parts = urlsplit(url)
    match = resolve(unquote(parts.path))  # as it is drawn (muscore.live.render)
    given = parse_qs(parts.query)
    query: dict[str, str] = {}
    for key in QUERY.get(name, ()):
        value = (given.get(key) or [""])[0][:12]
        if key == "otra-vaca":
            if value == "1":
                query[key] = "1"
        elif value.isdigit():
            query[key] = str(int(value))  # "007" is page 7, as the view reads it
    query["live"] = "1"
    # At the language's address it was polled at (/en/...: muscore.addresses), or none.
    with translation.override(addresses.language_of(parts.path)):
        path = reverse(name, kwargs=match.kwargs)
    found = _topics(STREAMED[name], match.kwargs, {k: [v] for k, v in query.items()})
    return Found(f"{path}?{urlencode(query)}", found, name in PERSONAL)


def for_url(url: str) -> tuple[str, ...] | None:
    """The topics of the screen polled at ``url`` (a path with its query), or None when
    ``url`` is not a live screen's."""
    found = screen(url)
    return None if found is None else found.topics


def view_name(url: str) -> str | None:
    """The URL name of the live screen polled at ``url``, or None."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    try:
        match = resolve(unquote(parts.path))
    except Resolver404:
        return None
    return match.view_name if match.view_name in STREAMED else None


def is_personal(url: str) -> bool:
    return view_name(url) in PERSONAL


def _topics(kind: str, kwargs: dict[str, object], query: dict[str, list[str]]) -> tuple[str, ...]:
    if kind == "table":
        return (f"table:{kwargs['table_id']}",)
    if kind == "competition":
        # The TV's poll names its competition (?liga=); a club with none has nothing live.
        liga = (query.get("liga") or [""])[0]
        return (f"competition:{liga}",) if liga.isdigit() else ()
    if kind == "club":
        return (f"club:{kwargs['slug']}",)
    return (f"championship:{kwargs['pk']}",)


# ------------------------------------------------------------------ what writes publish


def on_table_changed(sender: object, table: Table, **kwargs: object) -> None:
    """A table's write (inside its transaction): its screens hear it after the commit, and
    a league match's table is also its club's night (tables in play)."""
    club = (Match.objects.filter(table_id=table.pk)
            .values_list("competition__club__slug", flat=True).first())
    bus.publish(f"table:{table.pk}", *([f"club:{club}"] if club else []))


def on_result_changed(sender: object, competition: Competition, **kwargs: object) -> None:
    """A league result (inside its write): its club's night, and a championship's game or
    heat is also its championship's (the competition's own topic goes out with its
    revision's bump)."""
    row = (Competition.objects.filter(pk=competition.pk)
           .values_list("club__slug", "phase_group__phase__championship_id",
                        "sede__championship_id")
           .first())
    if row is not None:
        club, *championships = row
        bus.publish_many([f"club:{club}"]
                         + [f"championship:{pk}" for pk in championships if pk is not None])


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
    if ids.get("club"):
        clubs = (Competition.objects.filter(club__slug__in=ids["club"])
                 .values("club__slug").annotate(total=Sum("revision"), n=Count("id")))
        found.update({f"club:{c['club__slug']}": f"{c['n']}.{c['total']}" for c in clubs})
    return found
