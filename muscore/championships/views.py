"""The championship's pages: thin function views over muscore.championships.services.
Anyone may look and enter a pair; the championship's organisers close the entries and draw
the phases, a venue's organisers (or the championship's) run its entries and heat (403
otherwise, nothing changed)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from muscore import ratelimits
from muscore.championships import clock, confirm, kept, pages, services
from muscore.championships.forms import (
    ChampionshipForm,
    DrawForm,
    EntryForm,
    HeatForm,
    PhaseForm,
    SedeForm,
)
from muscore.championships.models import Championship, Enrolment, Phase, Sede
from muscore.championships.services import ChampionshipError
from muscore.clubs.models import Club
from muscore.clubs.permissions import is_organiser, require_organiser
from muscore.leagues import pages as league_pages
from muscore.leagues.compute.ceros import DEFAULT_CEROS
from muscore.messages import page_message


def _championship(pk: int) -> Championship:
    return get_object_or_404(Championship.objects.select_related("club"), pk=pk)


def _read(pk: int) -> Championship:
    """The championship of a public page, without its quotas (28 KB of JSON for 250 venues,
    parsed on every poll): a page built again reads them, a 304 never does."""
    return get_object_or_404(Championship.objects.select_related("club").defer("quotas"),
                             pk=pk)


def _page(request: HttpRequest, championship: Championship, *, error: str = "",
          status: int = 200) -> HttpResponse:
    organiser = is_organiser(request.user, championship.club)
    region, page = request.GET.get("region", "")[:12], request.GET.get("pagina", "")[:12]
    region, page = (region if region.isdigit() else ""), (page if page.isdigit() else "")

    def body() -> str:
        context = pages.championship_context(championship, region=region, page=page)
        context.update(organiser=organiser, phase_form=PhaseForm(), draw_form=DrawForm(),
                       sede_form=SedeForm())
        return render_to_string("championships/_championship.html", context, request)

    context = {"championship": championship, "error": error}
    if organiser or error:  # the forms, a refusal: built each time, never kept
        return render(request, "championships/championship.html",
                      {**context, "body": body()}, status=status)
    found = kept.key(championship, "page", (region, page, services.entries_open(championship)),
                     inline=pages.INLINE_GROUPS)
    if request.GET.get("live") == "1":
        return kept.live_part(request, found, body)
    etag = kept.page_etag(request, found)
    unchanged = kept.not_modified(request, etag)
    if unchanged is not None:
        return unchanged
    context["body"] = mark_safe(kept.kept(found, body))  # our own template's output
    context["live"] = kept.live(request, found)
    return kept.mark(render(request, "championships/championship.html", context), etag)


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """Every championship, current then past (the home page's link)."""
    return render(request, "championships/index.html",
                  pages.listed(Championship.objects.all()))


@require_safe
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, _read(pk))


@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    championship = _championship(pk)
    try:
        services.close_entries(championship, by=request.user)
    except ChampionshipError as error:
        return _page(request, championship, error=page_message(error), status=error.status)
    return redirect(pages.championship_url(championship) + "#cupos")


@require_POST
def add_phase(request: HttpRequest, pk: int) -> HttpResponse:
    championship = _championship(pk)
    form = PhaseForm(request.POST)
    if not form.is_valid():
        return _page(request, championship, error=_errors(form), status=400)
    region = None
    if form.cleaned_data["region"].strip():
        region = championship.regions.filter(
            name__iexact=form.cleaned_data["region"].strip()).first()
        if region is None:
            return _page(request, championship, status=400, error=_(
                "No hay ninguna región llamada %(name)s.") % {"name": form.cleaned_data["region"]})
    try:
        services.add_phase(championship, by=request.user, name=form.cleaned_data["name"],
                           level=form.cleaned_data["level"], region=region,
                           advance=form.cleaned_data["advance"],
                           knockout=form.cleaned_data["knockout"],
                           best_of=int(form.cleaned_data["best_of"] or 1),
                           third_place=form.cleaned_data["third_place"])
    except ChampionshipError as error:
        return _page(request, championship, error=page_message(error), status=error.status)
    return redirect(pages.championship_url(championship) + "#fases")


@require_POST
def draw(request: HttpRequest, pk: int, phase_pk: int) -> HttpResponse:
    championship = _championship(pk)
    phase = get_object_or_404(Phase, pk=phase_pk, championship=championship)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _page(request, championship, error=_errors(form), status=400)
    try:
        services.draw_phase(phase, by=request.user, seed=form.cleaned_data["seed"])
    except ChampionshipError as error:
        return _page(request, championship, error=page_message(error), status=error.status)
    return redirect(pages.championship_url(championship) + f"#fase-{phase.pk}")


def _errors(form: Any) -> str:
    return " ".join(f"{form.fields[f].label if f in form.fields else ''}: {' '.join(e)}"
                    for f, e in form.errors.items())


@require_http_methods(["GET", "HEAD", "POST"])
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    """The public entry form (and the bar's, for its organiser: then the fee may be paid)."""
    championship = _championship(pk)
    sede = None
    if request.GET.get("sede", "").isdigit():
        sede = championship.sedes.filter(pk=int(request.GET["sede"])).first()
    if request.method == "POST" and not _runs_posted_sede(request, championship):
        # Counted before the form is read: past a limit nothing of it is stored.
        seconds, whole = ratelimits.entry_wait(request, championship.pk)
        if seconds is not None:
            return ratelimits.too_many_requests(request, seconds, api=False,
                                                championship=championship.name if whole else "")
    form = EntryForm(championship, request.POST or None, sede=sede)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                enrolment = services.enter_pair(
                    data["sede"], name=data["name"], players=[data["player_a"], data["player_b"]],
                    contact=data["contact"], by=request.user,
                    paid=request.POST.get("paid") == "1")
            except ChampionshipError as refused:
                error, status = page_message(refused), refused.status
            else:
                return render(request, "championships/entered.html",
                              {"championship": championship, "enrolment": enrolment,
                               "pair_url": pages.pair_url(enrolment)})
        else:
            status = 400
    organiser = sede is not None and services.can_run_sede(request.user, sede)
    return render(request, "championships/enter.html",
                  {"championship": championship, "form": form, "error": error,
                   "open": services.entries_open(championship), "organiser": organiser},
                  status=status)


def _runs_posted_sede(request: HttpRequest, championship: Championship) -> bool:
    """Whether the request's user runs the venue the form names (his entries are his own:
    no abuse limit, confirmed at once)."""
    posted = request.POST.get("sede", "")
    if not request.user.is_authenticated or not posted.isdigit() or len(posted) > 12:
        return False
    sede = championship.sedes.select_related("club", "championship__club").filter(
        pk=int(posted)).first()
    return sede is not None and services.can_run_sede(request.user, sede)


def _sede(pk: int, sede_pk: int) -> Sede:
    return get_object_or_404(Sede.objects.select_related("championship__club", "club", "heat"),
                             pk=sede_pk, championship_id=pk)


def _sede_page(request: HttpRequest, sede: Sede, *, error: str = "",
               status: int = 200) -> HttpResponse:
    organiser = services.can_run_sede(request.user, sede)
    listed = sede.enrolments.order_by("id")
    pending: list[tuple[Enrolment, str]] = []
    if organiser:  # the entries waiting for him, each with the pair's confirmation link
        pending = [(e, request.build_absolute_uri(pages.confirm_url(e, confirm.link_key(e))))
                   for e in listed.filter(status=Enrolment.Status.PENDING)[:pages.PER_PAGE]]
        listed = listed.exclude(status=Enrolment.Status.PENDING)
    else:  # nobody else sees an entry before it is confirmed, nor a rejected one
        listed = listed.exclude(status__in=[Enrolment.Status.PENDING, Enrolment.Status.REJECTED])
    entries = Paginator(listed, pages.PER_PAGE).get_page(request.GET.get("pagina", "")[:12])
    return render(request, "championships/sede.html", {
        "pending": pending,
        "pending_count": sede.enrolments.filter(status=Enrolment.Status.PENDING).count()
        if organiser else 0,
        "championship": sede.championship, "sede": sede, "organiser": organiser,
        "enrolments": entries, "error": error, "heat_form": HeatForm(),
        "heat_url": league_pages.competition_url(sede.heat) if sede.heat else "",
        "open": services.entries_open(sede.championship),
        "enter_url": reverse("championships:enter", args=[sede.championship_id])
        + f"?sede={sede.pk}",
    }, status=status)


@require_safe
def sede(request: HttpRequest, pk: int, sede_pk: int) -> HttpResponse:
    return _sede_page(request, _sede(pk, sede_pk))


@require_POST
def enrolment_action(request: HttpRequest, pk: int, sede_pk: int,
                     enrolment_pk: int) -> HttpResponse:
    """The bar's organiser confirms or rejects a pending entry, marks the fee paid (or not)
    or withdraws the pair."""
    sede = _sede(pk, sede_pk)
    enrolment = get_object_or_404(Enrolment.objects.select_related("sede"), pk=enrolment_pk,
                                  sede=sede)
    action = request.POST.get("action")
    try:
        if action == "confirm":
            confirm.confirm(enrolment, by=request.user)
        elif action == "reject":
            confirm.reject(enrolment, by=request.user)
        elif action == "withdraw":
            services.withdraw(enrolment, by=request.user)
        else:
            services.mark_paid(enrolment, by=request.user, paid=request.POST.get("paid") == "1")
    except ChampionshipError as error:
        return _sede_page(request, sede, error=page_message(error), status=error.status)
    return redirect(reverse("championships:sede", args=[pk, sede_pk]))


@require_http_methods(["GET", "HEAD", "POST"])
def confirm_link(request: HttpRequest, pk: int, enrolment_pk: int, key: str) -> HttpResponse:
    """The pair's link: GET shows the entry and a button (a link's preview in a chat app
    confirms nothing), POST confirms it. A link that is not this entry's is a 404; an entry
    already confirmed or rejected is a 409 saying so."""
    championship = _championship(pk)
    enrolment = get_object_or_404(Enrolment.objects.select_related("sede"), pk=enrolment_pk,
                                  championship=championship)
    context: dict[str, Any] = {"championship": championship, "enrolment": enrolment,
                               "error": "", "done": False}
    status = 200
    try:
        if not confirm.key_matches(enrolment, key):
            raise confirm.LinkRefused(_("Este enlace de confirmación no es válido: pide el "
                                        "tuyo al organizador de la sede."))
        if request.method == "POST":
            enrolment = confirm.confirm(enrolment, key=key)
            context.update(enrolment=enrolment, done=True)
        elif enrolment.status != Enrolment.Status.PENDING:
            raise confirm.AlreadyDecided(_("Esta inscripción ya no espera confirmación."))
    except ChampionshipError as error:
        context["error"], status = page_message(error), error.status
    return render(request, "championships/confirm.html", context, status=status)


@require_POST
def start_heat(request: HttpRequest, pk: int, sede_pk: int) -> HttpResponse:
    sede = _sede(pk, sede_pk)
    form = HeatForm(request.POST)
    if not form.is_valid():
        return _sede_page(request, sede, error=_errors(form), status=400)
    try:
        heat = services.start_heat(sede, by=request.user, format=form.cleaned_data["format"],
                                   ceros=form.cleaned_data["ceros"] or DEFAULT_CEROS)
    except ChampionshipError as error:
        return _sede_page(request, sede, error=page_message(error), status=error.status)
    return redirect(league_pages.competition_url(heat))


#: Entries of the public form not confirmed, or refused: not on any public page.
UNCONFIRMED = (Enrolment.Status.PENDING, Enrolment.Status.REJECTED)


@require_safe
def pair(request: HttpRequest, pk: int, enrolment_pk: int) -> HttpResponse:
    championship = _championship(pk)
    enrolment = get_object_or_404(Enrolment.objects.select_related("sede__heat", "sede__club"),
                                  pk=enrolment_pk, championship=championship)
    if enrolment.status in UNCONFIRMED and not services.can_run_sede(request.user,
                                                                      enrolment.sede):
        # An entry nobody confirmed (or one refused) is its organisers' to see: the ids are
        # sequential, and its players' names were public with "rechazada" (issue 40).
        raise Http404
    return render(request, "championships/pair.html", {
        "championship": championship, "enrolment": enrolment,
        "steps": pages.pair_path(enrolment)})


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    championship = _championship(pk)
    name = request.GET.get("nombre", "")[:100]
    found = pages.player_enrolments(championship, name)
    return render(request, "championships/player.html", {
        "championship": championship, "name": name,
        "paths": [(e, pages.pair_url(e), pages.pair_path(e)) for e in found]})


@require_safe
def phase(request: HttpRequest, pk: int, phase_pk: int) -> HttpResponse:
    """A phase's own page: all its groups with their standings, or its bracket."""
    championship = _read(pk)
    found = get_object_or_404(Phase, pk=phase_pk, championship=championship)
    found.championship = championship
    key = kept.key(championship, f"phase{found.pk}", phase=found.pk)
    organiser = is_organiser(request.user, championship.club)  # the clock's buttons
    paused = found.clock_paused_at is not None

    def draw() -> str:
        return render_to_string("championships/_phase.html", pages.phase_context(found),
                                request)

    if request.GET.get("live") == "1":
        return kept.live_part(request, key, draw)
    etag = f'{kept.page_etag(request, key)[:-1]}-{organiser:d}{paused:d}"'
    unchanged = kept.not_modified(request, etag)
    if unchanged is not None:
        return unchanged
    body = kept.kept(key, draw)
    return kept.mark(render(request, "championships/phase.html", {
        "championship": championship, "phase": found, "body": mark_safe(body),
        "organiser": organiser, "live": kept.live(request, key)}), etag)


#: How often the hall's screen asks for news (as the club's TV): a result within 2 s.
POLL_MS = 1500


@require_safe
def tv(request: HttpRequest, pk: int, phase_pk: int) -> HttpResponse:
    """The hall's screen: its groups (and bracket) kept by the championship's stamp, in
    panels that turn (static/js/tv.js, the club TV's); ``?live=1`` (the poll, every
    ``POLL_MS``) only its live part. The round clock is read on each request (the time
    moves on, and a round's start is set on the league's round page too) and is part of
    the ETag: an unchanged poll is a 304 before any template is drawn."""
    championship = _read(pk)
    phase = get_object_or_404(Phase, pk=phase_pk, championship=championship)
    phase.championship = championship
    found = kept.key(championship, f"tv{phase.pk}", phase=phase.pk)
    hall: dict[str, Any] = kept.kept(found, lambda: {
        "bracket": pages.bracket_view(phase), "groups": pages.hall_groups(phase)})
    groups = pages.clock(phase, hall["groups"])
    partial = request.GET.get("live") == "1"
    mark = pages.clock_mark(phase, groups)
    live_etag = f'{found.etag[:-1]}-{mark}-p"'
    organiser = not partial and is_organiser(request.user, championship.club)
    etag = live_etag if partial else f'{kept.page_etag(request, found)[:-1]}-{mark}-f{organiser:d}"'
    unchanged = kept.not_modified(request, etag)
    if unchanged is not None:
        return unchanged
    tv_url = reverse("championships:tv", args=[pk, phase_pk])
    context = {
        "championship": championship, "phase": phase, "bracket": hall["bracket"],
        "groups": groups, "panels": pages.hall_panels(groups, hall["bracket"]),
        "poll_url": tv_url + "?live=1", "poll_ms": POLL_MS, "etag": live_etag,
        "organiser": organiser, "tv_url": tv_url,
        "paused": phase.clock_paused_at is not None,
        "started": any(g["deadline"] for g in groups),
    }
    if partial:
        # The same for every visitor (no form, no organiser's button): drawn once for each
        # stamp and clock, not for each of the hall's screens and phones after a result.
        live = kept.Key(f"{found.key}:live", f"{found.digest}-{mark}", live_etag)
        html = kept.kept(live, lambda: render_to_string("championships/_tv_live.html",
                                                        context, request))
        return kept.mark(HttpResponse(html), etag)
    return kept.mark(render(request, "championships/tv.html", context), etag)


CLOCK_ACTIONS = {"start": clock.start, "pause": clock.pause, "reset": clock.reset}


@require_POST
def start_clock(request: HttpRequest, pk: int, phase_pk: int) -> HttpResponse:
    """The round clock's buttons (organisers only, 403 otherwise): ``action`` start (the
    default, and going on after a pause), pause or reset; back to ``next`` (a page of
    this site) or the hall's screen."""
    championship = _championship(pk)
    phase = get_object_or_404(Phase, pk=phase_pk, championship=championship)
    phase.championship = championship
    action = CLOCK_ACTIONS.get(request.POST.get("action", "start"))
    if action is None:
        return _page(request, championship, status=400, error=_(
            "El reloj se empieza, se pausa o se pone a cero."))
    action(phase, by=request.user)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = reverse("championships:tv", args=[pk, phase_pk])
    return redirect(back)


@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's organiser starts a championship (the club's organisers run it)."""
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    form = ChampionshipForm(request.POST or None)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                championship = services.create_championship(
                    club, by=request.user, name=data["name"], seats=data["seats"],
                    min_per_sede=data["min_per_sede"], rules={"juegos": data["juegos"]},
                    round_minutes=data["round_minutes"],
                    entries_close_at=data["entries_close_at"])
            except ChampionshipError as refused:
                error, status = page_message(refused), refused.status
            else:
                return redirect(pages.championship_url(championship))
        else:
            status = 400
    return render(request, "championships/new.html",
                  {"club": club, "form": form, "error": error}, status=status)


@require_POST
def add_sede(request: HttpRequest, pk: int) -> HttpResponse:
    championship = _championship(pk)
    form = SedeForm(request.POST)
    if not form.is_valid():
        return _page(request, championship, error=_errors(form), status=400)
    data = form.cleaned_data
    try:
        with transaction.atomic():
            region = None
            if data["region"].strip():
                region = (championship.regions.filter(name__iexact=data["region"].strip()).first()
                          or services.add_region(championship, by=request.user,
                                                 name=data["region"]))
            services.add_sede_with_club(championship, by=request.user, name=data["name"],
                                        region=region, capacity=data["capacity"])
    except ChampionshipError as error:
        return _page(request, championship, error=page_message(error), status=error.status)
    return redirect(pages.championship_url(championship) + "#sedes")
