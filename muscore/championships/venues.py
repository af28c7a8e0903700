"""A championship made by its club's organisers, its regions and its venues (sedes),
and who runs a venue: its own club's organisers and the championship's."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from muscore.championships import kept
from muscore.championships.entry_text import checked_name
from muscore.championships.errors import ChampionshipError
from muscore.championships.models import Championship, Region, Sede
from muscore.clubs.models import Club
from muscore.clubs.permissions import Actor, is_organiser, require_organiser
from muscore.clubs.services import create_club
from muscore.leagues.compute.document import read_rules
from muscore.leagues.compute.errors import LeagueError
from muscore.messages import league_message


def can_run_sede(user: Actor | None, sede: Sede) -> bool:
    """The venue's organisers and the championship's run a venue."""
    return is_organiser(user, sede.club) or is_organiser(user, sede.championship.club)



def require_sede(user: Actor | None, sede: Sede) -> None:
    """PermissionDenied (403) unless ``user`` runs ``sede``."""
    if not is_organiser(user, sede.championship.club):
        require_organiser(user, sede.club)



@transaction.atomic
def create_championship(
    club: Club, *, by: Actor, name: str, rules: Mapping[str, Any] | None = None, seats: int = 16,
    min_per_sede: int = 1, entries_close_at: datetime | None = None, round_minutes: int = 45,
) -> Championship:
    """A championship organised by ``club``'s organisers, with the table rules of its
    matches (league.md's rules: 3 juegos unless said) and the seats its first phase takes."""
    require_organiser(by, club)
    try:
        table_rules = read_rules(rules)
    except LeagueError as error:
        raise ChampionshipError(league_message(error)) from None
    if seats < 1:
        raise ChampionshipError(_("Las plazas han de ser 1 o más."))
    if not 1 <= round_minutes <= 600:
        raise ChampionshipError(_("El tiempo por partida va de 1 a 600 minutos."))
    return Championship.objects.create(
        club=club, name=checked_name(name, _("el nombre")), rules=table_rules.to_json(),
        seats=seats,
        min_per_sede=min_per_sede, entries_close_at=entries_close_at, round_minutes=round_minutes)



@transaction.atomic
def add_region(championship: Championship, *, by: Actor, name: str) -> Region:
    """A region (a province) of the championship."""
    require_organiser(by, championship.club)
    kept.touch(championship.pk)
    return Region.objects.create(championship=championship, name=checked_name(name, _("el nombre")))



@transaction.atomic
def add_sede(championship: Championship, *, by: Actor, name: str, club: Club,
             region: Region | None = None, capacity: int | None = None) -> Sede:
    """A venue run by ``club``'s organisers (its own, or the championship's club)."""
    require_organiser(by, championship.club)
    if region is not None and region.championship_id != championship.pk:
        raise ChampionshipError(_("La región no es de este campeonato."))
    if capacity is not None and capacity < 2:
        raise ChampionshipError(_("Una sede admite al menos 2 parejas."))
    if championship.entries_closed_at is not None:
        raise ChampionshipError(_("Las inscripciones ya están cerradas."))
    kept.touch(championship.pk)
    return Sede.objects.create(championship=championship, club=club, region=region,
                               name=checked_name(name, _("el nombre")), capacity=capacity)



@transaction.atomic
def add_sede_with_club(championship: Championship, *, by: Actor, name: str,
                       region: Region | None = None, capacity: int | None = None) -> Sede:
    """A venue with a club of its own made for it, organised by ``by`` until he invites the
    bar's people to it (the club's organisers page)."""
    require_organiser(by, championship.club)
    club = create_club(checked_name(name, _("el nombre")), organiser=by)
    return add_sede(championship, by=by, name=name, club=club, region=region, capacity=capacity)
