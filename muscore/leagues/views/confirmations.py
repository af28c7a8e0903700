"""Results both pairs agree on: each pair's link to a match, the organiser's decision,
and the round's sheet of links (thin views over muscore.leagues.confirmations).

A pair's link is /club/<slug>/liga/<id>/partida/<n>/resultado/<key>/: a wrong key, or
the key of a pair no longer in the match, is a 404 like a table's wrong edit link. Its
writes are rate-limited like every public write (muscore.ratelimits).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from muscore import ratelimits
from muscore.clubs.permissions import is_organiser, require_organiser
from muscore.leagues import changes, confirmations, pages
from muscore.leagues.forms import ResultForm
from muscore.leagues.models import Competition, Match, ResultClaim
from muscore.leagues.views.base import (
    NoteForm,
    calculator_links,
    match_page,
    pair_names,
    pair_url,
)
from muscore.messages import page_message
from muscore.tables import share

PAIR_ACTIONS = ("anotar", "confirmar", "discutir", "retirar")
ORGANISER_ACTIONS = ("aceptar", "rechazar")


def _competition(slug: str, competition_id: int) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("club"), pk=competition_id, club__slug=slug
    )


def _match(competition: Competition, number: int) -> Match:
    match = get_object_or_404(
        Match.objects.with_outcome().select_related(
            "round", "round__group", "first__pair", "second__pair", "table", "competition__club",
            "tie"),
        competition=competition,
        number=number,
    )
    # A claim that has waited 24 hours is the result before anyone looks at the match.
    if confirmations.accept_due(match=match):
        match.refresh_from_db()
    return match


# --- a pair's link -----------------------------------------------------------------------


def _pair(slug: str, competition_id: int, number: int, key: str) -> tuple[Match, int]:
    match = _match(_competition(slug, competition_id), number)
    side = confirmations.side_of(match, key)
    if side is None:
        raise Http404(_("No hay ninguna partida con ese enlace."))
    return match, side


def _pair_page(
    request: HttpRequest,
    match: Match,
    side: int,
    key: str,
    *,
    result_form: ResultForm | None = None,
    dispute_form: NoteForm | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    names = pair_names(match)
    claims = confirmations.claims_of(match, names)
    current = next((c for c in claims if c.claim.open), None)
    juegos = changes.competition_rules(match.competition).juegos
    context: dict[str, Any] = {
        "club": match.competition.club,
        "competition": match.competition,
        "m": pages.match_row(match),
        "side": side,
        "mine": names[side],
        "theirs": names[1 - side],
        "claims": claims,
        "open_claim": current,
        "ours": current is not None and current.claim.side == side,
        "juegos": juegos,
        "result_form": result_form or ResultForm(juegos=juegos),
        "dispute_form": dispute_form or NoteForm(),
        "errors": errors or [],
        "base_url": pair_url(match, key),
        "match_url": pages.match_url(match),
        "standings_url": pages.competition_url(match.competition),
    }
    if current is not None and current.claim.status == ResultClaim.Status.DISPUTED:
        context["calculator_links"] = calculator_links(match)
    elif current is not None and not context["ours"]:
        # Before agreeing, the pair may check a hand's recuento.
        context["calculator_links"] = calculator_links(match)
    response = render(request, "leagues/confirm_pair.html", context, status=status)
    # The page's address is the pair's secret: no shared cache keeps it (and the site's
    # Referrer-Policy, same-origin, tells no other site).
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def pair_page(
    request: HttpRequest, slug: str, competition_id: int, number: int, key: str
) -> HttpResponse:
    """A pair's page for one match: enter the result, or confirm or dispute the other
    pair's, and see where the result stands."""
    match, side = _pair(slug, competition_id, number, key)
    return _pair_page(request, match, side, key)


@require_POST
@ratelimits.limit(ratelimits.WRITE, api=False)
def pair_action(
    request: HttpRequest, slug: str, competition_id: int, number: int, key: str, action: str
) -> HttpResponse:
    """anotar (enter the result), confirmar, discutir (with a note), retirar (withdraw
    one's own pending result)."""
    if action not in PAIR_ACTIONS:
        raise Http404(_("No hay ninguna partida con ese enlace."))
    match, side = _pair(slug, competition_id, number, key)
    juegos = changes.competition_rules(match.competition).juegos
    result_form = ResultForm(request.POST if action == "anotar" else None, juegos=juegos)
    dispute_form = NoteForm(request.POST if action == "discutir" else None)
    try:
        if action == "anotar":
            if not result_form.is_valid():
                return _pair_page(request, match, side, key, result_form=result_form, status=400)
            confirmations.claim(
                match, side=side, juegos=result_form.juegos_pair(),
                tantos=result_form.tantos_pair(),
            )
            done = _("Resultado anotado: falta que la otra pareja lo confirme.")
        elif action == "confirmar":
            confirmations.confirm(match, side=side)
            done = _("Resultado confirmado: ya cuenta en la clasificación.")
        elif action == "discutir":
            if not dispute_form.is_valid():
                return _pair_page(
                    request, match, side, key, dispute_form=dispute_form, status=400
                )
            confirmations.dispute(match, side=side, note=dispute_form.cleaned_data["note"])
            done = _("Resultado discutido: decide la organización.")
        else:
            confirmations.withdraw(match, side=side)
            done = _("Resultado retirado.")
    except changes.CompetitionError as error:
        match.refresh_from_db()
        return _pair_page(
            request, match, side, key,
            result_form=result_form if action == "anotar" else None,
            dispute_form=dispute_form if action == "discutir" else None,
            errors=[page_message(error)], status=error.status,
        )
    messages.success(request, done)
    return redirect(pair_url(match, key))


# --- the organiser ---------------------------------------------------------------------------


@require_POST
def decide(
    request: HttpRequest, slug: str, competition_id: int, number: int, action: str
) -> HttpResponse:
    """An organiser accepts (aceptar) or rejects (rechazar) a pair's result, with a note."""
    if action not in ORGANISER_ACTIONS:
        raise Http404(_("No hay ninguna partida con ese enlace."))
    competition = _competition(slug, competition_id)
    require_organiser(request.user, competition.club)
    match = _match(competition, number)
    form = NoteForm(request.POST, prefix="decision")
    errors: list[str] = []
    if form.is_valid():
        operation = confirmations.accept if action == "aceptar" else confirmations.reject
        try:
            operation(match, by=request.user, note=form.cleaned_data["note"])
        except changes.CompetitionError as error:
            errors.append(page_message(error))
        else:
            messages.success(
                request,
                _("Resultado aceptado.") if action == "aceptar" else _("Resultado rechazado."),
            )
            return redirect(pages.match_url(match) + "#resultado-parejas")
    else:
        errors.extend(str(e) for field in form.errors.values() for e in field)
    match.refresh_from_db()
    return match_page(request, competition, match, forms={"errors": errors}, status=400)


@require_safe
def round_links(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """The round's pairs' links on paper: one slip per pair with its QR, to cut and hand
    out at the tables. Only for organisers (the links are the pairs' secrets)."""
    competition = _competition(slug, competition_id)
    require_organiser(request.user, competition.club)
    views = pages.rounds_of(competition, number)
    if not views:
        raise Http404(_("No hay ninguna jornada con ese número."))
    matches = [row["match"] for view in views for row in view.matches]
    keys = confirmations.keys_for(m for m in matches if not m.played)
    slips = []
    for view in views:
        for row in view.matches:
            match = row["match"]
            names = pair_names(match)
            for side, key in sorted(keys.get(match.pk, {}).items()):
                url = request.build_absolute_uri(pair_url(match, key))
                slips.append(
                    {
                        "round": view.title,
                        "match": match,
                        "table": match.table_number,
                        "pair": names[side],
                        "against": names[1 - side],
                        "url": url,
                        "qr": share.qr_svg(url, _("Enlace de %(pair)s") % {"pair": names[side]}),
                    }
                )
    context = {
        "club": competition.club,
        "competition": competition,
        "organiser": is_organiser(request.user, competition.club),
        "tab": "rounds",
        "links": {
            "competition": pages.competition_url(competition),
            "rounds": pages.competition_url(competition, "rounds"),
        },
        "number": number,
        "title": views[0].title,
        "slips": slips,
        "round_url": pages.competition_url(competition, "round", number),
    }
    response = render(request, "leagues/confirm_round.html", context)
    response["Cache-Control"] = "private, no-store"
    return response
