"""The club pages: clubs, organisers' accounts, players and pairs. Thin function views
over muscore.clubs.services; anyone may look, only a club's organisers change it (403)."""

from __future__ import annotations

from typing import Any

from django.contrib import auth, messages
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.core.exceptions import PermissionDenied
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from muscore import ratelimits
from muscore.clubs import services
from muscore.clubs.forms import ClubForm, InviteForm, NewAccountForm, PairForm, PlayerForm
from muscore.clubs.models import Club, Membership, Pair, Player
from muscore.clubs.permissions import Actor, is_organiser, require_organiser
from muscore.messages import page_message


def _status(*forms: BaseForm) -> int:
    return 400 if any(f.errors for f in forms) else 200


def _next_url(request: HttpRequest, default: str) -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return default


def _organised_club(request: HttpRequest, slug: str) -> Club:
    """The club, if the user organises it; a 403 otherwise (before any form is read)."""
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    return club


# --- accounts -----------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.login_limit
def login(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        auth.login(request, form.get_user())
        return redirect(_next_url(request, reverse("clubs:index")))
    context = {"form": form, "next": _next_url(request, "")}
    return render(request, "clubs/login.html", context, status=_status(form))


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    auth.logout(request)
    return redirect("clubs:index")


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.LOGIN, api=False)
@ratelimits.site_ceiling(ratelimits.SIGNUP, when=lambda request: True)
def set_password(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """An invitation or a new password link: choose a password, and you are logged in (an
    account made by an invitation then organises that club). An invitation to an account
    that has its own password only says to log in and accept it."""
    users = auth.get_user_model().objects
    try:
        user = users.get(pk=urlsafe_base64_decode(uidb64).decode())
    except (ValueError, TypeError, OverflowError, users.model.DoesNotExist):
        user = None
    if user is not None and not services.account_tokens.check_token(user, token) and (
            services.invitation_tokens.check_token(user, token)):
        # An invitation to an account that has its own password: log in and accept it.
        context = {"invitation": True, "account": user,
                   "login_url": f"{reverse('clubs:login')}?next={reverse('clubs:index')}"}
        return render(request, "clubs/set_password.html", context)
    if user is None or not services.account_tokens.check_token(user, token):
        return render(request, "clubs/set_password.html", {"invalid": True}, status=404)
    form = SetPasswordForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        services.accept_created(user)
        auth.login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Contraseña guardada. Ya has entrado."))
        return redirect("clubs:index")
    context = {"form": form, "account": user}
    return render(request, "clubs/set_password.html", context, status=_status(form))


# --- clubs --------------------------------------------------------------------------------------


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    mine: list[Club] = []
    if request.user.is_authenticated:
        mine = list(Club.objects.filter(memberships__user=request.user, memberships__accepted=True))
    others = Club.objects.exclude(pk__in=[c.pk for c in mine])
    context = {
        "mine": mine,
        "clubs": others,
        "invitations": services.pending_invitations(request.user),
    }
    return render(request, "clubs/index.html", context)


@require_POST
@ratelimits.limit(ratelimits.ACCOUNT, api=False, per_account=True)
def answer_invitation(request: HttpRequest, slug: str) -> HttpResponse:
    """The invited account accepts (it organises the club from now on) or declines."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('clubs:login')}?next={reverse('clubs:index')}")
    membership = get_object_or_404(
        Membership, club__slug=slug, user=request.user, accepted=False
    )
    accept = request.POST.get("answer") == "accept"
    services.answer_invitation(membership, accept=accept)
    if accept:
        messages.success(
            request, _("Ya organizas %(club)s.") % {"club": membership.club.name}
        )
        return redirect("clubs:club", slug)
    messages.success(request, _("Invitación rechazada."))
    return redirect("clubs:index")


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.ACCOUNT, api=False, per_account=True)
@ratelimits.site_ceiling(ratelimits.SIGNUP, when=lambda request: request.user.is_anonymous)
def new_club(request: HttpRequest) -> HttpResponse:
    """A new club. Without an account the same form makes one: its first organiser."""
    anonymous = not request.user.is_authenticated
    form = ClubForm(request.POST or None)
    account = NewAccountForm(request.POST or None, prefix="account") if anonymous else None
    if request.method == "POST" and form.is_valid() and (account is None or account.is_valid()):
        name = form.cleaned_data["name"]
        if account is None:
            club = services.create_club(name, organiser=request.user)
            return redirect("clubs:club", club.slug)
        try:
            user, club = services.create_account_and_club(
                name,
                username=account.cleaned_data["username"],
                password=account.cleaned_data["password1"],
            )
        except services.ClubError as error:
            account.add_error("username", page_message(error))
        else:
            auth.login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("clubs:club", club.slug)
    forms = [f for f in (form, account) if f is not None]
    context = {"form": form, "account": account}
    return render(request, "clubs/new.html", context, status=_status(*forms))


def club_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    """What every page of a club knows: the club and whether the reader organises it."""
    return {"club": club, "organiser": is_organiser(request.user, club)}


@require_http_methods(["GET", "HEAD", "POST"])
def edit_club(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organised_club(request, slug)
    form = ClubForm(request.POST or None, initial={"name": club.name}, club=club)
    if request.method == "POST" and form.is_valid():
        services.rename_club(club, form.cleaned_data["name"], by=request.user)
        return redirect("clubs:club", club.slug)
    context = {**club_context(request, club), "form": form}
    return render(request, "clubs/club_form.html", context, status=_status(form))


# --- organisers ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.ACCOUNT, api=False, per_account=True)
def organisers(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's organisers; invite another (a link to set a password, shown once)."""
    club = _organised_club(request, slug)
    form = InviteForm(request.POST or None)
    link = ""
    invited = None
    if request.method == "POST" and form.is_valid():
        try:
            membership, path = services.invite(club, form.cleaned_data["username"], by=request.user)
        except services.ClubError as error:
            form.add_error("username", page_message(error))
        else:
            # One answer whether the username existed or not (issue 21): an invitation and
            # its link, never "that account exists".
            link = request.build_absolute_uri(path)
            invited = membership.user
            messages.success(
                request,
                _(
                    "%(user)s está invitado: será organizador cuando acepte la invitación "
                    "(la verá en la página de clubs al entrar)."
                )
                % {"user": invited.get_username()},
            )
            form = InviteForm()
    context = {
        **club_context(request, club),
        "form": form,
        "link": link,
        "invited": invited,
        "memberships": _memberships(club, request.user),
        "changes": _changes(club),
    }
    return render(request, "clubs/organisers.html", context, status=_status(form))


CHANGE_LIMIT = 100


def _changes(club: Club) -> list[dict[str, object]]:
    """The club's audit, newest first, each record in a few words."""
    labels = {
        "club": _("club"),
        "player": _("jugador"),
        "pair": _("pareja"),
        "organiser": _("organizador"),
    }

    def shown(record: object) -> str:
        if not isinstance(record, dict):
            return "—"
        if "players" in record:
            return f"{record.get('name', '')} ({', '.join(record['players'])})"
        return str(record.get("name") or record.get("user") or "—")

    rows = club.changes.select_related("by").order_by("-at", "-id")[:CHANGE_LIMIT]
    return [
        {
            "at": c.at,
            "by": c.by.get_username() if c.by else "—",
            "what": labels.get(c.what, c.what),
            "before": shown(c.before),
            "after": shown(c.after),
        }
        for c in rows
    ]


def _memberships(club: Club, user: Actor) -> list[dict[str, object]]:
    rows = club.memberships.select_related("user", "invited_by")
    return [{"m": m, "can_reset": services.can_reset_password(m, user),
             "can_resend": services.can_resend_invitation(m, user)} for m in rows]


@require_POST
@ratelimits.limit(ratelimits.ACCOUNT, api=False, per_account=True)
def reset_password(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """A new password link for an organiser one invited (there is no email to send it)."""
    club = _organised_club(request, slug)
    membership = get_object_or_404(Membership, pk=membership_id, club=club)
    try:
        path = services.reset_password_link(membership, by=request.user)
    except services.ClubError as error:
        raise PermissionDenied(page_message(error)) from None
    context = {
        **club_context(request, club),
        "form": InviteForm(),
        "link": request.build_absolute_uri(path),
        "reset_for": membership.user if membership.accepted else None,
        "invited": None if membership.accepted else membership.user,
        "memberships": _memberships(club, request.user),
        "changes": _changes(club),
    }
    return render(request, "clubs/organisers.html", context)


# --- players and pairs --------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def player_form(request: HttpRequest, slug: str, player_id: int | None = None) -> HttpResponse:
    club = _organised_club(request, slug)
    player = get_object_or_404(Player, pk=player_id, club=club) if player_id else None
    initial = {"name": player.name} if player else None
    form = PlayerForm(request.POST or None, initial=initial, club=club, player=player)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_player(club, form.cleaned_data["name"], player, by=request.user)
        except services.ClubError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("Jugador guardado."))
            return redirect(reverse("clubs:club", args=[club.slug]) + "?jugadores=1#jugadores")
    context = {**club_context(request, club), "form": form, "player": player}
    return render(request, "clubs/player_form.html", context, status=_status(form))


@require_http_methods(["GET", "HEAD", "POST"])
def pair_form(request: HttpRequest, slug: str, pair_id: int | None = None) -> HttpResponse:
    club = _organised_club(request, slug)
    pair = get_object_or_404(Pair, pk=pair_id, club=club) if pair_id else None
    initial: dict[str, str] | None = None
    if pair is not None:
        initial = {"name": pair.name}
        for i, name in enumerate(pair.player_names(), start=1):
            initial[f"player{i}"] = name
    form = PairForm(request.POST or None, initial=initial, club=club, pair=pair)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_pair(
                club, form.cleaned_data["name"], form.player_names(), pair, by=request.user
            )
        except services.ClubError as error:
            form.add_error(None, page_message(error))
        else:
            messages.success(request, _("Pareja guardada."))
            if "another" in request.POST:
                return redirect("clubs:new_pair", club.slug)
            return redirect(reverse("clubs:club", args=[club.slug]) + "#parejas")
    context = {
        **club_context(request, club),
        "form": form,
        "pair": pair,
        "known_players": club.players.values_list("name", flat=True),
    }
    return render(request, "clubs/pair_form.html", context, status=_status(form))
