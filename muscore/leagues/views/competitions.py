"""The league pages of a club, and the club page itself (it lists the club's competitions
and latest matches): thin function views over muscore.leagues.competitions, .results and .documents.

Anyone may look at a competition; every write (a POST) is refused with 403 before any
form is read unless the user organises the club, and the services check it again.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from muscore import conditional
from muscore.clubs.models import Club
from muscore.clubs.permissions import require_organiser
from muscore.clubs.views import club_context
from muscore.leagues import (
    card,
    changes,
    club_kept,
    competitions,
    confirmations,
    pages,
    part_of,
    results,
    stats_store,
)
from muscore.leagues.forms import (
    CompetitionForm,
    DrawForm,
    NoShowForm,
    ResultForm,
    ScheduleForm,
)
from muscore.leagues.models import REASON_MAX, Competition, Entry, Match
from muscore.leagues.views import players as views_players
from muscore.leagues.views.base import (
    base_context,
    competition_or_404,
    export_links,
    form_status,
    match_or_404,
    match_page,
    organised_or_403,
    substitute_forms,
)
from muscore.messages import page_message
from muscore.text import sorted_by_name

# --- the club page (its players and pairs, and its competitions) ----------------------------------


@require_safe
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's page: its players, pairs, competitions and latest matches. It lives here,
    not in muscore.clubs, because clubs sits below leagues (it must not import it)."""
    return club_page(request, get_object_or_404(Club, slug=slug))


def club_page(request: HttpRequest, club: Club, status: int = 200) -> HttpResponse:
    """The club's page; with a refusal's ``status`` when a door of it refused (its
    message among the page's messages). Its lists are kept by the club's stamp
    (muscore.leagues.club_kept), and a reader holding the page gets a 304."""
    confirmations.accept_due(club=club)  # its latest matches include the pairs' results
    context = club_context(request, club)
    # Its championships as the championships' tag shows them (that app is above the
    # league): the ETag is made of what they show, whatever moves it (a result, a clock).
    context["championships"] = render_to_string("leagues/_club_championships.html",
                                                 context, request)
    club_stamp = club_kept.stamp(club)
    tag = club_kept.etag(request, club_stamp, context["organiser"], context["championships"])
    # A message waiting for the reader (a refusal, after a write) is shown, never a 304.
    unchanged = conditional.not_modified(request, tag) if status == 200 else None
    if unchanged is not None and not len(messages.get_messages(request)):
        return club_kept.mark(unchanged, tag)
    context.update(club_kept.kept(club, club_stamp, lambda: club_lists(club)))
    return club_kept.mark(render(request, "leagues/club.html", context, status=status), tag)


def club_lists(club: Club) -> dict[str, Any]:
    """What the club page lists, as plain rows the cache keeps."""
    # Each row's links reversed once for all (reverse() per row was most of the organiser's
    # page: 600 players, four links each).
    links = {name: pages.url_maker(f"clubs:{name}", club.slug) for name in (
        "player", "edit_player", "merge_player", "retire_player", "edit_pair", "retire_pair")}

    def player_rows(retired: bool) -> list[dict[str, Any]]:
        # Names as Spanish sorts them (Iñaki after Inza, Órdago among the O), not byte-wise.
        return [{"pk": pk, "name": name, "url": links["player"](pk),
                 "edit_url": links["edit_player"](pk), "merge_url": links["merge_player"](pk),
                 "retire_url": links["retire_player"](pk)}
                for pk, name in sorted_by_name(
                    club.players.filter(retired=retired).values_list("pk", "name"),
                    lambda row: row[1])]

    # Retired players and pairs are off the lists (kept, each under its own heading).
    pairs = sorted_by_name(club.pairs.filter(retired=False).prefetch_related(
        "members__player"), lambda p: p.name)
    summary = league_summary(club)
    return {
        "players": player_rows(False),
        "pairs": [{"pk": p.pk, "name": p.name, "player_names": p.player_names,
                   "edit_url": links["edit_pair"](p.pk), "retire_url": links["retire_pair"](p.pk)}
                  for p in pairs],
        "retired_players": player_rows(True),
        "retired_pairs": [{"pk": pk, "name": name, "retire_url": links["retire_pair"](pk)}
                          for pk, name in sorted_by_name(
            club.pairs.filter(retired=True).values_list("pk", "name"), lambda row: row[1])],
        **summary,
        "latest_matches": [{k: v for k, v in row.items() if k != "match"}
                           for row in summary["latest_matches"]],
    }


def league_summary(club: Club) -> dict[str, Any]:
    """The club's competitions and latest matches, for its page. A championship's heat,
    groups and games are not among them: the championship is listed once, with its state
    and the club's heat under it (the championships' tag on the page: muscore.leagues.part_of)."""
    listed = list(Competition.objects.filter(club=club, archived=False).exclude(
        status=Competition.Status.IMPORTING).select_related("club"))
    parts = part_of.parts([c.pk for c in listed])
    listed = [c for c in listed if c.pk not in parts]
    disputes = pages.disputes_by_competition(listed)
    competitions = [
        {"name": c.title, "url": pages.competition_url(c), "note": pages.status(c),
         "disputes": pages.disputes_text(disputes.get(c.pk, 0))}
        for c in listed
    ]
    # The latest ten of each competition by its (competition, result_at) index, then the
    # latest ten of those: one sort of every match of the club took 0.48 s for a large
    # club's 39,800 (issue 28); this reads at most ten rows a competition.
    newest: list[tuple[Any, int]] = []
    for pk in Competition.objects.filter(club=club).values_list("pk", flat=True):
        newest += (Match.objects.filter(competition_id=pk, result_at__isnull=False)
                   .played().order_by("-result_at", "-id")
                   .values_list("result_at", "id")[:10])
    newest.sort(reverse=True)
    unordered = {m.pk: m for m in Match.objects.filter(pk__in=[pk for _at, pk in newest[:10]])
                 .with_outcome()
                 .select_related("competition__club", "first__pair", "second__pair", "round",
                                 "tie")}
    latest = [unordered[pk] for _at, pk in newest[:10]]
    return {
        "competitions": competitions,
        "latest_matches": [pages.match_row(m) for m in latest],
        "new_competition_url": reverse("clubs:new_competition", args=[club.slug]),
    }


# --- the competitions -----------------------------------------------------------------------------


# --- a new competition and its draw ------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def new_competition(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    form = CompetitionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            competition = competitions.create_competition(
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
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
        else:
            if competition.format == Competition.Format.CEROS:
                return redirect(pages.competition_url(competition, "ceros"))
            return redirect(pages.competition_url(competition, "draw"))
    context = {"club": club, "organiser": True, "form": form}
    return render(request, "leagues/new.html", context, status=form_status(form))


def _entries(competition: Competition) -> list[Entry]:
    return list(competition.entries.select_related("pair").order_by("index"))


@require_http_methods(["GET", "HEAD", "POST"])
def draw(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """The public draw: 'Sortear' records a random order, or the order drawn by hand."""
    if request.method == "POST":
        competition = organised_or_403(request, slug, competition_id)
    else:
        competition = competition_or_404(slug, competition_id)
    if competition.format == Competition.Format.CEROS:
        return redirect(pages.competition_url(competition, "ceros"))
    entries = _entries(competition)
    form = DrawForm(request.POST or None, count=len(entries))
    if request.method == "POST" and form.is_valid():
        order, method = form.draw()
        try:
            competitions.record_draw(competition, order, by=request.user, method=method)
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("Sorteo hecho. Ya están las jornadas."))
            return redirect(pages.competition_url(competition))
    context = {**base_context(request, competition, "draw"), "form": form, "entries": entries}
    if competition.draw is not None:
        by_index = {e.index: e for e in entries}
        context["drawn"] = [by_index[i] for i in competition.draw if i in by_index]
    return render(request, "leagues/draw.html", context, status=form_status(form))


# --- reading ------------------------------------------------------------------------------------


@require_safe
def competition(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """The standings (each group's), the knockout, and the next matches to play."""
    competition = competition_or_404(slug, competition_id)
    if competition.format == Competition.Format.CEROS:
        return redirect(pages.competition_url(competition, "ceros"))
    context = {
        **base_context(request, competition, "standings"),
        "standings": pages.standings_tables(competition),
        "bracket": pages.bracket(competition),
        # A cup's winner once its final is decided (as its night's card says it).
        "champion": card.cup_champion(competition),
        # Only the next round's matches: a league of 200 pairs has 39,800 of them.
        "next_rounds": pages.next_round(competition),
        "exports": export_links(competition),
        "format_text": pages.format_text(competition),
        "rules": changes.competition_rules(competition),
        # The share button of the latest night's card (muscore.leagues.card).
        "latest_night": card.latest_night(competition),
    }
    return render(request, "leagues/competition.html", context)


@require_safe
def rounds(request: HttpRequest, slug: str, competition_id: int) -> HttpResponse:
    """Every round with how many of its matches are left, and the next round's matches;
    each round's own page lists them all."""
    competition = competition_or_404(slug, competition_id)
    context = {
        **base_context(request, competition, "rounds"),
        "rounds": pages.round_summaries(competition),
        "next_rounds": pages.next_round(competition),
    }
    return render(request, "leagues/rounds.html", context)


@require_safe
def round_page(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """One round, ready to print: table by table, the pairs, the time."""
    competition = competition_or_404(slug, competition_id)
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
    pages.add_named_pairs_players(views)
    context = {
        **base_context(request, competition, "rounds"),
        "rounds": views,
        "number": number,
        "schedule_form": form,
    }
    return render(request, "leagues/round.html", context, status=form_status(form))


@require_POST
def schedule(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """The day and time of a round, for its printed sheet."""
    competition = organised_or_403(request, slug, competition_id)
    form = ScheduleForm(request.POST)
    if form.is_valid():
        if competitions.schedule_round(
            competition, number, form.cleaned_data["starts_at"], by=request.user
        ):
            messages.success(request, _("Hora de la jornada guardada."))
            return redirect(pages.competition_url(competition, "round", number))
        raise Http404(_("No hay ninguna jornada con ese número."))
    views = pages.rounds_of(competition, number)
    if not views:
        raise Http404(_("No hay ninguna jornada con ese número."))
    return _round_page(request, competition, views, number, form)


@require_safe
def match(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    competition = competition_or_404(slug, competition_id)
    return match_page(request, competition, match_or_404(competition, number))


# --- playing and results -----------------------------------------------------------------------


def _match_action(request: HttpRequest, slug: str, competition_id: int, number: int) -> Match:
    competition = organised_or_403(request, slug, competition_id)
    return match_or_404(competition, number)


@require_POST
def play(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """'Jugar': a muscore table with the two pairs seated; its edit link is then on the
    match page for whoever keeps the score."""
    match = _match_action(request, slug, competition_id, number)
    try:
        competitions.open_table(match, by=request.user)
    except changes.CompetitionError as error:
        return match_page(
            request, match.competition, match, forms={"errors": [page_message(error)]},
            status=error.status,
        )
    return redirect(pages.match_url(match) + "#mesa")


@require_POST
def result(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """A vaca kept on paper (juegos, optional tantos), or an organiser's correction."""
    match = _match_action(request, slug, competition_id, number)
    juegos = changes.competition_rules(match.competition).juegos
    form = ResultForm(request.POST, juegos=juegos)
    if form.is_valid():
        try:
            results.record_result(
                match, by=request.user, juegos=form.juegos_pair(), tantos=form.tantos_pair(),
                reset=form.cleaned_data.get("reset") or False,
                reason=form.cleaned_data["reason"],
            )
        except results.ReasonRequired as error:
            form.add_error("reason", page_message(error))
        except results.KnockoutConflict as error:
            form.add_error(None, page_message(error))
            form.offer_reset = True  # the checkbox that says yes, in the same form
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("Resultado guardado."))
            return redirect(pages.match_url(match))
    return match_page(request, match.competition, match, forms={"result": form}, status=400)


@require_POST
def no_show(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    match = _match_action(request, slug, competition_id, number)
    assert match.first is not None and match.second is not None
    form = NoShowForm(request.POST, first=match.first.pair.name, second=match.second.pair.name)
    if form.is_valid():
        who = form.cleaned_data["who"]
        try:
            results.record_no_show(match, by=request.user, who=who if who == "both" else int(who),
                                   reason=form.cleaned_data["reason"])
        except results.ReasonRequired as error:
            form.add_error("reason", page_message(error))
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("No presentado anotado."))
            return redirect(pages.match_url(match))
    return match_page(request, match.competition, match, forms={"no_show": form}, status=400)


@require_POST
def substitute(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    match = _match_action(request, slug, competition_id, number)
    side = 1 if request.POST.get("side") == "1" else 0
    forms = substitute_forms(match, (side, request.POST))
    form = forms[side]["form"]
    if form.is_valid():
        try:
            competitions.substitute(
                match,
                by=request.user,
                side=side,
                replaced=form.cleaned_data["replaced"].name,
                substitute=form.cleaned_data["substitute"],
            )
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("Suplente anotado para esta partida."))
            return redirect(pages.match_url(match))
    return match_page(request, match.competition, match, forms={"substitute": forms}, status=400)


@require_POST
def own_players(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """Back to the pair's own players for one side (a substitute entered by mistake)."""
    match = _match_action(request, slug, competition_id, number)
    side = 1 if request.POST.get("side") == "1" else 0
    try:
        competitions.set_players(match, by=request.user, side=side, players=None)
    except changes.CompetitionError as error:
        return match_page(
            request, match.competition, match, forms={"errors": [page_message(error)]},
            status=error.status,
        )
    return redirect(pages.match_url(match))


@require_POST
def clear(request: HttpRequest, slug: str, competition_id: int, number: int) -> HttpResponse:
    """Take a result back (kept in the audit)."""
    match = _match_action(request, slug, competition_id, number)
    try:
        results.clear_result(match, by=request.user,
                             reason=request.POST.get("reason", "")[:REASON_MAX])
    except changes.CompetitionError as error:
        return match_page(
            request, match.competition, match, forms={"errors": [page_message(error)]},
            status=error.status,
        )
    messages.success(request, _("Resultado anulado: queda en el registro de cambios."))
    return redirect(pages.match_url(match))


# --- a pair in a competition --------------------------------------------------------------------


@require_safe
def entry(request: HttpRequest, slug: str, competition_id: int, index: int) -> HttpResponse:
    """A pair's matches in this competition, each with its table's hands when it has one."""
    competition = competition_or_404(slug, competition_id)
    entry = get_object_or_404(
        Entry.objects.select_related("pair"), competition=competition, index=index
    )
    rows = pages.pair_rows(competition, entry)
    standing = pages.standing_of(competition, index)
    # One query for the names and the links (player_names() would read them again).
    player_links = views_players.pair_players(competition.club, entry.pair)
    context = {
        **base_context(request, competition, "standings"),
        "entry": entry,
        "players": [link["name"] for link in player_links],
        "player_links": player_links,
        "rows": rows,
        "standing": standing,
        # What the hands say: this pair's counts in this competition's table matches.
        **stats_store.pair_context(entry.pair, entry),
    }
    return render(request, "leagues/entry.html", context)
