"""The pages of a tournament "a N ceros": its table (pairs still in, their ceros, who went
out when), the round being played, and for an organiser the next round's draw to check,
draw again and publish. Thin views over muscore.leagues.ceros_rounds; the rounds
themselves are printed and played on the league's own round and match pages."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from muscore.clubs.permissions import require_organiser
from muscore.leagues import ceros_rounds, changes, pages
from muscore.leagues.models import CerosEvent, Competition
from muscore.leagues.views.base import base_context, competition_or_404, export_links
from muscore.messages import page_message


def _ceros(slug: str, competition_id: int) -> Competition:
    competition = competition_or_404(slug, competition_id)
    if competition.format != Competition.Format.CEROS:
        raise Http404(_("Esta competición no es un torneo a ceros."))
    return competition


def _page(request: HttpRequest, competition: Competition, status: int = 200,
          errors: list[str] | None = None) -> HttpResponse:
    state = ceros_rounds.table(competition)
    names = {row.entry.pk: row.entry.pair.name for row in state.rows}
    draft: dict[str, Any] | None = None
    if state.draft is not None:
        draft = {
            "number": state.draft.number,
            "tables": [{"number": t, "first": names[a], "second": names[b]}
                       for t, a, b in state.draft.tables],
            "bye": names.get(state.draft.bye_id) if state.draft.bye_id else "",
        }
    current = pages.rounds_of(competition, state.rounds)[0] if state.rounds else None
    by_index = {row.entry.index: row.entry.pair.name for row in state.rows}
    events = [
        {"event": e, "bye": by_index.get(e.bye, "") if e.bye is not None else "",
         "tables": [(t, by_index.get(a, ""), by_index.get(b, "")) for t, a, b in e.tables]}
        for e in CerosEvent.objects.filter(competition=competition).select_related("by")
    ]
    base = base_context(request, competition, "standings")
    base["links"]["competition"] = pages.competition_url(competition, "ceros")
    exports = export_links(competition)
    context = {
        **base,
        "exports": {k: v for k, v in exports.items()
                    if k in ("json", "standings_csv", "matches_csv")},
        "state": state,
        "rows": [{"row": r, "url": pages.entry_url(competition, r.entry.index),
                  "marks": range(r.losses), "left_marks": range(r.ceros_left)}
                 for r in state.rows],
        "draft": draft,
        "current": current,
        "next_number": state.rounds + 1,
        "events": events,
        "errors": errors or [],
        "format_text": pages.format_text(competition),
        "rules": changes.competition_rules(competition),
    }
    return render(request, "leagues/ceros.html", context, status=status)


@require_safe
def page(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """The tournament: its winner once there is one, the draft for an organiser, the
    round being played and the table of the pairs."""
    return _page(request, _ceros(slug, competition_id))


@require_POST
def draw(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """Draw the next round (or, with redraw=1, draw the draft again): a draft to check."""
    competition = _ceros(slug, competition_id)
    require_organiser(request.user, competition.club)
    try:
        draft = ceros_rounds.make_round(
            competition, by=request.user, redraw=request.POST.get("redraw") == "1")
    except changes.CompetitionError as error:
        return _page(request, competition, error.status, [page_message(error)])
    messages.success(request, _("Ronda %(n)s sorteada: revísala y publícala.") % {
        "n": draft.number})
    return redirect(pages.competition_url(competition, "ceros"))


@require_POST
def publish(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """Publish the draft: it becomes the round to play, with its tables."""
    competition = _ceros(slug, competition_id)
    require_organiser(request.user, competition.club)
    try:
        round_ = ceros_rounds.publish_round(competition, by=request.user)
    except changes.CompetitionError as error:
        return _page(request, competition, error.status, [page_message(error)])
    messages.success(request, _("Ronda %(n)s publicada.") % {"n": round_.number})
    return redirect(pages.competition_url(competition, "round", round_.number))
