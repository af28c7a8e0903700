"""The league pages of a club, and the club page itself (it lists the club's competitions
and latest matches): thin function views over muscore.leagues.services.

Anyone may look at a competition; every write (a POST) is refused with 403 before any
form is read unless the user organises the club, and the services check it again.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from muscore.clubs.models import Club, Player
from muscore.clubs.permissions import is_organiser, require_organiser
from muscore.clubs.views import club_context
from muscore.leagues import card, confirmations, pages, stats_store, views_confirm, views_players
from muscore.leagues import services as leagues
from muscore.leagues.forms import (
    CompetitionForm,
    DrawForm,
    NoShowForm,
    ResultForm,
    ScheduleForm,
    SubstituteForm,
)
from muscore.leagues.models import Competition, Entry, Match
from muscore.tables import share
from muscore.text import sorted_by_name

# --- the club page (its players and pairs, and its competitions) ----------------------------------


@require_safe
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's page: its players, pairs, competitions and latest matches. It lives here,
    not in muscore.clubs, because clubs sits below leagues (it must not import it)."""
    club = get_object_or_404(Club, slug=slug)
    confirmations.accept_due(club=club)  # its latest matches include the pairs' results
    context = club_context(request, club)
    # Names as Spanish sorts them (Iñaki after Inza, Órdago among the O), not byte-wise.
    context["players"] = sorted_by_name(club.players.all(), lambda p: p.name)
    context["pairs"] = sorted_by_name(club.pairs.prefetch_related("members__player"),
                                      lambda p: p.name)
    context.update(league_summary(club))
    return render(request, "clubs/club.html", context)


def league_summary(club: Club) -> dict[str, Any]:
    """The club's competitions and latest matches, for its page."""
    listed = list(Competition.objects.filter(club=club, archived=False).select_related("club"))
    disputes = pages.disputes_by_competition(listed)
    competitions = [
        {"name": c.name, "url": pages.competition_url(c), "note": pages.status(c),
         "disputes": pages.disputes_text(disputes.get(c.pk, 0))}
        for c in listed
    ]
    latest = (
        Match.objects.filter(competition__club=club)
        .exclude(source="")
        .select_related("competition__club", "first__pair", "second__pair", "round")
        .order_by("-result_at", "-id")[:10]
    )
    return {
        "competitions": competitions,
        "latest_matches": [pages.match_row(m) for m in latest],
        "new_competition_url": reverse("clubs:new_competition", args=[club.slug]),
    }


# --- the competitions -----------------------------------------------------------------------------


def _competition(slug: str, competition_id: int) -> Competition:
    competition = get_object_or_404(
        Competition.objects.select_related("club"), pk=competition_id, club__slug=slug
    )
    # A pair's result that waited 24 hours undisputed counts before anything is read.
    confirmations.accept_due(competition=competition)
    return competition


def _organised(request: HttpRequest, slug: str, competition_id: int) -> Competition:
    competition = _competition(slug, competition_id)
    require_organiser(request.user, competition.club)
    return competition


def _base(request: HttpRequest, competition: Competition, tab: str) -> dict[str, Any]:
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


def _status(*forms: Any) -> int:
    return 400 if any(f.errors for f in forms) else 200


# --- a new competition and its draw ------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def new_competition(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    form = CompetitionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            competition = leagues.create_competition(
                club,
                by=request.user,
                name=data["name"],
                pairs=list(data["pairs"]),
                format=data["format"],
                legs=data["legs"],
                groups=data["groups"],
                rules=form.rules(),
                points=form.points(),
                ceros=data["ceros"],
            )
        except leagues.CompetitionError as error:
            form.add_error(None, str(error))
        else:
            if competition.format == Competition.Format.CEROS:
                return redirect(pages.competition_url(competition, "ceros"))
            return redirect(pages.competition_url(competition, "draw"))
    context = {"club": club, "organiser": True, "form": form}
    return render(request, "clubs/league/new.html", context, status=_status(form))


def _entries(competition: Competition) -> list[Entry]:
    return list(competition.entries.select_related("pair").order_by("index"))


@require_http_methods(["GET", "HEAD", "POST"])
def draw(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """The public draw: 'Sortear' records a random order, or the order drawn by hand."""
    if request.method == "POST":
        competition = _organised(request, slug, competition_id)
    else:
        competition = _competition(slug, competition_id)
    if competition.format == Competition.Format.CEROS:
        return redirect(pages.competition_url(competition, "ceros"))
    entries = _entries(competition)
    form = DrawForm(request.POST or None, count=len(entries))
    if request.method == "POST" and form.is_valid():
        order, method = form.draw()
        try:
            leagues.record_draw(competition, order, by=request.user, method=method)
        except leagues.CompetitionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Sorteo hecho. Ya están las jornadas."))
            return redirect(pages.competition_url(competition))
    context = {**_base(request, competition, "draw"), "form": form, "entries": entries}
    if competition.draw is not None:
        by_index = {e.index: e for e in entries}
        context["drawn"] = [by_index[i] for i in competition.draw if i in by_index]
    return render(request, "clubs/league/draw.html", context, status=_status(form))


# --- reading ------------------------------------------------------------------------------------


@require_safe
def competition(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """The standings (each group's), the knockout, and the next matches to play."""
    competition = _competition(slug, competition_id)
    if competition.format == Competition.Format.CEROS:
        return redirect(pages.competition_url(competition, "ceros"))
    context = {
        **_base(request, competition, "standings"),
        "standings": pages.standings_tables(competition),
        "bracket": pages.bracket(competition),
        # Only the next round's matches: a league of 200 pairs has 39,800 of them.
        "next_rounds": pages.next_round(competition),
        "exports": _exports(competition),
        "format_text": pages.format_text(competition),
        "rules": leagues.competition_rules(competition),
        # The share button of the latest night's card (muscore.leagues.card).
        "latest_night": card.latest_night(competition),
    }
    return render(request, "clubs/league/competition.html", context)


def _exports(competition: Competition) -> dict[str, str]:
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


@require_safe
def rounds(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """Every round with how many of its matches are left, and the next round's matches;
    each round's own page lists them all."""
    competition = _competition(slug, competition_id)
    context = {
        **_base(request, competition, "rounds"),
        "rounds": pages.round_summaries(competition),
        "next_rounds": pages.next_round(competition),
    }
    return render(request, "clubs/league/rounds.html", context)


@require_safe
def round_page(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """One round, ready to print: table by table, the pairs, the time."""
    competition = _competition(slug, competition_id)
    views = pages.rounds_of(competition, number)
    if not views:
        raise Http404(_("No hay ninguna jornada con ese número."))
    return _round_page(
        request,
        competition,
        views,
        number,
        ScheduleForm(initial={"starts_at": views[0].round.starts_at}),
    )


def _round_page(
    request: HttpRequest, competition: Competition, views: list[Any], number: int, form: Any
) -> HttpResponse:
    context = {
        **_base(request, competition, "rounds"),
        "rounds": views,
        "number": number,
        "schedule_form": form,
    }
    return render(request, "clubs/league/round.html", context, status=_status(form))


@require_POST
def schedule(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """The day and time of a round, for its printed sheet."""
    competition = _organised(request, slug, competition_id)
    form = ScheduleForm(request.POST)
    if form.is_valid():
        if leagues.schedule_round(
            competition, number, form.cleaned_data["starts_at"], by=request.user
        ):
            messages.success(request, _("Hora de la jornada guardada."))
            return redirect(pages.competition_url(competition, "round", number))
        raise Http404(_("No hay ninguna jornada con ese número."))
    views = pages.rounds_of(competition, number)
    if not views:
        raise Http404(_("No hay ninguna jornada con ese número."))
    return _round_page(request, competition, views, number, form)


def _match(competition: Competition, number: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related(
            "round", "round__group", "first__pair", "second__pair", "table", "competition__club"
        ),
        competition=competition,
        number=number,
    )


@require_safe
def match(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    competition = _competition(slug, competition_id)
    return _match_page(request, competition, _match(competition, number))


def _match_page(
    request: HttpRequest,
    competition: Competition,
    match: Match,
    *,
    forms: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {**_base(request, competition, "rounds"), "m": pages.match_row(match)}
    context["source"] = pages.source_text(match)
    context["round_title"] = pages.round_title(match.round)
    known = match.first is not None and match.second is not None
    if known:
        first, second = leagues.match_players(match)
        context["players"] = (first, second)
        context["own"] = (match.first.pair.player_names(), match.second.pair.player_names())  # type: ignore[union-attr]
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
    if context["organiser"] and known:
        juegos = leagues.competition_rules(competition).juegos
        forms = forms or {}
        context["result_form"] = forms.get("result") or ResultForm(juegos=juegos)
        context["no_show_form"] = forms.get("no_show") or NoShowForm(
            first=match.first.pair.name,  # type: ignore[union-attr]
            second=match.second.pair.name,  # type: ignore[union-attr]
        )
        context["substitute_forms"] = forms.get("substitute") or _substitute_forms(match)
        context["known_players"] = match.competition.club.players.values_list("name", flat=True)
        context["juegos"] = juegos
    context["errors"] = (forms or {}).get("errors", [])
    context["prediction"] = views_players.prediction(match)  # each pair's chances, unplayed
    context.update(views_confirm.match_context(request, match, context["organiser"]))
    context["audit"] = pages.audit_rows(match)
    return render(request, "clubs/league/match.html", context, status=status)


def _substitute_forms(match: Match, bound: tuple[int, Any] | None = None) -> list[Any]:
    forms = []
    for side, entry in enumerate((match.first, match.second)):
        assert entry is not None
        players = Player.objects.filter(memberships__pair=entry.pair)
        data = bound[1] if bound and bound[0] == side else None
        form = SubstituteForm(data, players=players, prefix=f"s{side}")
        forms.append({"side": side, "pair": entry.pair.name, "form": form})
    return forms


# --- playing and results -----------------------------------------------------------------------


def _match_action(request: HttpRequest, slug: str, competition_id: int, number: int) -> Match:
    competition = _organised(request, slug, competition_id)
    return _match(competition, number)


@require_POST
def play(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """'Jugar': a muscore table with the two pairs seated; its edit link is then on the
    match page for whoever keeps the score."""
    match = _match_action(request, slug, competition_id, number)
    try:
        leagues.open_table(match, by=request.user)
    except leagues.CompetitionError as error:
        return _match_page(
            request, match.competition, match, forms={"errors": [str(error)]}, status=400
        )
    return redirect(pages.match_url(match) + "#mesa")


@require_POST
def result(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """A vaca kept on paper (juegos, optional tantos), or an organiser's correction."""
    match = _match_action(request, slug, competition_id, number)
    juegos = leagues.competition_rules(match.competition).juegos
    form = ResultForm(request.POST, juegos=juegos)
    if form.is_valid():
        try:
            leagues.record_result(
                match, by=request.user, juegos=form.juegos_pair(), tantos=form.tantos_pair()
            )
        except leagues.CompetitionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Resultado guardado."))
            return redirect(pages.match_url(match))
    return _match_page(request, match.competition, match, forms={"result": form}, status=400)


@require_POST
def no_show(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    match = _match_action(request, slug, competition_id, number)
    assert match.first is not None and match.second is not None
    form = NoShowForm(request.POST, first=match.first.pair.name, second=match.second.pair.name)
    if form.is_valid():
        who = form.cleaned_data["who"]
        try:
            leagues.record_no_show(match, by=request.user, who=who if who == "both" else int(who))
        except leagues.CompetitionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("No presentado anotado."))
            return redirect(pages.match_url(match))
    return _match_page(request, match.competition, match, forms={"no_show": form}, status=400)


@require_POST
def substitute(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    match = _match_action(request, slug, competition_id, number)
    side = 1 if request.POST.get("side") == "1" else 0
    forms = _substitute_forms(match, (side, request.POST))
    form = forms[side]["form"]
    if form.is_valid():
        try:
            leagues.substitute(
                match,
                by=request.user,
                side=side,
                replaced=form.cleaned_data["replaced"].name,
                substitute=form.cleaned_data["substitute"],
            )
        except leagues.CompetitionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Suplente anotado para esta partida."))
            return redirect(pages.match_url(match))
    return _match_page(request, match.competition, match, forms={"substitute": forms}, status=400)


@require_POST
def own_players(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """Back to the pair's own players for one side (a substitute entered by mistake)."""
    match = _match_action(request, slug, competition_id, number)
    side = 1 if request.POST.get("side") == "1" else 0
    try:
        leagues.set_players(match, by=request.user, side=side, players=None)
    except leagues.CompetitionError as error:
        return _match_page(
            request, match.competition, match, forms={"errors": [str(error)]}, status=400
        )
    return redirect(pages.match_url(match))


@require_POST
def clear(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """Take a result back (kept in the audit)."""
    match = _match_action(request, slug, competition_id, number)
    try:
        leagues.clear_result(match, by=request.user)
    except leagues.CompetitionError as error:
        return _match_page(
            request, match.competition, match, forms={"errors": [str(error)]}, status=400
        )
    messages.success(request, _("Resultado anulado: queda en el registro de cambios."))
    return redirect(pages.match_url(match))


# --- a pair in a competition --------------------------------------------------------------------


@require_safe
def entry(request: HttpRequest, slug: str, competition_id: int, index: int) -> HttpResponse:
    """A pair's matches in this competition, each with its table's hands when it has one."""
    competition = _competition(slug, competition_id)
    entry = get_object_or_404(
        Entry.objects.select_related("pair"), competition=competition, index=index
    )
    rows = pages.pair_rows(competition, entry)
    standing = next(
        (
            r
            for table in pages.standings_tables(competition)
            for r in table.rows
            if r["row"].pair == index
        ),
        None,
    )
    context = {
        **_base(request, competition, "standings"),
        "entry": entry,
        "players": entry.pair.player_names(),
        "player_links": views_players.pair_players(competition.club, entry.pair),
        "rows": rows,
        "standing": standing,
        # What the hands say: this pair's counts in this competition's table matches.
        **stats_store.pair_context(entry.pair, entry),
    }
    return render(request, "clubs/league/entry.html", context)
