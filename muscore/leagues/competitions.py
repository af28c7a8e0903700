"""A competition's business logic: create it, draw it, seat its matches' players and open
their tables.

The league pages (muscore.leagues.views) and the API sit on these functions:

- `create_competition(club, *, by, name, pairs, format="liguilla", legs=1, groups=2,
  rules=None, points=None, draw=None, draw_method="typed", ...) -> Competition`, and
  `create_liguillas` (many at once: a championship phase's groups, `plan_liguillas` first)
- `record_draw(competition, order, *, by, method="typed")`: the public draw (entry
  indices in the order drawn) and the fixtures it gives
- `set_players(match, *, by, side, players)` / `substitute(...)`: who sat, one person at
  one table per round
- `open_table(match, *, by) -> Table`: a muscore table with the two pairs seated, and the
  seat that starts as mano (`starting_mano`)
- `schedule_round(competition, number, starts_at, *, by)`: when a round is played
- `touch_pairs`, `on_club_change`: a pair or player renamed moves its competitions' ETags

A match's result is the business of `muscore.leagues.results`, its one owner; the
standings come from there too (`results.standings`). Every write here checks that `by`
organises the competition's club (PermissionDenied, a 403, otherwise), runs in one
transaction and bumps the competition's `revision` (`muscore.leagues.changes`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.forms import clean_person_name
from muscore.clubs.models import Club, Pair, PairMember, Player
from muscore.clubs.people import player_named
from muscore.clubs.permissions import Actor, require_organiser, stored_user
from muscore.handentry.words import NAME_MAX
from muscore.leagues import draw_plan, rating_store, stats_store
from muscore.leagues.changes import (
    CompetitionError,
    bump,
    check_organiser,
    competition_rules,
    league_error,
    writable_match,
)
from muscore.leagues.compute.document import (
    read_draw,
    read_legs,
    read_name,
    read_points,
    read_rules,
)
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.mano import mano_sides
from muscore.leagues.draw_plan import DrawPlan
from muscore.leagues.models import (
    Competition,
    DocumentBacklog,
    Entry,
    Match,
    Round,
)
from muscore.leagues.results import consequences
from muscore.leagues.results.store import audit
from muscore.leagues.signals import revisions_moved
from muscore.tables import services as tables
from muscore.tables.models import Table
from muscore.text import person_key

logger = logging.getLogger(__name__)

# ------------------------------------------------------------------------ create, draw


Members = dict[int, list[tuple[int, str]]]


def pair_members(pairs: Sequence[Pair]) -> Members:
    """Each pair's players (id, name) by pair id, in one query."""
    members: Members = {}
    for player_id, player, pair_id in (PairMember.objects.filter(pair__in=pairs)
                                       .values_list("player_id", "player__name", "pair_id")):
        members.setdefault(pair_id, []).append((player_id, player))
    return members


def check_one_pair_each(pairs: Sequence[Pair], members: Members | None = None) -> None:
    """A person plays a competition for one pair only: in two he would sit at two tables
    of one round, or on both sides of one match. CompetitionError names the pair he is in
    (the first of `pairs`) and the one refused. `members`: :func:`pair_members`, if read."""
    if members is None:
        members = pair_members(pairs)
    pair_of: dict[int, Pair] = {}
    for pair in pairs:  # in the order entered: the later pair is the one refused
        for player_id, player in members.get(pair.pk, []):
            if player_id in pair_of:
                raise CompetitionError(
                    _("%(player)s ya juega en la pareja %(pair)s: una persona entra en una "
                      "competición con una sola pareja (%(other)s no puede entrar).")
                    % {"player": player, "pair": pair_of[player_id].name, "other": pair.name})
            pair_of[player_id] = pair


def check_not_retired(pairs: Sequence[Pair]) -> None:
    """A retired pair or player is off the draw of new competitions: CompetitionError
    naming the first one (the organiser brings it back from the club's page)."""
    for pair in pairs:
        if pair.retired:
            raise CompetitionError(
                _("La pareja %(pair)s está retirada: vuelve a ponerla en la lista del club "
                  "para que juegue.") % {"pair": pair.name})
    retired = (PairMember.objects.filter(pair__in=pairs, player__retired=True)
               .select_related("player", "pair").first())
    if retired is not None:
        raise CompetitionError(
            _("%(player)s (de %(pair)s) está retirado: vuelve a ponerlo en la lista del club "
              "para que juegue.") % {"player": retired.player.name, "pair": retired.pair.name})


@transaction.atomic
def create_competition(
    club: Club,
    *,
    by: Actor,
    name: str,
    pairs: Sequence[Pair],
    format: str = Competition.Format.LIGUILLA,
    legs: int = 1,
    groups: int = 2,
    rules: Mapping[str, Any] | None = None,
    points: Mapping[str, Any] | None = None,
    draw: Sequence[int] | None = None,
    draw_method: str = "typed",
    ceros: int = 3,
    retired_ok: bool = False,
    rated: bool = True,
    into: Competition | None = None,
    made: Mapping[str, Any] | None = None,
) -> Competition:
    """A new competition of `pairs` (their order gives the entry indices).

    With `draw` (entry indices in the order drawn) its fixtures are generated at once;
    otherwise it waits for `record_draw`. A retired pair, or a pair with a retired
    player, is refused (muscore.leagues.roster) unless `retired_ok` (an import: the
    record of what was played, retired people included). With `rated` False its matches
    stay out of the club's ratings and leaders (another club's competition, imported).
    `into` is a large import's competition, made by its request and left to the worker
    (muscore.leagues.imports): it is filled rather than a new one made. `made`: what an
    app-made name is made of (muscore.leagues.names), named in the reader's language.
    """
    check_organiser(by, club)
    try:
        name = read_name(name)
        table_rules = read_rules(rules)
        read_points(points)
        legs = read_legs(legs)
    except LeagueError as error:
        raise league_error(error) from None
    if format not in Competition.Format.values:
        raise CompetitionError(_("Formato desconocido: %(format)s.") % {"format": format})
    entries = list(pairs)
    _check_entries(club, entries, table_rules.players // 2, retired_ok=retired_ok)
    group_count = 0
    if format == Competition.Format.GROUPS:
        if groups not in (2, 4):
            raise CompetitionError(_("Los grupos son 2 o 4."))
        if len(entries) < 2 * groups:
            raise CompetitionError(
                _("Con %(groups)s grupos hacen falta al menos %(n)s parejas.")
                % {"groups": groups, "n": 2 * groups}
            )
        group_count = groups
    if format == Competition.Format.CEROS:
        if ceros not in range(1, 6):
            raise CompetitionError(_("Los ceros para quedar fuera van de 1 a 5."))
        draw = None  # a ceros tournament draws each round as it comes (ceros_rounds)
    fields = dict(
        club=club, name=name, format=format, legs=legs, group_count=group_count, ceros=ceros,
        rules=table_rules.to_json(), **{f"points_{k}": v for k, v in
                                        read_points(points).to_json().items()},
        created_by=stored_user(by), rated=rated, made=dict(made or {}),
    )
    if into is None:
        competition = Competition.objects.create(**fields)
    else:
        competition = into
        for field, value in fields.items():
            setattr(competition, field, value)
        competition.save()
    Entry.objects.bulk_create(
        Entry(competition=competition, pair=pair, index=i) for i, pair in enumerate(entries)
    )
    if draw is not None:
        record_draw(competition, draw, by=by, method=draw_method)
    return competition


def _check_entries(club: Club, entries: list[Pair], size: int, *, retired_ok: bool,
                   members: Members | None = None) -> None:
    """A competition's pairs: two at least, each once, of the club, of `size` players,
    none retired (unless `retired_ok`) and no person in two of them. `members`
    (:func:`pair_members`) when read already for many competitions at once."""
    if len(entries) < 2:
        raise CompetitionError(_("Hacen falta al menos dos parejas."))
    if len({p.pk for p in entries}) != len(entries):
        raise CompetitionError(_("Una pareja no puede entrar dos veces."))
    if any(p.club_id != club.pk for p in entries):
        raise CompetitionError(_("Todas las parejas han de ser del club."))
    if members is None:
        members = pair_members(entries)
    for pair in entries:
        if len(members.get(pair.pk, [])) != size:
            raise CompetitionError(
                _("La pareja %(pair)s no tiene %(size)s jugadores.") % {
                    "pair": pair.name, "size": size}
            )
    if not retired_ok:
        check_not_retired(entries)
    check_one_pair_each(entries, members)


@transaction.atomic
def create_liguillas(
    club: Club,
    *,
    by: Actor,
    leagues: Sequence[tuple[str, Sequence[Pair]]],
    rules: Mapping[str, Any] | None = None,
    draw_method: str = "typed",
    members: Members | None = None,
    made: Sequence[Mapping[str, Any]] | None = None,
) -> list[Competition]:
    """Many one-leg liguillas of `club` at once (a championship phase's groups), each
    (name, pairs) drawn in the order given with its fixtures made, as `create_competition`
    with `draw` would make them one by one, with the same checks, in a fixed number of
    queries whatever their number. `members` (:func:`pair_members` of every pair), when
    the caller read them before its transaction; `made`, one for each league: what its
    app-made name is made of (muscore.leagues.names)."""
    return draw_plan.write_liguillas(plan_liguillas(
        club, by=by, leagues=leagues, rules=rules, draw_method=draw_method, members=members,
        made=made))


def plan_liguillas(
    club: Club,
    *,
    by: Actor,
    leagues: Sequence[tuple[str, Sequence[Pair]]],
    rules: Mapping[str, Any] | None = None,
    draw_method: str = "typed",
    members: Members | None = None,
    made: Sequence[Mapping[str, Any]] | None = None,
) -> draw_plan.Liguillas:
    """`create_liguillas`' checks and rows, before its transaction (a phase's draw checks
    and works them out first, then writes them with `draw_plan.write_liguillas`)."""
    check_organiser(by, club)
    made_of = list(made or [{}] * len(leagues))
    try:
        table_rules = read_rules(rules)
        names = [read_name(name) for name, _pairs in leagues]
    except LeagueError as error:
        raise league_error(error) from None
    # create_competition's checks of each league's pairs, their players read once for
    # all; a phase's pairs are the championship's own, never retired from its lists.
    if members is None:
        members = pair_members([pair for _name, pairs in leagues for pair in pairs])
    for _name, pairs in leagues:
        _check_entries(club, list(pairs), table_rules.players // 2, retired_ok=True,
                       members=members)
    user = stored_user(by)
    now = timezone.now()
    points = {f"points_{k}": v for k, v in read_points(None).to_json().items()}
    return draw_plan.liguillas([
        Competition(club=club, name=name, format=Competition.Format.LIGUILLA, legs=1,
                    rules=table_rules.to_json(), created_by=user, draw=list(range(len(pairs))),
                    draw_method=draw_method[:10], drawn_at=now, drawn_by=user,
                    status=Competition.Status.PLAYING, revision=2, made=dict(parts), **points)
        for name, (_n, pairs), parts in zip(names, leagues, made_of, strict=True)],
        [pairs for _name, pairs in leagues])


def record_draw(
    competition: Competition, order: Sequence[int], *, by: Actor, method: str = "typed"
) -> None:
    """Record the public draw (entry indices in the order drawn) and generate the fixtures.

    A draw is made once: it decides the groups, the rounds and the last tie-break.
    """
    check_organiser(by, competition.club)
    # The fixtures worked out before the transaction, which on SQLite holds the site's one
    # write lock: a 200-pair liguilla's 19,900 matches are a tenth of a second of Python
    # (issue 21: no request holds a lock long). Worked out again inside if the entries
    # changed meanwhile; a refusal is said inside, in its order.
    try:
        plan: DrawPlan | None = _draw_plan(Competition.objects.get(pk=competition.pk), order)
    except CompetitionError:
        plan = None
    with transaction.atomic():
        _record_draw(competition.pk, order, plan, by=by, method=method)


def _record_draw(competition_id: int, order: Sequence[int], plan: DrawPlan | None, *,
                 by: Actor, method: str) -> None:
    competition = Competition.objects.select_for_update().get(pk=competition_id)
    if competition.format == Competition.Format.CEROS:
        raise CompetitionError(_("Un torneo a ceros se sortea ronda a ronda."))
    if competition.draw is not None:
        raise CompetitionError(_("El sorteo ya está hecho."))
    entries = list(competition.entries.select_related("pair").order_by("index"))
    check_one_pair_each([e.pair for e in entries])  # a competition entered before this was checked
    if plan is None or plan.basis != draw_plan.basis(competition, entries):
        plan = _draw_plan(competition, order, entries)
    competition.draw = plan.drawn
    competition.draw_method = method[:10]
    competition.drawn_at = timezone.now()
    competition.drawn_by = stored_user(by)
    competition.status = Competition.Status.PLAYING
    competition.save()
    draw_plan.write(competition, plan)
    bump(competition)


def _draw_plan(competition: Competition, order: Sequence[int],
               entries: Sequence[Entry] | None = None) -> DrawPlan:
    """The fixtures `order` gives the competition (CompetitionError: a bad order)."""
    if competition.format == Competition.Format.CEROS:
        raise CompetitionError(_("Un torneo a ceros se sortea ronda a ronda."))
    if entries is None:
        entries = list(competition.entries.order_by("index"))
    try:
        draw = list(read_draw(list(order), len(entries)))
    except LeagueError as error:
        raise league_error(error) from None
    return draw_plan.plan(competition, draw, entries)


def pair_players(entry: Entry) -> list[str]:
    return entry.pair.player_names()


def match_players(match: Match) -> tuple[list[str], list[str]]:
    """Who sits (or sat) for each side: the substitutes, else the pairs' own players."""
    assert match.first is not None and match.second is not None
    return (
        list(match.players_first) if match.players_first else pair_players(match.first),
        list(match.players_second) if match.players_second else pair_players(match.second),
    )


def _substitute(name: str) -> str:
    """A substitute's name, checked as every person's (muscore.clubs.forms)."""
    try:
        return clean_person_name(name)
    except ValidationError as error:
        raise CompetitionError(error.messages[0]) from None


@transaction.atomic
def set_players(match: Match, *, by: Actor, side: int, players: Sequence[str] | None) -> Match:
    """Who sat for one side (0 or 1) in this match; None: the pair's own players.

    A name the club does not know yet becomes one of its players.
    """
    match = writable_match(match, by)
    if side not in (0, 1):
        raise CompetitionError(_("¿Qué pareja?"))
    rules = competition_rules(match.competition)
    match = (Match.objects.with_outcome()
             .select_related("first__pair", "second__pair", "competition").get(pk=match.pk))
    names: list[str] | None = None
    if players is not None:
        names = [_substitute(str(n)) for n in players]
        if len(names) != rules.players // 2 or not all(names):
            raise CompetitionError(
                _("Por cada pareja se sientan %(n)s jugadores.") % {"n": rules.players // 2})
        if len({person_key(n) for n in names}) != len(names):
            raise CompetitionError(_("Un jugador no puede sentarse dos veces."))
        mine = match.first if side == 0 else match.second
        assert mine is not None  # writable_match: both pairs are known
        own = pair_players(mine)
        if names == own:
            names = None
    other = match_players(match)[1 - side]
    if names and {person_key(n) for n in names} & {person_key(n) for n in other}:
        raise CompetitionError(_("Un jugador no puede sentarse con las dos parejas."))
    against = match.second if side == 0 else match.first
    assert against is not None
    for name in names or []:
        if person_key(name) in {person_key(n) for n in pair_players(against)}:
            raise CompetitionError(
                _("%(name)s es de la pareja %(pair)s: no puede sentarse contra ella.")
                % {"name": name, "pair": against.pair.name})
    _check_one_table(match, names or [])
    before = match.players
    if side == 0:
        match.players_first = names
    else:
        match.players_second = names
    match.save(update_fields=["players_first", "players_second"])
    for name in names or []:
        club = match.competition.club
        if player_named(club.pk, name) is None:  # one person however written (clubs.people)
            Player.objects.create(club=club, name=name)
    audit(match, by, "players", match.result, before)
    rating_store.match_changed(match)  # who sat changed: a played match is rated again
    result = match.outcome
    if result is not None and result.source == "table":
        stats_store.count_table_match(match)  # the hands' counts go to who sat
    bump(match.competition)
    return match


def _check_one_table(match: Match, names: Sequence[str]) -> None:
    """One person at one table per round: a substitute who sits in another match of the
    same round (his own pair's, or as another pair's substitute) is refused, naming it."""
    wanted = {n.lower() for n in names}
    if not wanted:
        return
    alongside = consequences.siblings(match.competition)  # a phase's other groups, ties
    number = Round.objects.filter(pk=match.round_id).values_list("number", flat=True).get()
    same_round = Q(round_id=match.round_id) | Q(competition_id__in=alongside,
                                                round__number=number)
    others = (Match.objects.filter(same_round).exclude(pk=match.pk)
              .exclude(first=None).exclude(second=None)
              .select_related("first__pair", "second__pair", "competition").order_by("number")
              .prefetch_related("first__pair__members__player", "second__pair__members__player"))
    for other in others:
        for seated in match_players(other):
            taken = wanted & {n.lower() for n in seated}
            if taken:
                name = next(n for n in names if n.lower() in taken)
                if other.competition_id != match.competition_id:
                    raise CompetitionError(
                        _("%(name)s ya se sienta en %(competition)s en esta jornada: una "
                          "persona, una mesa por jornada.")
                        % {"name": name,
                           "competition": consequences.full_title(other.competition)})
                raise CompetitionError(
                    _("%(name)s ya se sienta en la partida %(n)s de esta jornada: una persona, "
                      "una mesa por jornada.") % {"name": name, "n": other.number})


def substitute(match: Match, *, by: Actor, side: int, replaced: str, substitute: str) -> Match:
    """`substitute` sat in for `replaced` (one of the side's players) in this match."""
    match = Match.objects.select_related("first__pair", "second__pair").get(pk=match.pk)
    if match.first is None or match.second is None:
        raise CompetitionError(_("Esta partida aún no tiene sus dos parejas."))
    current = match_players(match)[side]
    if replaced not in current:
        raise CompetitionError(_("%(name)s no juega en esta pareja.") % {"name": replaced})
    return set_players(match, by=by, side=side,
                       players=[substitute if n == replaced else n for n in current])


# ---------------------------------------------------------------------- playing on tables


@transaction.atomic
def open_table(match: Match, *, by: Actor) -> Table:
    """A muscore table for this match: the first pair at seats 0, 2 (, 4), the second at
    1, 3 (, 5), the competition's options. The same table if it is already open."""
    match = writable_match(match, by)
    if match.table_id is not None:
        return Table.objects.get(pk=match.table_id)
    if match.played:
        raise CompetitionError(_("Esta partida ya tiene resultado."))
    match = Match.objects.select_related("first__pair", "second__pair", "competition").get(
        pk=match.pk)
    first, second = match_players(match)
    seats = [name for seat in zip(first, second, strict=True) for name in seat]
    try:
        table = tables.create_table(players=[n[:NAME_MAX] for n in seats],
                                    rules=match.competition.rules, mano=starting_mano(match))
    except tables.TableError as error:
        # A name saved before the club's forms checked names as the tables do (a control
        # character, a direction override): say which, in the page's language, not a 500.
        raise CompetitionError(
            _("No se puede abrir la mesa: %(why)s. Corregid ese nombre en el club.")
            % {"why": error.page_message()}
        ) from None
    match.table = table
    match.save(update_fields=["table"])
    bump(match.competition)
    return table


def starting_mano(match: Match) -> int:
    """The seat that starts ``match`` as mano: 0 (the first pair's) or 1 (the second's),
    in turn over the competition's matches in their order (compute.mano), so no pair
    starts every match as postre. One query."""
    order = list(Match.objects.filter(competition_id=match.competition_id)
                 .order_by("number", "id").values_list("pk", "first_id", "second_id"))
    sides = mano_sides([(first, second) for _pk, first, second in order])
    return next((side for (pk, _f, _s), side in zip(order, sides, strict=True)
                 if pk == match.pk), 0)


def touch_pairs(pair_ids: Sequence[int]) -> None:
    """A pair's name or players changed: the documents of its competitions change too."""
    changed = Competition.objects.filter(entries__pair_id__in=list(pair_ids))
    ids = list(changed.values_list("pk", flat=True).distinct())
    DocumentBacklog.add(ids)
    changed.update(revision=F("revision") + 1)
    revisions_moved.send(sender=Competition, competitions=ids)


def on_club_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save/post_delete of clubs' Pair, PairMember and Player: bump the ETags."""
    if isinstance(instance, Pair):
        touch_pairs([instance.pk])
    elif isinstance(instance, PairMember):
        touch_pairs([instance.pair_id])
    elif isinstance(instance, Player):
        touch_pairs(list(PairMember.objects.filter(player=instance).values_list(
            "pair_id", flat=True)))


@transaction.atomic
def schedule_round(
    competition: Competition, number: int, starts_at: datetime | None, *, by: Actor
) -> int:
    """When round `number` of a competition is played (every group's round of that number);
    None clears it. Returns how many rounds changed. Only the club's organisers."""
    require_organiser(by, competition.club)
    return Round.objects.filter(competition=competition, number=number).update(starts_at=starts_at)
