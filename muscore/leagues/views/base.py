"""What the league pages share: a competition or match looked up (404 otherwise), the
tabs' context, the match page (the organiser's forms and the pairs' claims on it) and
the export links. muscore.leagues.views.competitions, .confirmations and .ceros build on
it, so none of them imports another's view module.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore import permalink
from muscore.clubs.models import Player
from muscore.clubs.permissions import is_organiser, require_organiser
from muscore.leagues import changes, competitions, confirmations, pages
from muscore.leagues.forms import NoShowForm, ResultForm, SubstituteForm
from muscore.leagues.models import Competition, Match, ResultClaim
from muscore.leagues.views import players as views_players
from muscore.tables import services as tables
from muscore.tables import share


def competition_or_404(slug: str, competition_id: int) -> Competition:
    competition = get_object_or_404(
        Competition.objects.select_related("club").exclude(
            status=Competition.Status.IMPORTING),  # the worker is writing it
        pk=competition_id, club__slug=slug,
    )
    # A pair's result that waited 24 hours undisputed counts before anything is read.
    confirmations.accept_due(competition=competition)
    return competition


def organised_or_403(request: HttpRequest, slug: str, competition_id: int) -> Competition:
    competition = competition_or_404(slug, competition_id)
    require_organiser(request.user, competition.club)
    return competition


def base_context(request: HttpRequest, competition: Competition, tab: str) -> dict[str, Any]:
    return {
        "club": competition.club,
        "competition": competition,
        "organiser": is_organiser(request.user, competition.club),
        "tab": tab,
        "links": {
            "competition": pages.competition_url(competition),
            "rounds": pages.competition_url(competition, "rounds"),
        },
    }


def form_status(*forms: Any) -> int:
    return 400 if any(f.errors for f in forms) else 200


def export_links(competition: Competition) -> dict[str, str]:
    """The export links LEAGUES-CORE's API serves, when it does (JSON, CSV)."""
    found = {}
    for key, name in [
        ("json", "api:league_export"),
        ("api", "api:league"),
        ("standings_csv", "api:league_standings_csv"),
        ("matches_csv", "api:league_matches_csv"),
    ]:
        with contextlib.suppress(NoReverseMatch):
            found[key] = reverse(name, args=[competition.pk])
    return found


def match_or_404(competition: Competition, number: int) -> Match:
    return get_object_or_404(
        Match.objects.with_outcome().select_related(
            "round", "round__group", "first__pair", "second__pair", "table", "competition__club",
            "tie"),
        competition=competition,
        number=number,
    )


def match_page(
    request: HttpRequest,
    competition: Competition,
    match: Match,
    *,
    forms: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {**base_context(request, competition, "rounds"), "m": pages.match_row(match)}
    context["source"] = pages.source_text(match)
    context["round_title"] = pages.round_title(match.round)
    pairs = (match.first, match.second)
    if pairs[0] is not None and pairs[1] is not None:
        first, second = competitions.match_players(match)
        context["players"] = (first, second)
        context["own"] = (pairs[0].pair.player_names(), pairs[1].pair.player_names())
    if match.table is not None:
        table = match.table
        context["table_links"] = {
            "view": reverse("tables:board", args=[table.id]),
            "history": reverse("tables:history", args=[table.id]),
        }
        if context["organiser"]:
            edit = reverse("tables:edit_board", args=[table.id, table.edit_key])
            edit_url = request.build_absolute_uri(edit)
            context["table_links"]["edit"] = edit
            context["edit_url"] = edit_url
            context["edit_qr"] = share.qr_svg(edit_url, _("Enlace para anotar"))
    if context["organiser"] and pairs[0] is not None and pairs[1] is not None:
        juegos = changes.competition_rules(competition).juegos
        forms = forms or {}
        # A correction starts from the result it corrects (a typo is one field to change).
        result = match.outcome
        tantos = result.tantos if result is not None and result.tantos else (None, None)
        current = {"juegos_first": result.juegos[0], "juegos_second": result.juegos[1],
                   "tantos_first": tantos[0], "tantos_second": tantos[1],
                   } if result is not None else None
        context["result_form"] = forms.get("result") or ResultForm(juegos=juegos,
                                                                   initial=current)
        context["no_show_form"] = forms.get("no_show") or NoShowForm(
            first=pairs[0].pair.name, second=pairs[1].pair.name,
        )
        context["substitute_forms"] = forms.get("substitute") or substitute_forms(match)
        context["known_players"] = match.competition.club.players.values_list("name", flat=True)
        context["juegos"] = juegos
    context["errors"] = (forms or {}).get("errors", [])
    context["prediction"] = views_players.prediction(match)  # each pair's chances, unplayed
    context.update(match_context(request, match, context["organiser"]))
    context["audit"] = pages.audit_rows(match, usernames=context["organiser"])
    # A result the table changed after storing it is shown, not only in the log.
    context["table_fixes"] = [a for a in context["audit"] if a["table_fix"]]
    return render(request, "leagues/match.html", context, status=status)


def substitute_forms(match: Match, bound: tuple[int, Any] | None = None) -> list[Any]:
    forms = []
    for side, entry in enumerate((match.first, match.second)):
        assert entry is not None
        players = Player.objects.filter(memberships__pair=entry.pair)
        data = bound[1] if bound and bound[0] == side else None
        form = SubstituteForm(data, players=players, prefix=f"s{side}")
        forms.append({"side": side, "pair": entry.pair.name, "form": form})
    return forms



class NoteForm(forms.Form):
    """Why a pair disputes a result, or the organiser's reason for a decision."""

    note = forms.CharField(
        label=gettext_lazy("Nota (opcional)"),
        required=False,
        max_length=confirmations.NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )




def pair_url(match: Match, key: str) -> str:
    """The path of a pair's link to `match`."""
    return pages.competition_url(match.competition, "confirm_pair", match.number, key)


def pair_names(match: Match) -> tuple[str, str]:
    return pages.pair_name(match.first), pages.pair_name(match.second)


def calculator_links(match: Match) -> list[dict[str, str]]:
    """Where a disputed result is checked: each hand of the match's table in the recuento
    calculator, or (a vaca kept on paper) the calculator with the competition's table
    options and the players seated as at a table."""
    if match.table is not None:
        state = tables.table_state(match.table)
        links = permalink.table_hand_links(match.table, state)
        if links:
            return [
                {"label": _("Mano %(n)s") % {"n": number}, "url": url}
                for number, url in sorted(links.items())
            ]
    query = {key: str(value) for key, value in match.competition.rules.items()}
    if match.first is not None and match.second is not None:
        first, second = competitions.match_players(match)
        seats = [name for seat in zip(first, second, strict=True) for name in seat]
        query.update({f"n{seat}": name for seat, name in enumerate(seats)})
    url = reverse("disputes:calculator") + "?" + urlencode(query)
    return [{"label": _("Abrir la calculadora de recuentos"), "url": url}]


def match_context(request: HttpRequest, match: Match, organiser: bool) -> dict[str, Any]:
    """What the match page shows of the pairs' results: the claims and their log for
    everyone; for an organiser each pair's link (with its QR) and the decision forms."""
    names = pair_names(match)
    claims = confirmations.claims_of(match, names, usernames=organiser) if match.first_id else []
    current = next((c for c in claims if c.claim.open), None)
    context: dict[str, Any] = {"claims": claims, "open_claim": current}
    if current is not None and current.claim.status == ResultClaim.Status.DISPUTED:
        context["calculator_links"] = calculator_links(match)
    if organiser and not match.played:
        keys = confirmations.keys_for([match]).get(match.pk, {})
        links = []
        for side, key in sorted(keys.items()):
            url = request.build_absolute_uri(pair_url(match, key))
            title = _("Enlace de %(pair)s") % {"pair": names[side]}
            links.append({"pair": names[side], "url": url, "qr": share.qr_svg(url, title)})
        context["pair_links"] = links
        if current is not None:
            context["decision_form"] = NoteForm(prefix="decision")
    return context
