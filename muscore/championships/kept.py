"""A championship's public pages and API document, kept in the cache by its stamp.

The stamp is what any change moves: the championship's own ``revision`` (its services
bump it: entries, venues, quotas, phases, draws) and when it was made (a database built
again reuses ids), and, for its venues' heats and for each phase's groups, how many there
are, the sum of their revisions and the newest one's id (a result, a corrected one, a
pair renamed, a knockout's new game: each bumps a competition's revision or makes one).
Two small aggregate queries, whatever the venues, read at most once a second for all
readers (:func:`figures`: 200 visitors polling every 2 s read them 100 times a second) and
dropped wherever a competition's revision moves. A phase's page and hall are stamped by
that phase alone, the championship's page by the phases it draws: on the final's day a
result in one province final leaves the other six halls and the page kept. The hall's
round clock is read apart, on each request (pages.clock).

A body is built from what is read after its stamp, so it is never older than its key:
the first request after a change builds it (the cache is Redis in production, shared by
every worker), the next ones read it, and a client that holds it gets a 304 for
If-None-Match. Only the public view is kept: an organiser's page (its forms) is built
each time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from muscore import bus, conditional
from muscore.championships.models import Championship, Phase, Sede
from muscore.tables.live import RELEASE

#: A kept body lives this long unless a change makes another key first.
BODY_SECONDS = 3600

T = TypeVar("T")


def touch(championship_id: int) -> None:
    """Bump the championship's revision: its kept pages and document are built again, and
    its live screens are drawn again once the change commits."""
    Championship.objects.filter(pk=championship_id).update(revision=F("revision") + 1)
    bus.publish(f"championship:{championship_id}")


#: How long the figures of a championship's venues and phases (two aggregate queries)
#: serve every reader of its pages. 200 visitors polling every 2 s read them 100 times a
#: second, most of each poll's cost (issue 28: p95 1.8 s on 2 cores); a result drops them
#: at its commit (:func:`forget`), a change of the championship's own moves its revision,
#: and any other write shows within this time.
FIGURES_SECONDS = 1


def stamp(championship: Championship, *, phase: int | None = None,
          inline: int | None = None) -> str:
    """What the championship's pages show, as of now, in a few figures: its revision and
    creation time (a database built again reuses ids, never the same instant); unless
    ``phase`` is given, its heats; and each phase's groups (``phase``: that one's only;
    ``inline``: those the championship's page draws, a knockout, a phase of at most
    ``inline`` groups and the last one, whose winner is the champion: a result in a
    province final of 48 groups does not change that page). The venues' and phases'
    figures are read by two queries at most once a :data:`FIGURES_SECONDS` for all
    readers (:func:`figures`)."""
    heats, rows = figures(championship)
    out = [str(championship.created_at.timestamp()), str(championship.revision)]
    if phase is None:
        out.append(heats)
    else:
        rows = [r for r in rows if r["pk"] == phase]
    if inline is not None and rows:
        final = max(rows, key=lambda r: (r["level"], r["pk"]))
        rows = [r for r in rows if r["knockout"] or r["n"] <= inline or r is final]
    out += ["{pk}.{n}.{total}.{last}".format(**r) for r in rows]
    return ":".join(out)


Figures = tuple[str, list[dict[str, Any]]]


def _figures_key(championship_id: int) -> str:
    return f"muscore:championship-figures:{championship_id}"


def figures(championship: Championship) -> Figures:
    """Its venues' heats (how many, the sum of their revisions, the newest) and each
    phase's groups alike, kept for :data:`FIGURES_SECONDS` with the championship's
    creation time and revision they were read for."""
    for_now = (championship.created_at.timestamp(), championship.revision)
    entry = cache.get(_figures_key(championship.pk))
    if isinstance(entry, tuple) and len(entry) == 3 and entry[0] == for_now:
        return entry[1], entry[2]
    heats = Sede.objects.filter(championship_id=championship.pk).aggregate(
        n=Count("id"), heats=Count("heat_id"), total=Sum("heat__revision"),
        last=Max("heat_id"))
    rows = [dict(row) for row in Phase.objects.filter(championship_id=championship.pk)
            .values("pk", "knockout", "level").annotate(
                n=Count("groups"), total=Sum("groups__competition__revision"),
                last=Max("groups__competition_id")).order_by("pk")]
    found = "{n}.{heats}.{total}.{last}".format(**heats)
    cache.set(_figures_key(championship.pk), (for_now, found, rows), FIGURES_SECONDS)
    return found, rows


def forget(championship_id: int) -> None:
    """Drop the championship's kept figures now and again once the change being written
    commits (a reader meanwhile read them from before it): the next reader reads them
    again."""
    cache.delete(_figures_key(championship_id))
    transaction.on_commit(lambda: cache.delete(_figures_key(championship_id)))


def on_revisions_moved(sender: object, competitions: Sequence[int] = (),
                       **kwargs: object) -> None:
    """The receiver of ``muscore.leagues.signals.revisions_moved``: the championships whose
    groups or heats those competitions are forget their figures (one query)."""
    if not competitions:
        return
    from muscore.leagues.models import Competition

    found = set()
    for group_of, heat_of in Competition.objects.filter(pk__in=list(competitions)).values_list(
            "phase_group__phase__championship_id", "sede__championship_id"):
        found |= {pk for pk in (group_of, heat_of) if pk is not None}
    for championship_id in found:
        forget(championship_id)


@dataclass(frozen=True)
class Key:
    """Where a kept body lives (one place per body: the page, its page number, region and
    language), the stamp it must carry to be served, and its ETag."""

    key: str
    digest: str
    etag: str


def key(championship: Championship, what: str, parts: Sequence[object] = (), *,
        phase: int | None = None, inline: int | None = None, language: bool = True) -> Key:
    """The key of ``what`` (a page, the document) with ``parts`` (its page number, region,
    whether entries are open...) in the current language unless ``language`` is False,
    and its digest: the championship's stamp (of ``phase`` alone, or of the phases the
    page draws inline: :func:`stamp`) and this release's templates and code."""
    place = "|".join([what, *map(str, parts), get_language() if language else ""])
    text = "|".join([stamp(championship, phase=phase, inline=inline), place, RELEASE])
    digest = hashlib.sha256(text.encode()).hexdigest()[:20]
    where = hashlib.sha256(place.encode()).hexdigest()[:16]
    return Key(f"muscore:championship:{championship.pk}:{where}", digest,
               f'"c{championship.pk}-{digest}"')


def kept(found: Key, build: Callable[[], T]) -> T:
    """The body kept under ``found`` if it carries ``found``'s stamp, else built and kept
    in its place: each body has one place in the cache, so a day of results leaves no
    trail of stale bodies (a reader still holding an older stamp builds its own answer
    and may put it back; the next reader of the newer one builds again: never stale)."""
    entry = cache.get(found.key)
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == found.digest:
        body: T = entry[1]
        return body
    body = build()
    cache.set(found.key, (found.digest, body), BODY_SECONDS)
    return body


def page_etag(request: HttpRequest, found: Key) -> str:
    """An HTML page's ETag: the body's, and the visitor's CSRF cookie (the page's language
    form carries its token: a new cookie, after a login, needs the page again)."""
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    mark = hashlib.sha256(cookie.encode()).hexdigest()[:8]
    return f'{found.etag[:-1]}-{mark}"'


def not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """A 304 when the client's copy is ``etag`` (muscore.conditional), else None."""
    unchanged = conditional.not_modified(request, etag)
    return None if unchanged is None else mark(unchanged, etag)


def mark(response: HttpResponse, etag: str, *, public: bool = False) -> HttpResponse:
    """The headers of a kept answer, whole or 304: revalidated each time."""
    response["ETag"] = etag
    response["Cache-Control"] = "public, no-cache" if public else "private, no-cache"
    if not public:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


#: A public page's live part is asked for this often; pushed at once where a stream
#: server serves the page (muscore.live).
LIVE_POLL_MS = 15000


def live(request: HttpRequest, found: Key) -> dict[str, str]:
    """What a public page's live part needs: its poll URL (the page's own, with its
    region and page, and ``live=1``) and the ETag its poll answers."""
    query = request.GET.copy()
    query["live"] = "1"
    return {"url": f"{request.path}?{query.urlencode()}", "etag": f'{found.etag[:-1]}-live"',
            "poll_ms": str(LIVE_POLL_MS)}


def live_part(request: HttpRequest, found: Key, body: Callable[[], str]) -> HttpResponse:
    """The answer to a public page's poll (``?live=1``): its kept body in the live part,
    or a 304 while the page's stamp has not moved. The same for every visitor (no form,
    no token), so the streams draw it once for all."""
    part = live(request, found)
    unchanged = not_modified(request, part["etag"])
    if unchanged is not None:
        return unchanged
    html = render_to_string("championships/_live.html",
                            {"live": part, "body": mark_safe(kept(found, body))}, request)
    return mark(HttpResponse(html), part["etag"])
