"""A championship's business logic: venues, entries, quotas, heats' qualifiers, phases.

- ``create_championship(club, *, by, name, ...)``, ``add_region``, ``add_sede``
- ``enter_pair(sede, *, name, players, contact, by=None)``: the public form or the bar's
  organiser; one person, one pair; a full venue puts the pair on its waiting list
- ``close_entries(championship, *, by)``: the quotas (the pure
  :func:`~muscore.championships.compute.quotas.compute_quotas`) on the pairs entered then
- ``start_heat(sede, *, by, ...)``: the venue's heat, a competition of its club
- ``qualified(championship)``: each finished heat's qualified pairs and reserves
- ``draw_phase(phase, *, by, seed)``: the pure seeded draw into groups, each a liguilla
- ``withdraw(enrolment, *, by)``: a withdrawn pair's place goes to the next reserve

Results are never written here: a heat's and a group's matches are league matches, played
through :mod:`muscore.leagues.results` (its pages, tables, links). Every write checks
its organiser (PermissionDenied, a 403) and runs in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.championships import clock, kept, knockout, stages
from muscore.championships.compute.draw import DrawError, DrawPair, draw_groups, group_winners
from muscore.championships.compute.quotas import QuotaError, Quotas, compute_quotas
from muscore.championships.compute.quotas import Sede as QuotaSede
from muscore.championships.entry_text import checked_contact, checked_name, fold
from muscore.championships.errors import ChampionshipError as ChampionshipError
from muscore.championships.models import (
    Championship,
    Enrolment,
    Phase,
    PhaseGroup,
    Region,
    Sede,
)
from muscore.championships.pairs import acting, heat_pair, make_phase_pairs, phase_pair
from muscore.clubs.models import Club, Pair
from muscore.clubs.permissions import Actor, is_organiser, require_organiser, stored_user
from muscore.clubs.services import create_club
from muscore.leagues import changes, competitions, draw_plan, names
from muscore.leagues.compute.document import read_rules
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.models import Competition, Entry, Match
from muscore.leagues.models.knockout import game_title
from muscore.leagues.results import final
from muscore.leagues.rows import insert_rows
from muscore.messages import league_message, page_message


def can_run_sede(user: Actor | None, sede: Sede) -> bool:
    """The venue's organisers and the championship's run a venue."""
    return is_organiser(user, sede.club) or is_organiser(user, sede.championship.club)


def require_sede(user: Actor, sede: Sede) -> None:
    """PermissionDenied (403) unless ``user`` runs ``sede``."""
    if not is_organiser(user, sede.championship.club):
        require_organiser(user, sede.club)


# ------------------------------------------------------------------- the championship


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


def entries_open(championship: Championship, now: datetime | None = None) -> bool:
    """Entries are open until closed by hand or past their closing time."""
    now = now or timezone.now()
    if championship.entries_closed_at is not None:
        return False
    return championship.entries_close_at is None or now < championship.entries_close_at


# ----------------------------------------------------------------------------- entries


@transaction.atomic
def enter_pair(sede: Sede, *, name: str, players: Sequence[str], contact: str = "",
               by: Actor | None = None, paid: bool = False,
               now: datetime | None = None) -> Enrolment:
    """Enter a pair at ``sede``: from the public form (``by`` anonymous: never paid, and
    PENDING until confirmed) or by the venue's organiser (confirmed at once). One person,
    one pair in the championship; past the venue's capacity the pair goes on its waiting
    list (``status`` says which)."""
    organiser = getattr(by, "is_authenticated", False) and can_run_sede(by, sede)
    # One lock per championship: two entries naming one person cannot both pass.
    championship = Championship.objects.select_for_update().get(pk=sede.championship_id)
    if not entries_open(championship, now):
        raise ChampionshipError(_("Las inscripciones de %(championship)s están cerradas.")
                                % {"championship": championship.name})
    name = checked_name(name, _("el nombre de la pareja"))
    if len(players) != 2:
        raise ChampionshipError(_("Una pareja son dos jugadores."))
    first = checked_name(players[0], _("el primer jugador"), person=True)
    second = checked_name(players[1], _("el segundo jugador"), person=True)
    keys = [fold(first), fold(second)]
    if keys[0] == keys[1]:
        raise ChampionshipError(_("Los dos jugadores no pueden ser la misma persona."))
    contact = checked_contact(contact)
    person_taken(championship, keys)
    name_taken(sede, name)
    kept.touch(championship.pk)
    # The public form's entry holds no seat until the venue's organiser (or the pair, with
    # the link he sends it) confirms it (muscore.championships.confirm); the organiser's own
    # is confirmed as he enters it.
    return Enrolment.objects.create(
        championship=championship, sede=sede, name=name, player_a=first, player_b=second,
        key_a=keys[0], key_b=keys[1], contact=contact, paid=bool(paid and organiser),
        status=seat_status(sede) if organiser else Enrolment.Status.PENDING,
        confirmed_at=(now or timezone.now()) if organiser else None,
        entered_by=stored_user(by) if organiser else None)


#: The entries that hold a seat or a place on the waiting list, and their players.
CONFIRMED = (Enrolment.Status.ENTERED, Enrolment.Status.WAITING)


def name_taken(sede: Sede, name: str, besides: int | None = None) -> None:
    """ChampionshipError if a pair of ``sede`` (other than ``besides``) holds ``name``
    (whatever its case): a confirmed one, or one withdrawn. An entry waiting for its
    confirmation, or rejected, holds no name (issue 40: a false "Los Txapeldunes" kept
    the venue's organiser from entering his own, even once rejected); the first of two
    such entries confirmed takes it (Enrolment.NAME_HELD, the database's constraint)."""
    if (Enrolment.objects.filter(sede=sede, name__iexact=name, status__in=Enrolment.NAME_HELD)
            .exclude(pk=besides or 0).exists()):
        raise ChampionshipError(_("Ya hay una pareja llamada %(pair)s en %(sede)s.")
                                % {"pair": name, "sede": sede.name})


def person_taken(championship: Championship, keys: Sequence[str],
                 besides: int | None = None) -> None:
    """ChampionshipError naming the pair and venue if a person of ``keys`` is in a confirmed
    entry of the championship (other than ``besides``): one person, one pair. An entry
    waiting for its confirmation holds nobody: a false one cannot keep a player out."""
    taken = (Enrolment.objects.filter(championship=championship, status__in=CONFIRMED)
             .exclude(pk=besides or 0).select_related("sede"))
    for key in keys:
        other = taken.filter(key_a=key).first() or taken.filter(key_b=key).first()
        if other is not None:
            person = other.player_a if other.key_a == key else other.player_b
            raise ChampionshipError(
                _("%(person)s ya juega en la pareja %(pair)s (%(sede)s): una persona, una "
                  "pareja.") % {"person": person, "pair": other.name, "sede": other.sede.name})


def seat_status(sede: Sede) -> str:
    """ENTERED while the venue has room, else WAITING (its waiting list)."""
    entered = sede.enrolments.filter(status=Enrolment.Status.ENTERED).count()
    full = sede.capacity is not None and entered >= sede.capacity
    return Enrolment.Status.WAITING if full else Enrolment.Status.ENTERED


@transaction.atomic
def mark_paid(enrolment: Enrolment, *, by: Actor, paid: bool = True) -> Enrolment:
    """The fee paid (or not) at the bar."""
    require_sede(by, enrolment.sede)
    enrolment.paid = paid
    enrolment.save(update_fields=["paid"])
    kept.touch(enrolment.championship_id)
    return enrolment


@transaction.atomic
def withdraw(enrolment: Enrolment, *, by: Actor) -> Enrolment:
    """A pair withdraws. Before the entries close the first of its venue's waiting list
    takes its place; after a phase is drawn its place goes to the next reserve (of its
    venue at level 1, of the group it came from after): in a group that has not started
    (a group that has keeps it: its matches are no-shows), or in a knockout while it has
    played no game there (once it has, the withdrawal is refused: record its no-show)."""
    require_sede(by, enrolment.sede)
    enrolment = Enrolment.objects.select_for_update().select_related(
        "championship__club", "sede").get(pk=enrolment.pk)
    if enrolment.status == Enrolment.Status.WITHDRAWN:
        raise ChampionshipError(_("%(pair)s ya se ha retirado.") % {"pair": enrolment.name})
    was_entered = enrolment.status == Enrolment.Status.ENTERED
    enrolment.status = Enrolment.Status.WITHDRAWN
    enrolment.save(update_fields=["status"])
    kept.touch(enrolment.championship_id)
    championship = enrolment.championship
    if was_entered and championship.entries_closed_at is None:
        waiting = enrolment.sede.enrolments.filter(status=Enrolment.Status.WAITING).first()
        if waiting is not None:
            waiting.status = Enrolment.Status.ENTERED
            waiting.save(update_fields=["status"])
    phase = latest_phase_of(enrolment)
    if phase is not None and phase.knockout:
        _replace_in_bracket(enrolment, phase)
    elif phase is not None:
        _replace_in_group(enrolment, phase)
    return enrolment


def placed_in(phase: Phase) -> set[int]:
    """The enrolments a drawn phase holds (its groups, or its bracket)."""
    draw = phase.draw or {}
    if phase.knockout:
        return {k for k in draw.get("bracket", []) if k is not None}
    return {k for group in draw.get("groups", []) for k in group}


def latest_phase_of(enrolment: Enrolment) -> Phase | None:
    """The last drawn phase that holds the pair, or None."""
    if enrolment.phase_pair_id is None:
        return None
    for phase in (enrolment.championship.phases.exclude(drawn_at=None)
                  .order_by("-level", "-id")):
        if enrolment.pk in placed_in(phase):
            return phase
    return None


def next_reserve(enrolment: Enrolment, phase: Phase) -> Enrolment | None:
    """Who takes a withdrawn pair's place in ``phase``: the first pair not withdrawn and
    not already in the phase in the order it came from (its venue's heat at level 1, its
    group of the level before after that), or None."""
    championship = enrolment.championship
    order: list[Enrolment] = []
    if phase.level == 1:
        heat = qualified(championship).get(enrolment.sede_id)
        order = (heat.qualified + heat.reserves) if heat else []
    else:
        group = (PhaseGroup.objects.filter(
            phase__championship=championship, phase__level=phase.level - 1,
            competition__entries__pair_id=enrolment.phase_pair_id or 0)
            .select_related("competition").first())
        if group is not None and group.competition.status == Competition.Status.FINISHED:
            by_pair = {e.phase_pair_id: e for e in championship.enrolments.filter(
                phase_pair__isnull=False).select_related("sede")}
            pair_of = dict(group.competition.entries.values_list("index", "pair_id"))
            order = [by_pair[pair_of[i]] for i in final.order(group.competition)]
    placed = placed_in(phase)
    return next((e for e in order if e.pk not in placed
                 and e.status != Enrolment.Status.WITHDRAWN), None)


def _record_replacement(phase: Phase, out: Enrolment, into: Enrolment) -> None:
    draw = dict(phase.draw or {})
    if phase.knockout:
        draw["bracket"] = [into.pk if k == out.pk else k for k in draw["bracket"]]
    else:
        draw["groups"] = [[into.pk if k == out.pk else k for k in group]
                          for group in draw["groups"]]
    draw.setdefault("replaced", []).append({"out": out.pk, "in": into.pk})
    phase.draw = draw
    phase.save(update_fields=["draw"])


def _replace_in_group(enrolment: Enrolment, phase: Phase) -> None:
    entry = (Entry.objects.filter(pair_id=enrolment.phase_pair_id or 0,
                                  competition__phase_group__phase=phase)
             .select_related("competition").first())
    if entry is None or entry.competition.matches.played().exists():
        return  # its group has started: it stays, its matches are no-shows
    nxt = next_reserve(enrolment, phase)
    if nxt is None:
        return
    entry.pair = phase_pair(nxt)
    entry.save(update_fields=["pair"])
    _record_replacement(phase, enrolment, nxt)
    competitions.touch_pairs([entry.pair_id])


def _replace_in_bracket(enrolment: Enrolment, phase: Phase) -> None:
    entry = Entry.objects.filter(pair_id=enrolment.phase_pair_id or 0,
                                 competition__phase_group__phase=phase).first()
    if entry is None:
        return
    played = (Match.objects.filter(Q(first=entry) | Q(second=entry)).played()
              .select_related("competition", "tie").order_by("number").first())
    if played is not None:
        raise ChampionshipError(
            _("%(pair)s ya ha jugado en %(phase)s (%(game)s): una reserva no puede ocupar su "
              "sitio. Anota su incomparecencia en su partida.")
            % {"pair": enrolment.name, "phase": phase.name,
               "game": game_title(played.competition, played.tie, played.game)})
    nxt = next_reserve(enrolment, phase)
    if nxt is None:
        return  # no reserve left: its tie stays, the organiser records the no-show
    entry.pair = phase_pair(nxt)  # its ties and games, none played, are the reserve's
    entry.save(update_fields=["pair"])
    _record_replacement(phase, enrolment, nxt)
    competitions.touch_pairs([nxt.phase_pair_id or 0])


# ------------------------------------------------------------------------------ quotas


def quota_sedes(championship: Championship) -> tuple[list[Sede], list[int]]:
    """The venues in order and the pairs entered at each (waiting and withdrawn left out)."""
    sedes = list(championship.sedes.all())
    counts = dict(Enrolment.objects.filter(championship=championship,
                                           status=Enrolment.Status.ENTERED)
                  .values("sede_id").annotate(n=Count("id")).values_list("sede_id", "n"))
    return sedes, [counts.get(s.pk, 0) for s in sedes]


@transaction.atomic
def close_entries(championship: Championship, *, by: Actor,
                  now: datetime | None = None) -> Quotas:
    """Close the entries and share the seats among the venues (championship.md): stored
    with their arithmetic, shown on the championship's page. Refused whole if the
    contract refuses the figures (nothing closed)."""
    require_organiser(by, championship.club)
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if championship.entries_closed_at is not None:
        raise ChampionshipError(_("Las inscripciones ya están cerradas."))
    sedes, counts = quota_sedes(championship)
    try:
        quotas = compute_quotas(
            championship.seats, [QuotaSede(s.name, n) for s, n in zip(sedes, counts, strict=True)],
            championship.min_per_sede)
    except QuotaError as error:
        raise ChampionshipError(page_message(error)) from None
    championship.entries_closed_at = now or timezone.now()
    championship.quotas = {
        "seats": quotas.seats, "min_per_sede": quotas.min_per_sede, "total": quotas.total,
        "left": quotas.left,
        "rows": [{"sede": sede.pk, "name": row.name, "pairs": row.pairs, "minimum": row.minimum,
                  "share": row.share, "remainder": row.remainder, "extra": row.extra,
                  "seats": row.seats} for sede, row in zip(sedes, quotas.rows, strict=True)],
    }
    championship.save(update_fields=["entries_closed_at", "quotas"])
    kept.touch(championship.pk)
    for sede, row in zip(sedes, quotas.rows, strict=True):
        sede.quota = row.seats
    Sede.objects.bulk_update(sedes, ["quota"], batch_size=500)  # one write for 250 venues
    return quotas


# ------------------------------------------------------------------------------- heats


@transaction.atomic
def start_heat(sede: Sede, *, by: Actor, format: str = Competition.Format.LIGUILLA,
               groups: int = 2, ceros: int = 3, legs: int = 1,
               draw: Sequence[int] | None = None) -> Competition:
    """The venue's heat: a competition of its club with the pairs entered (in the order
    they entered), played and drawn on the club's competition pages like any other."""
    require_sede(by, sede)
    sede = Sede.objects.select_for_update().select_related("championship", "club").get(
        pk=sede.pk)
    if sede.championship.entries_closed_at is None:
        raise ChampionshipError(_("Cierra las inscripciones antes de empezar una fase previa."))
    if sede.heat_id is not None:
        raise ChampionshipError(_("La fase previa de %(sede)s ya ha empezado.")
                                % {"sede": sede.name})
    enrolments = list(sede.enrolments.filter(status=Enrolment.Status.ENTERED)
                      .select_related("championship", "sede__club"))
    if len(enrolments) < 2:
        raise ChampionshipError(_("%(sede)s no tiene parejas suficientes para jugar (%(n)s).")
                                % {"sede": sede.name, "n": len(enrolments)})
    pairs = [heat_pair(e, by) for e in enrolments]
    try:
        heat = competitions.create_competition(
            sede.club, by=acting(by, sede.club), name=f"{sede.championship.name} · {sede.name}",
            pairs=pairs, format=format, groups=groups, ceros=ceros, legs=legs,
            rules=sede.championship.rules, draw=draw)
    except changes.CompetitionError as error:
        raise ChampionshipError(str(error)) from None
    sede.heat = heat
    sede.save(update_fields=["heat"])
    stages.of_heat(sede, heat)
    kept.touch(sede.championship_id)
    return heat


@dataclass
class HeatQualifiers:
    """A venue's qualified pairs (its quota, the best of its heat not withdrawn) and its
    reserves in order, once its heat is finished."""

    sede: Sede
    qualified: list[Enrolment] = field(default_factory=list)
    reserves: list[Enrolment] = field(default_factory=list)


def qualified(championship: Championship,
              sede_ids: Sequence[int] | None = None) -> dict[int, HeatQualifiers]:
    """Each venue whose heat is finished (of ``sede_ids`` only, if given: a page of
    venues): its qualified pairs and reserves. A fixed number of queries: each heat's
    final order is kept on it for its revision by the result that finished it
    (muscore.leagues.results.final); nothing is written."""
    out: dict[int, HeatQualifiers] = {}
    found = championship.sedes.filter(heat__status=Competition.Status.FINISHED)
    entered = Enrolment.objects.filter(championship=championship, heat_pair__isnull=False)
    if sede_ids is not None:
        found, entered = found.filter(pk__in=sede_ids), entered.filter(sede_id__in=sede_ids)
    sedes = list(found.select_related("heat", "region"))
    enrolments = {e.heat_pair_id: e for e in entered}
    pair_of: dict[int, dict[int, int]] = {}
    for competition_id, index, pair_id in Entry.objects.filter(
            competition_id__in=[s.heat_id for s in sedes]).values_list(
            "competition_id", "index", "pair_id"):
        pair_of.setdefault(competition_id, {})[index] = pair_id
    for sede in sedes:
        assert sede.heat is not None
        pairs = pair_of.get(sede.heat.pk, {})
        order = [enrolments[pairs[i]] for i in final.order(sede.heat)
                 if pairs.get(i) in enrolments]
        for enrolment in order:
            enrolment.sede = sede  # loaded once per venue, not once per pair
        withdrawn = {e.pk for e in order if e.status == Enrolment.Status.WITHDRAWN}
        present = [e for e in order if e.pk not in withdrawn]
        seats = sede.quota or 0
        out[sede.pk] = HeatQualifiers(sede, present[:seats], present[seats:])
    return out


# ------------------------------------------------------------------------------ phases


@transaction.atomic
def add_phase(championship: Championship, *, by: Actor, name: str, level: int = 1,
              region: Region | None = None, advance: int = 2, knockout: bool = False,
              best_of: int = 1, third_place: bool = False) -> Phase:
    """A phase: level 1 draws the heats' qualified (its region's venues' only, if it has
    one); level n the pairs going on from the groups of level n - 1 (of its region).
    ``knockout`` makes it the last phase as a bracket, each tie one vaca (``best_of`` 1)
    or the best of 3, with a match for third place if ``third_place``."""
    require_organiser(by, championship.club)
    if best_of not in (1, 3):
        raise ChampionshipError(_("Una eliminatoria se juega a una vaca o al mejor de 3."))
    if championship.phases.filter(knockout=True, level__lt=level).exists() or (
            knockout and championship.phases.filter(level__gt=level).exists()):
        raise ChampionshipError(_("La eliminatoria es la última fase."))
    if level < 1:
        raise ChampionshipError(_("El nivel de una fase es 1 o más."))
    if advance < 1:
        raise ChampionshipError(_("De cada grupo pasa al menos una pareja."))
    if region is not None and region.championship_id != championship.pk:
        raise ChampionshipError(_("La región no es de este campeonato."))
    kept.touch(championship.pk)
    phase = Phase.objects.create(
        championship=championship, name=checked_name(name, _("el nombre")), level=level,
        region=region, advance=advance, knockout=knockout, best_of=best_of,
        third_place=third_place and knockout)
    stages.of_phase(phase)
    return phase


def phase_field(phase: Phase) -> list[tuple[Enrolment, int | None]]:
    """The pairs a phase draws, with their seed rank: level 1 the heats' qualified
    (every heat winner seeded before any runner-up), else the groups' best of the level
    before. Raises :class:`ChampionshipError` while any of those is still playing."""
    championship = phase.championship
    if phase.level == 1:
        sedes = championship.sedes.all()
        if phase.region_id is not None:
            sedes = sedes.filter(region_id=phase.region_id)
        waiting = [s.name for s in sedes.select_related("heat")
                   if s.heat is None or s.heat.status != Competition.Status.FINISHED]
        if championship.entries_closed_at is None:
            raise ChampionshipError(_("Las inscripciones siguen abiertas."))
        if waiting:
            raise ChampionshipError(
                _("Las fases previas no han terminado: %(sedes)s.") % {"sedes": ", ".join(
                    waiting[:10]) + ("…" if len(waiting) > 10 else "")})
        heats = qualified(championship)
        ranked: list[tuple[int, int, Enrolment]] = []
        for order, sede in enumerate(sedes):
            for place, enrolment in enumerate(heats[sede.pk].qualified):
                ranked.append((place, order, enrolment))
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [(e, rank + 1 if place == 0 else None)
                for rank, (place, _o, e) in enumerate(ranked)]
    before = championship.phases.filter(level=phase.level - 1)
    if phase.region_id is not None:
        before = before.filter(region_id=phase.region_id)
    before_list = list(before)
    if not before_list:
        raise ChampionshipError(_("No hay fase anterior de nivel %(level)s.")
                                % {"level": phase.level - 1})
    going: list[tuple[Enrolment, int | None]] = []
    by_pk = {e.pk: e for e in championship.enrolments.select_related("sede")}
    for previous in before_list:
        orders = phase_group_orders(previous)
        if orders is None:
            raise ChampionshipError(_("La fase %(phase)s no ha terminado.")
                                    % {"phase": previous.name})
        going += [(by_pk[int(str(key))], rank) for key, rank in
                  group_winners([[e.pk for e in order] for order in orders], previous.advance)]
    # Group winners first (their rank), then runners-up: the next draw's seeds.
    going.sort(key=lambda pair: pair[1] or 0)
    return [(e, rank + 1) for rank, (e, _s) in enumerate(going)
            if e.status != Enrolment.Status.WITHDRAWN]


def phase_group_orders(phase: Phase) -> list[list[Enrolment]] | None:
    """Each group's final order (enrolments), or None while a group is playing (a
    knockout has no groups: its order is its bracket)."""
    if phase.knockout:
        return None
    groups = list(phase.groups.select_related("competition"))
    if not groups or any(g.competition.status != Competition.Status.FINISHED for g in groups):
        return None
    by_pair = {e.phase_pair_id: e for e in phase.championship.enrolments.filter(
        phase_pair__isnull=False)}
    orders = []
    for group in groups:
        pair_of = dict(group.competition.entries.values_list("index", "pair_id"))
        orders.append([by_pair[pair_of[i]] for i in final.order(group.competition)])
    return orders


@dataclass
class _PhaseDraw:
    """A phase's draw worked out before its transaction: the stamp of what it was worked
    out from (kept.stamp: entries, heats' and groups' results, withdrawals), the field
    (enrolments and their seeds) and, for groups, the pure draw and each group's pairs."""

    stamp: str
    pairs: list[tuple[Enrolment, int | None]]
    drawn: list[DrawPair] = field(default_factory=list)
    groups: list[list[Pair]] = field(default_factory=list)
    members: competitions.Members = field(default_factory=dict)
    keys: list[list[int]] = field(default_factory=list)
    liguillas: draw_plan.Liguillas | None = None  # the groups' rows, prepared


def draw_phase(phase: Phase, *, by: Actor, seed: str) -> Phase:
    """Draw the phase's pairs into groups of 4 (the pure seeded draw, recorded with its
    seed and the pairs in the order given, so anyone can make it again), each group a
    liguilla of the championship's club with its fixtures at once.

    In pieces, so that no transaction holds SQLite's one write lock (or the phase's and
    the championship's rows on PostgreSQL) long (issue 28: a phase of 448 pairs held it
    0.63-1.24 s): the field and the draw are read and worked out first, outside any
    transaction; the pairs the championship's club lacks are made in a short one of their
    own (made once: a draw refused after it finds them made); then one transaction writes
    the groups, their fixtures and the phase's draw from rows worked out already, and
    works the draw out again inside only if the championship changed meanwhile."""
    phase = Phase.objects.select_related("championship").get(pk=phase.pk)  # as it is now
    championship = phase.championship
    require_organiser(by, championship.club)
    if phase.drawn_at is not None:
        raise ChampionshipError(_("El sorteo de %(phase)s ya está hecho.") % {"phase": phase.name})
    seed = (seed or "").strip()
    if not seed or len(seed) > 100:
        raise ChampionshipError(_("El sorteo necesita una semilla (hasta 100 caracteres)."))
    planned = _plan_phase(phase, seed, by)
    if connection.vendor != "sqlite" and not phase.knockout:
        # Rows are locked here, not the database: the groups' new rows first, the phase's
        # and the championship's rows last, for the moment of the commit (they were held
        # 0.8 s at load 12 while 112 groups were written). Changed meanwhile: again below.
        try:
            assert planned.liguillas is not None
            with transaction.atomic():
                groups = draw_plan.write_liguillas(planned.liguillas)
                if _stamp(championship) != planned.stamp:
                    raise _Changed
                phase = _locked_undrawn(phase)
                _write_phase(phase, planned, seed, by, groups)
                kept.touch(championship.pk)
            return phase
        except _Changed:
            pass
    with transaction.atomic():
        phase = _locked_undrawn(phase)
        if _stamp(championship) != planned.stamp:  # changed meanwhile: again, inside
            planned = _plan_phase(phase, seed, by)
        _write_phase(phase, planned, seed, by)
        kept.touch(championship.pk)  # last: the championship's row is locked till commit
    return phase


class _Changed(Exception):
    """The championship changed while its phase's draw was written (PostgreSQL)."""


def _locked_undrawn(phase: Phase) -> Phase:
    phase = Phase.objects.select_for_update().get(pk=phase.pk)
    if phase.drawn_at is not None:
        raise ChampionshipError(_("El sorteo de %(phase)s ya está hecho.") % {"phase": phase.name})
    return phase


def _stamp(championship: Championship) -> str:
    """The championship's stamp as the database has it now (not as its instance was read)."""
    return kept.stamp(Championship.objects.get(pk=championship.pk))


def _plan_phase(phase: Phase, seed: str, by: Actor) -> _PhaseDraw:
    """The phase's field, its pairs in the championship's club (made in a transaction of
    their own when some lack one) and, for groups, the draw and each group's pairs with
    their players, all read before the draw's transaction."""
    championship = phase.championship
    stamp = _stamp(championship)
    pairs = phase_field(phase)
    if any(e.status == Enrolment.Status.WITHDRAWN for e, _s in pairs):
        raise ChampionshipError(_("Una pareja retirada no puede entrar en un grupo."))
    if any(e.phase_pair_id is None for e, _s in pairs):
        with transaction.atomic():
            # Two draws at once make each pair once: the phase's row first, then the
            # enrolments' pairs as they are now.
            Phase.objects.select_for_update().filter(pk=phase.pk).first()
            made = dict(Enrolment.objects.filter(pk__in=[e.pk for e, _s in pairs])
                        .values_list("pk", "phase_pair_id"))
            for enrolment, _s in pairs:
                enrolment.phase_pair_id = made[enrolment.pk]
            make_phase_pairs(championship, [e for e, _s in pairs], by)
    planned = _PhaseDraw(stamp, pairs)
    if phase.knockout:
        return planned
    region_of = {s.pk: s.region.name if s.region else None
                 for s in championship.sedes.select_related("region")}
    planned.drawn = [DrawPair(e.pk, str(e.sede_id), region_of.get(e.sede_id), s)
                     for e, s in pairs]
    try:
        draw = draw_groups(planned.drawn, seed)
    except DrawError as error:
        raise ChampionshipError(
            _("No se puede sortear %(phase)s: %(n)s parejas.") % {"phase": phase.name,
                                                                 "n": len(pairs)}) from error
    # Every pair read at once (a pair made in an earlier phase is not loaded on its entry).
    pair_of = Pair.objects.in_bulk([e.phase_pair_id for e, _s in pairs])
    by_pk = {e.pk: pair_of[e.phase_pair_id or 0] for e, _s in pairs}
    planned.keys = [[int(str(k)) for k in keys] for keys in draw.groups]
    planned.groups = [[by_pk[k] for k in keys] for keys in planned.keys]
    planned.members = competitions.pair_members(list(by_pk.values()))
    try:
        planned.liguillas = competitions.plan_liguillas(
            championship.club, by=by, rules=championship.rules, draw_method="phase",
            members=planned.members,
            leagues=[(names.stored_name(names.group_parts(phase.name, number)), pairs)
                     for number, pairs in enumerate(planned.groups, 1)],
            made=[names.group_parts(phase.name, number)
                  for number in range(1, len(planned.groups) + 1)])
    except changes.CompetitionError as error:
        raise ChampionshipError(str(error)) from None
    return planned


def _write_phase(phase: Phase, planned: _PhaseDraw, seed: str, by: Actor,
                 groups: list[Competition] | None = None) -> None:
    """The draw's writes, in the caller's transaction: a knockout's bracket, or the
    groups from their rows prepared before it (`draw_plan.write_liguillas`: a phase of
    112 groups in a fixed number of plain inserts; `groups` when written already)."""
    phase.seed, phase.drawn_at = seed, timezone.now()
    if phase.knockout:
        phase.save(update_fields=["seed", "drawn_at"])
        try:
            knockout.draw(phase, planned.pairs, seed, by)
        except knockout.KnockoutError as error:  # the whole draw is rolled back
            raise ChampionshipError(str(error)) from None
        stages.drawn(phase)
        return
    if groups is None:
        assert planned.liguillas is not None
        groups = draw_plan.write_liguillas(planned.liguillas)
    insert_rows(PhaseGroup, ("phase", "order", "competition"), [
        (phase.pk, number, competition.pk) for number, competition in enumerate(groups)])
    phase.draw = {"seed": seed,
                  "pairs": [{"enrolment": p.key, "sede": int(p.sede), "region": p.region,
                             "seed": p.seed} for p in planned.drawn],
                  "groups": planned.keys}
    phase.save(update_fields=["seed", "draw", "drawn_at"])
    stages.drawn(phase)


def champion(championship: Championship) -> Enrolment | None:
    """The winner of the last phase once it is finished: its knockout's final, or its
    one group."""
    last = championship.phases.order_by("-level", "-id").first()
    if last is None:
        return None
    if last.knockout:
        state = knockout.bracket(last)
        return state.enrolments.get(state.champion) if state and state.champion else None
    if last.groups.count() != 1:  # no champion yet: no group's order is worked out
        return None
    orders = phase_group_orders(last)
    if orders is None or len(orders) != 1 or not orders[0]:
        return None
    return orders[0][0]


def start_round_clock(phase: Phase, *, by: Actor, now: datetime | None = None) -> int:
    """Start the clock of each group's current round (its first round with a match to play):
    the hall's screen counts down the championship's time per match from now
    (:mod:`muscore.championships.clock`, which also pauses and resets it)."""
    return clock.start(phase, by=by, now=now)


@transaction.atomic
def add_sede_with_club(championship: Championship, *, by: Actor, name: str,
                       region: Region | None = None, capacity: int | None = None) -> Sede:
    """A venue with a club of its own made for it, organised by ``by`` until he invites the
    bar's people to it (the club's organisers page)."""
    require_organiser(by, championship.club)
    club = create_club(checked_name(name, _("el nombre")), organiser=by)
    return add_sede(championship, by=by, name=name, club=club, region=region, capacity=capacity)
