"""The bar's screen (/club/<slug>/tv/) and the group-chat card of a round or a night.

The screen is a page for a TV or a laptop: no login, large type, and a live part that
rotates (static/js/tv.js) between the current round's tables, the standings and the
latest results. It polls like the table's board: each answer carries an ETag keyed by
the competition's revision (the cheap one-query tag of muscore.tables.live), and an
unchanged poll is answered 304 before any template is drawn.

The card (muscore.leagues.card) is a PNG drawn on the server and its text, cached by
the same revision; neither carries a private link (no table key, no pair's link).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from muscore import conditional, ratelimits
from muscore.clubs.models import Club
from muscore.leagues import card, confirmations, pages, part_of, prepared
from muscore.leagues.models import Competition
from muscore.tables import live

# How often the screen asks for news: a result shows within two seconds.
POLL_MS = 1500
# The night card of the latest date with a result.
LATEST = "ultima"
# A drawn card is kept this long (its key holds the revision: a new result is a new card).
CARD_CACHE_SECONDS = 3600
# How many standings rows and latest results fit a TV's screen at reading size.
STANDINGS_ROWS = 10
LATEST_RESULTS = 8
TABLES_PER_PANEL = 24


def tv_etag(competition: Competition | None, partial: bool,
            whole: part_of.Whole | None = None) -> str:
    """The screen's tag: which competition, its revision (or the championship shown in
    its place, with its state), the language, the release."""
    which = f"{competition.pk}.{competition.revision}" if competition is not None else "none"
    if whole is not None:
        which += hashlib.sha256(repr(whole).encode()).hexdigest()[:10]
    return f'"tv{which}-{get_language()}-{"p" if partial else "f"}-{live.RELEASE}"'


def _chosen(request: HttpRequest, club: Club) -> Competition | part_of.Whole | None:
    raw = request.GET.get("liga", "")
    if raw and not raw.isdigit():
        raise Http404(_("No hay ninguna competición con ese número."))
    chosen = int(raw) if raw else None
    shown = card.current_shown(club, chosen)
    if chosen is not None and shown is None:
        raise Http404(_("No hay ninguna competición con ese número."))
    return shown


@require_safe
def tv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The bar's screen; with ?live=1 (the poll) only its live part."""
    club = get_object_or_404(Club, slug=slug)
    shown = _chosen(request, club)
    # A club with no competition of its own to show shows its championship, once.
    competition = shown if isinstance(shown, Competition) else None
    whole = shown if isinstance(shown, part_of.Whole) else None
    # A pair's result that waited 24 hours undisputed counts (one query when none).
    if competition is not None and confirmations.accept_due(competition=competition):
        competition.refresh_from_db(fields=["revision", "status"])
    partial = request.GET.get("live") == "1"
    etag = tv_etag(competition, partial, whole)
    unchanged = conditional.not_modified(request, etag)
    if unchanged is not None:
        return live.mark_board(unchanged, etag)
    query = f"?liga={competition.pk}&" if competition is not None else "?"
    context: dict[str, Any] = {
        "club": club,
        "competition": competition,
        "whole": whole,
        "poll_url": reverse("clubs:tv", args=[club.slug]) + query + "live=1",
        "poll_ms": POLL_MS,
        # What the next poll answers while nothing changes: tv.js swaps only another tag.
        "etag": tv_etag(competition, True, whole),
        "club_url": reverse("clubs:club", args=[club.slug]),
    }
    if competition is not None:
        context.update(screen(competition))
    template = "leagues/tv_live.html" if partial else "leagues/tv.html"
    return live.mark_board(render(request, template, context), etag)


def screen(competition: Competition) -> dict[str, Any]:
    """What the screen shows of a competition: its current round table by table, the top
    of its standings (or, for a ceros tournament, the pairs still in) and its latest
    results. Only what counts: a pair's result waiting for the other pair's confirmation
    changes no revision (the screen's tag), so the screen shows it once it counts."""
    number = card.current_round(competition)
    rounds = pages.rounds_of(competition, number) if number is not None else []
    tables = []
    for view in rounds:
        for i, row in enumerate(view.matches, 1):
            m = row["match"]
            tables.append({
                "number": m.table_number or i,
                "first": row["first"],
                "second": row["second"],
                "result": row["result"],
                "done": m.played,
                "playing": not m.played and m.table_id is not None,
                "group": view.round.group.name if view.round.group else "",
            })
    standings = []
    for table in pages.standings_tables(competition):
        limit = STANDINGS_ROWS if not table.title else max(4, STANDINGS_ROWS // 2)
        standings.append({"title": table.title, "rows": table.rows[:limit],
                          "more": max(0, len(table.rows) - limit)})
    latest = [pages.match_row(m) for m in card.latest_results(competition, LATEST_RESULTS)]
    return {
        "round_title": pages.round_title(rounds[0].round) if rounds else "",
        "round_number": number,
        "tables": tables,
        # A TV shows about 24 tables at reading size: a ceros night of 64 pairs turns
        # through pages of them.
        "table_pages": [
            {"name": "tables" if i == 0 else f"tables-{i // TABLES_PER_PANEL + 1}",
             "tables": tables[i:i + TABLES_PER_PANEL],
             "first": tables[i]["number"],
             "last": tables[min(i + TABLES_PER_PANEL, len(tables)) - 1]["number"]}
            for i in range(0, len(tables), TABLES_PER_PANEL)
        ],
        "left": sum(1 for t in tables if not t["done"]),
        "byes": [v.bye for v in rounds if v.bye],
        "standings": standings,
        "ceros": card.ceros_table(competition),
        "latest": latest,
        "card": card_links(competition, number) if number else {},
    }


# --- the card -------------------------------------------------------------------------------------


def _competition(slug: str, competition_id: int) -> Competition:
    competition = get_object_or_404(
        Competition.objects.select_related("club"), pk=competition_id, club__slug=slug
    )
    if confirmations.accept_due(competition=competition):
        competition.refresh_from_db(fields=["revision", "status"])
    return competition


def card_links(competition: Competition, number: int) -> dict[str, str]:
    """The image and text of round `number`'s card, for the share button."""
    return {kind: pages.competition_url(competition, "round_card", number, kind)
            for kind in ("png", "txt")}


def _card_etag(competition: Competition, what: str, revision: int | None = None) -> str:
    # The language too: the card's words follow it.
    stamp = hashlib.sha256(f"{what}:{competition.pk}".encode()).hexdigest()[:8]
    shown = competition.revision if revision is None else revision
    return f'"card{stamp}-{shown}-{get_language()}-{card.CARD_VERSION}-{live.RELEASE}"'


def _cached(request: HttpRequest, etag: str) -> HttpResponse | None:
    unchanged = conditional.not_modified(request, etag)
    return None if unchanged is None else _mark_card(unchanged, etag)


def _mark_card(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Public: nothing private is on a card; revalidated so a new result shows.
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response


CARD_TYPES = {"png": "image/png", "txt": "text/plain; charset=utf-8", "json": "application/json"}


def _card_response(
    request: HttpRequest,
    competition: Competition,
    night: Callable[[], card.Night | None],
    what: str,
    kind: str,
    revision: int | None = None,
) -> HttpResponse:
    """The card `what` as `kind`: drawn once per revision, language and host and kept in
    the cache, 304 to a client that holds it. `revision` is the one the night shows when
    it is an older one (a large competition's night being made again by the worker): the
    answer then says so (`Retry-After`)."""
    if kind not in CARD_TYPES:
        raise Http404(_("La tarjeta se da como .png, .txt o .json."))
    etag = _card_etag(competition, f"{what}.{kind}", revision)
    hit = _cached(request, etag)
    if hit is not None:
        return _mark_revision(hit, competition, revision)
    # The competition's public page: the only link a card carries.
    url = request.build_absolute_uri(pages.competition_url(competition))
    stamp = competition.created_at.timestamp()
    key = f"muscore:card:{stamp}:{etag}:{hashlib.sha256(url.encode()).hexdigest()[:16]}"
    body = cache.get(key)
    if body is None:
        drawn = night()
        if drawn is None:
            raise Http404(_("No hay ninguna jornada con ese número."))
        body = (_draw(drawn, kind, url), drawn.filename)
        cache.set(key, body, CARD_CACHE_SECONDS)
    content, filename = body
    response = HttpResponse(content, content_type=CARD_TYPES[kind])
    response["Content-Disposition"] = f'inline; filename="{filename}.{kind}"'
    return _mark_revision(_mark_card(response, etag), competition, revision)


def _draw(drawn: card.Night, kind: str, url: str) -> bytes | str:
    if kind == "png":
        return card.render_png(drawn)
    if kind == "txt":
        return card.card_text(drawn, url)
    return card.card_json(drawn, url)


def _mark_revision(response: HttpResponse, competition: Competition,
                   revision: int | None) -> HttpResponse:
    shown = competition.revision if revision is None else revision
    return prepared.stale_headers(response, shown, competition.revision)


def _being_made(competition: Competition, kind: str) -> HttpResponse:
    """A large competition's night card not made yet (the worker is on it): a card that
    says so, 202 with Retry-After, kept by no one."""
    if kind not in CARD_TYPES:
        raise Http404(_("La tarjeta se da como .png, .txt o .json."))
    night = card.Night(competition.club.name, competition.title,
                       _("La tarjeta se está preparando: vuelve a pedirla en unos segundos."),
                       "tarjeta")
    response = HttpResponse(_draw(night, kind, ""), content_type=CARD_TYPES[kind], status=202)
    response["Retry-After"] = str(prepared.RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


@require_safe
@ratelimits.limit(ratelimits.EXPORT, api=False, methods=("GET", "HEAD"))
def round_card(
    request: HttpRequest, slug: str, competition_id: int, number: int, kind: str
) -> HttpResponse:
    """A round's card: tarjeta.png (the image), tarjeta.txt (its text), tarjeta.json."""
    competition = _competition(slug, competition_id)
    return _card_response(request, competition, lambda: card.round_night(competition, number),
                          f"round{number}", kind)


@require_safe
@ratelimits.limit(ratelimits.EXPORT, api=False, methods=("GET", "HEAD"))
def night_card(
    request: HttpRequest, slug: str, competition_id: int, day: str, kind: str
) -> HttpResponse:
    """A night's card: the matches of a competition with a result on one date (yyyy-mm-dd),
    or on the latest date with a result ("ultima": the share button's, so a ceros
    tournament's day or last Thursday's liguilla night is one tap)."""
    competition = _competition(slug, competition_id)
    if day == LATEST:
        made = prepared.latest(competition.pk, prepared.night_kind(get_language()))
        fresh = made is not None and made.revision == competition.revision
        if made is not None and (fresh or not prepared.small(competition)):
            # Made by the worker: the current revision's, or on a large competition the
            # latest one made while the worker makes the new one.
            if not fresh:
                prepared.enqueue(competition.pk)
            data, stored = prepared.night_of(made)
            return _card_response(request, competition, lambda: stored,
                                  f"night{data['date']}", kind,
                                  None if fresh else made.revision)
        if not prepared.small(competition):
            prepared.enqueue(competition.pk)
            return _being_made(competition, kind)
        latest = card.latest_night(competition)
        if latest is None:
            raise Http404(_("Aún no hay resultados."))
        date = latest
    else:
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            raise Http404(_("Esa fecha no es válida (aaaa-mm-dd).")) from None
        if not prepared.small_night(competition, date):
            # A night of more matches than a request makes: the latest night's card made
            # by the worker when it is that night, else the card saying it is not ready.
            made = prepared.latest(competition.pk, prepared.night_kind(get_language()))
            if made is None or prepared.night_of(made)[0].get("date") != date.isoformat():
                prepared.enqueue(competition.pk)
                return _being_made(competition, kind)
            stored = prepared.night_of(made)[1]
            fresh = made.revision == competition.revision
            return _card_response(request, competition, lambda: stored,
                                  f"night{date.isoformat()}", kind,
                                  None if fresh else made.revision)
    return _card_response(request, competition, lambda: card.date_night(competition, date),
                          f"night{date.isoformat()}", kind)
