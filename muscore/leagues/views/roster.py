"""The club's roster over time (muscore.leagues.roster): retire or bring back a player or a
pair, and merge two players in one confirmed step. Thin views, organisers only."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from muscore.clubs.models import Club, Pair, Player
from muscore.clubs.permissions import require_organiser
from muscore.clubs.views import club_context
from muscore.idfields import IdChoiceField
from muscore.leagues import roster
from muscore.leagues.views import competitions as league
from muscore.messages import page_message
from muscore.text import sorted_by_name


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    return club


def _retire(request: HttpRequest, item: Player | Pair, anchor: str) -> HttpResponse:
    """Off the club's lists and new draws (retired=1), or back on them (retired=0). A pair
    or player a championship's draw placed is refused (409, the club's page saying why)."""
    try:
        roster.set_retired(item, request.POST.get("retired") == "1", by=request.user)
    except roster.RetireRefused as error:
        messages.error(request, page_message(error))
        return league.club_page(request, item.club, status=409)
    return redirect(reverse("clubs:club", args=[item.club.slug]) + anchor)


@require_POST
def retire_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, club=_club(request, slug))
    return _retire(request, player, "?jugadores=1#jugadores")


@require_POST
def retire_pair(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    return _retire(request, get_object_or_404(Pair, pk=pair_id, club=_club(request, slug)),
                   "#parejas")


class MergeForm(forms.Form):
    """Who `gone` really is, and the organiser's yes."""

    keep = IdChoiceField(label=gettext_lazy("Es la misma persona que"),
                                  queryset=Player.objects.none())
    confirm = forms.BooleanField(
        label=gettext_lazy("Sí, son la misma persona: fusionarlos"), required=True)

    def __init__(self, *args: object, gone: Player, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["keep"]
        assert isinstance(field, forms.ModelChoiceField)
        others = Player.objects.filter(club_id=gone.club_id).exclude(pk=gone.pk)
        field.queryset = others
        field.choices = [("", "---------")] + [
            (p.pk, p.name) for p in sorted_by_name(others, lambda p: p.name)]


@require_http_methods(["GET", "HEAD", "POST"])
def merge(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Merge this player into another of the club (one confirmed step)."""
    club = _club(request, slug)
    gone = get_object_or_404(Player, pk=player_id, club=club)
    form = MergeForm(request.POST if request.method == "POST" else None, gone=gone)
    if request.method == "POST" and form.is_valid():
        keep = form.cleaned_data["keep"]
        try:
            roster.merge_players(keep, gone, by=request.user)
        except roster.MergeRefused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("%(gone)s es ahora %(keep)s: sus parejas, partidas, "
                                        "nivel y estadísticas están juntos.")
                             % {"gone": gone.name, "keep": keep.name})
            return redirect("clubs:player", slug=club.slug, player_id=keep.pk)
    context = {**club_context(request, club), "gone": gone, "form": form}
    return render(request, "leagues/merge.html", context, status=400 if form.errors else 200)
