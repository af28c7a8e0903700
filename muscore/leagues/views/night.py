"""The organiser's night page and its acts (muscore.leagues.night): thin views."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from muscore.clubs.models import Club
from muscore.clubs.permissions import require_organiser
from muscore.clubs.views import club_context
from muscore.leagues import night, pages
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Competition
from muscore.messages import page_message


@require_safe
def night_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Everything the organiser watches on a club night, with counts (organisers only)."""
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    return _render(request, club)


def _render(request: HttpRequest, club: Club, error: str = "", status: int = 200) -> HttpResponse:
    rows = night.night(club)
    totals = {key: sum(getattr(row, key) for row in rows)
              for key in ("in_play", "waiting", "disputed", "to_mark")}
    context = {
        **club_context(request, club),
        "rows": [{"night": row, "url": pages.competition_url(row.competition),
                  "status": pages.status(row.competition)} for row in rows],
        "totals": totals,
        "table_fixes": pages.table_fixes(club.pk),
        "archived": Competition.objects.filter(club=club, archived=True).order_by("-created_at"),
        "error": error,
    }
    return render(request, "leagues/night.html", context, status=status)


def _act(request: HttpRequest, slug: str, competition_id: int) -> Competition:
    competition = get_object_or_404(Competition.objects.select_related("club"),
                                    pk=competition_id, club__slug=slug)
    require_organiser(request.user, competition.club)
    return competition


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("clubs:night", args=[slug]))


@require_POST
def on_tv(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    competition = _act(request, slug, competition_id)
    on = request.POST.get("on") == "1"
    try:
        night.set_on_tv(competition, on, by=request.user)
    except CompetitionError as error:
        return _render(request, competition.club, page_message(error), status=409)
    return _back(slug)


@require_POST
def archive(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    competition = _act(request, slug, competition_id)
    archived = request.POST.get("archived", "1") == "1"
    night.set_archived(competition, archived, by=request.user)
    messages.success(request, (_("%(name)s archivada.") if archived else
                               _("%(name)s vuelve a las listas.")) % {"name": competition.name})
    return _back(slug)


@require_POST
def delete(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    competition = _act(request, slug, competition_id)
    name = competition.name
    try:
        night.delete_competition(competition, by=request.user)
    except CompetitionError as error:
        return _render(request, competition.club, page_message(error), status=409)
    messages.success(request, _("%(name)s borrada.") % {"name": name})
    return _back(slug)
