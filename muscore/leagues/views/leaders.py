"""The club's leaders: what the hands say about its players and pairs, for the club's wall.

`/club/<slug>/lideres/` ranks the stored counts (muscore.leagues.stats_store): every
board is drawn from two grouped queries, whatever the size of the club, and nothing is
replayed. The share boards (a lance's piedras as a part of all the piedras won in
lances) only rank those with MIN_MATCHES matches or more; the page says so.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from muscore.clubs.models import Club
from muscore.clubs.views import club_context
from muscore.leagues import names, part_of, stats_store
from muscore.leagues.models import Competition
from muscore.leagues.views.players import player_url

#: Each board's title and what it counts, by stat.
TITLES = {
    "ordagos_won": (_("Órdagos ganados"), _("Órdagos echados que les quisieron y ganaron.")),
    "juegos_ordago": (_("Juegos ganados a órdago"),
                      _("Juegos ganados con un órdago querido, lo echara quien lo echara.")),
    "ordagos": (_("Órdagos echados"), _("Quieran o no quieran.")),
    "envites": (_("Envites"), _("Envidos y subidas, sin contar los órdagos.")),
    "envites_accepted": (_("Envites queridos"), _("Envites a los que les dijeron quiero.")),
    "dejes_taken": (_("Dejes cobrados"), _("Las piedras de un no quiero, cobradas al momento.")),
    "dejes_given": (_("Dejes dados"), _("Veces que no quisieron y pagaron el deje.")),
    "grande": (_("Grande"), _("Lances de grande ganados, también con un deje.")),
    "chica": (_("Chica"), _("Lances de chica ganados, también con un deje.")),
    "pares": (_("Pares"), _("Lances de pares cobrados.")),
    "juego": (_("Juego"), _("Lances de juego cobrados.")),
    "punto": (_("Punto"), _("Lances de punto ganados.")),
    "piedras_grande": (_("La grande en sus piedras"),
                       _("Qué parte de sus piedras de los lances sacan a la grande.")),
    "piedras_chica": (_("La chica en sus piedras"),
                      _("Qué parte de sus piedras de los lances sacan a la chica.")),
    "piedras_pares": (_("Los pares en sus piedras"),
                      _("Qué parte de sus piedras de los lances sacan a los pares.")),
    "piedras_juego": (_("El juego en sus piedras"),
                      _("Qué parte de sus piedras de los lances sacan al juego.")),
    "piedras_punto": (_("El punto en sus piedras"),
                      _("Qué parte de sus piedras de los lances sacan al punto.")),
}


@require_safe
def leaders(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's leaders in every stat of the hands, players and pairs (?liga=<id>: in
    one of its competitions)."""
    club = get_object_or_404(Club, slug=slug)
    competitions = list(Competition.objects.filter(club=club).exclude(
        status=Competition.Status.IMPORTING).order_by("-created_at", "-pk")
                        .values_list("pk", "name", "archived", "made"))
    chosen = request.GET.get("liga", "")
    if chosen and not (chosen.isdigit() and int(chosen) in {c[0] for c in competitions}):
        raise Http404("no such competition in this club")
    competition_id = int(chosen) if chosen else None
    found = stats_store.leaders(club, competition_id)
    for board in found["boards"]:
        for leader in board["players"]:
            leader.url = player_url(club, leader.pk)
    boards = [{**board, "title": TITLES[board["stat"]][0], "help": TITLES[board["stat"]][1],
               "players_and_pairs": ((_("Jugadores"), board["players"]),
                                     (_("Parejas"), board["pairs"]))}
              for board in found["boards"]]
    context = {
        **club_context(request, club),
        "boards": boards,
        "matches": found["matches"],
        "min_matches": stats_store.MIN_MATCHES,
        # A season's leaders: one competition's matches (?liga=<id>), or all of them.
        # An archived one is off the list (its link still answers, for the record), and so
        # is a championship's heat, group or game (its championship's pages list them).
        "competitions": picker(competitions, competition_id),
        "all_competitions": competition_id is None,
    }
    return render(request, "leagues/leaders.html", context)


def picker(competitions: list[tuple[int, str, bool, Any]],
           chosen: int | None) -> list[dict[str, Any]]:
    """The competitions the leaders' filter offers: the club's own leagues on the lists,
    and the one chosen; none when there is nothing to choose between."""
    if len(competitions) <= 1:
        return []
    parts = part_of.parts([pk for pk, *_rest in competitions])
    return [{"pk": pk, "name": names.made_name(made) or name, "current": pk == chosen}
            for pk, name, archived, made in competitions
            if pk == chosen or not (archived or pk in parts)]
