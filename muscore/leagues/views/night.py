"""The organiser's night page and its acts (muscore.leagues.night): thin views."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from muscore import conditional
from muscore.clubs.models import Club
from muscore.clubs.permissions import require_organiser
from muscore.clubs.views import club_context
from muscore.leagues import confirmations, night, pages
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Competition
from muscore.messages import page_message
from muscore.tables import live

# The night's counts are asked for this often; where a stream server serves the page they
# come by push as they change (muscore.live), and this is the fallback.
POLL_MS = 5000


@require_safe
def night_page(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Everything the organiser watches on a club night, with counts (organisers only);
    with ?live=1 (its poll, or its stream's drawing) only its live part, 304 unchanged."""
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    return _render(request, club, partial=request.GET.get("live") == "1")


def _etag(rows: list[night.CompetitionNight], wholes: list[night.WholeNight]) -> str:
    """The live part's tag: every figure it shows, its language, the release."""
    figures: list[object] = [
        (r.competition.pk, r.competition.revision, r.competition.status,
         r.competition.on_tv, r.competition.title, r.in_play, r.waiting, r.disputed,
         r.to_mark, r.left, r.round) for r in rows]
    figures += [(w.whole, [r.competition.pk for r in w.parts]) for w in wholes]
    digest = hashlib.sha256(repr(figures).encode()).hexdigest()[:16]
    return f'"n{digest}-{get_language()}-{live.RELEASE}"'


def _render(request: HttpRequest, club: Club, error: str = "", status: int = 200,
            partial: bool = False) -> HttpResponseBase:
    # Claims due first: one a table's result contradicts shows as a dispute tonight
    # (one query when none is due, also on the live part's poll).
    confirmations.accept_due(club=club)
    rows = night.night(club)
    own, wholes = night.grouped(rows)
    etag = _etag(rows, wholes)
    unchanged = conditional.not_modified(request, etag) if partial else None
    if unchanged is not None:
        return live.mark_board(unchanged, etag)
    totals = {key: sum(getattr(row, key) for row in rows)
              for key in ("in_play", "waiting", "disputed", "to_mark")}
    context = {
        **club_context(request, club),
        "rows": [_row(row) for row in own],
        # A championship once, its parts with something tonight under it.
        "wholes": [{"night": whole, "parts": [_row(row) for row in whole.tonight]}
                   for whole in wholes],
        # ...and so not again in the list of the club's championships below.
        "shown_wholes": [whole.whole.key for whole in wholes],
        "totals": totals,
        "table_fixes": pages.table_fixes(club.pk),
        "archived": Competition.objects.filter(club=club, archived=True).order_by("-created_at"),
        "error": error,
        "etag": etag,
        "poll_url": reverse("clubs:night", args=[club.slug]) + "?live=1",
        "poll_ms": POLL_MS,
    }
    template = "leagues/night.html#night_live" if partial else "leagues/night.html"
    response = render(request, template, context, status=status)
    return live.mark_board(response, etag) if partial else response


def _row(row: night.CompetitionNight) -> dict[str, object]:
    return {"night": row, "url": pages.competition_url(row.competition),
            "status": pages.status(row.competition)}


def _act(request: HttpRequest, slug: str, competition_id: int) -> Competition:
    competition = get_object_or_404(Competition.objects.select_related("club"),
                                    pk=competition_id, club__slug=slug)
    require_organiser(request.user, competition.club)
    return competition


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("clubs:night", args=[slug]))


@require_POST
def on_tv(request: HttpRequest, slug: str, competition_id: int) -> HttpResponseBase:
    competition = _act(request, slug, competition_id)
    on = request.POST.get("on") == "1"
    try:
        night.set_on_tv(competition, on, by=request.user)
    except CompetitionError as error:
        return _render(request, competition.club, page_message(error), status=409)
    return _back(slug)


@require_POST
def archive(request: HttpRequest, slug: str, competition_id: int) -> HttpResponseBase:
    competition = _act(request, slug, competition_id)
    archived = request.POST.get("archived", "1") == "1"
    night.set_archived(competition, archived, by=request.user)
    messages.success(request, (_("%(name)s archivada.") if archived else
                               _("%(name)s vuelve a las listas.")) % {"name": competition.title})
    return _back(slug)


@require_POST
def delete(request: HttpRequest, slug: str, competition_id: int) -> HttpResponseBase:
    competition = _act(request, slug, competition_id)
    name = competition.title
    try:
        night.delete_competition(competition, by=request.user)
    except CompetitionError as error:
        return _render(request, competition.club, page_message(error), status=409)
    messages.success(request, _("%(name)s borrada.") % {"name": name})
    return _back(slug)
