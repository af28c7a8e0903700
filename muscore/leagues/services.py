"""A competition's business logic: create it, draw it, play and correct its matches.

The league pages (muscore.leagues.views) and the API sit on these functions:

- `create_competition(club, *, by, name, pairs, format="liguilla", legs=1, groups=2,
  rules=None, points=None, draw=None, draw_method="typed") -> Competition`
- `record_draw(competition, order, *, by, method="typed")`: the public draw (entry
  indices in the order drawn) and the fixtures it gives
- `open_table(match, *, by) -> Table`: a muscore table with the two pairs seated
- `record_result(match, *, by, juegos, tantos=None)`, `record_no_show(match, *, by, who)`,
  `set_players(match, *, by, side, players)` / `substitute(...)`, `clear_result(match, *, by)`
- `standings(competition) -> list[GroupStandings]`: drawn from the stored figures
- `league_document(competition, *, hands=False) -> dict`: the league.md form
- `import_competition(club, data, *, by) -> Competition`: the reverse of the export

Every write checks that `by` organises the competition's club (PermissionDenied, a 403,
otherwise), runs in one transaction, bumps the competition's `revision` and leaves a
`Correction` row (before, after, who, when). A match's result arrives by itself from
its table: `muscore.tables` sends `table_changed` inside each write's transaction and
`on_table_changed` below stores the figures of the table's first vaca once it is won
(and takes them back if an undo or edit un-wins it).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, Pair, PairMember, Player
from muscore.clubs.permissions import require_organiser
from muscore.leagues import rating_store, stats_store
from muscore.leagues.compute.spreadsheet import write_csv
from muscore.leagues.document import (
    League,
    Points,
    Result,
    forfeit_result,
    read_draw,
    read_league,
    read_legs,
    read_name,
    read_points,
    read_rules,
    replay_result,
)
from muscore.leagues.document import Match as LeagueMatch
from muscore.leagues.errors import LeagueError
from muscore.leagues.fixtures import fixtures
from muscore.leagues.messages import league_message
from muscore.leagues.models import (
    Competition,
    Correction,
    Entry,
    Group,
    Match,
    Round,
    document_text,
)
from muscore.leagues.standings import Row, apply_head_to_head, match_points, order_rows
from muscore.rules import Rules
from muscore.tables import services as tables
from muscore.tables.models import Hand, Table, VacaCheckpoint
from muscore.tables.state import TableState

logger = logging.getLogger(__name__)

GROUP_NAMES = "ABCD"
KNOCKOUT_ORDER = ("qf1", "qf2", "qf3", "qf4", "sf1", "sf2", "final", "third")
STANDINGS_CACHE_SECONDS = 3600


forfeit_figures = forfeit_result


class CompetitionError(ValueError):
    """A change a competition refuses; str() says why, for a person."""


# ---------------------------------------------------------------------------- helpers


def _check_organiser(by: Any, club: Club) -> None:
    require_organiser(by, club)


def _bump(competition: Competition) -> None:
    Competition.objects.filter(pk=competition.pk).update(revision=F("revision") + 1)
    competition.refresh_from_db(fields=["revision", "status"])


def competition_rules(competition: Competition) -> Rules:
    return Rules.from_json(competition.rules)


def _league_error(error: LeagueError) -> CompetitionError:
    return CompetitionError(league_message(error))


def _audit(match: Match, by: Any, action: str, before: dict[str, Any]) -> None:
    Correction.objects.create(
        competition_id=match.competition_id, match=match,
        by=by if getattr(by, "is_authenticated", False) else None,
        action=action, before=before, after=match.figures(),
    )


# ------------------------------------------------------------------------ create, draw


@transaction.atomic
def create_competition(
    club: Club,
    *,
    by: Any,
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
) -> Competition:
    """A new competition of `pairs` (their order gives the entry indices).

    With `draw` (entry indices in the order drawn) its fixtures are generated at once;
    otherwise it waits for `record_draw`.
    """
    _check_organiser(by, club)
    try:
        name = read_name(name)
        table_rules = read_rules(rules)
        read_points(points)
        legs = read_legs(legs)
    except LeagueError as error:
        raise _league_error(error) from None
    if format not in Competition.Format.values:
        raise CompetitionError(_("Formato desconocido: %(format)s.") % {"format": format})
    entries = list(pairs)
    if len(entries) < 2:
        raise CompetitionError(_("Hacen falta al menos dos parejas."))
    if len({p.pk for p in entries}) != len(entries):
        raise CompetitionError(_("Una pareja no puede entrar dos veces."))
    if any(p.club_id != club.pk for p in entries):
        raise CompetitionError(_("Todas las parejas han de ser del club."))
    size = table_rules.players // 2
    sizes = dict(
        PairMember.objects.filter(pair__in=entries)
        .values("pair_id").annotate(n=Count("id")).values_list("pair_id", "n")
    )
    for pair in entries:
        if sizes.get(pair.pk, 0) != size:
            raise CompetitionError(
                _("La pareja %(pair)s no tiene %(size)s jugadores.") % {
                    "pair": pair.name, "size": size}
            )
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
        draw = None  # a ceros tournament draws each round as it comes (ceros_services)
    competition = Competition.objects.create(
        club=club, name=name, format=format, legs=legs, group_count=group_count, ceros=ceros,
        rules=table_rules.to_json(), **{f"points_{k}": v for k, v in
                                        read_points(points).to_json().items()},
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    Entry.objects.bulk_create(
        Entry(competition=competition, pair=pair, index=i) for i, pair in enumerate(entries)
    )
    if draw is not None:
        record_draw(competition, draw, by=by, method=draw_method)
    return competition


@transaction.atomic
def record_draw(
    competition: Competition, order: Sequence[int], *, by: Any, method: str = "typed"
) -> None:
    """Record the public draw (entry indices in the order drawn) and generate the fixtures.

    A draw is made once: it decides the groups, the rounds and the last tie-break.
    """
    _check_organiser(by, competition.club)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.format == Competition.Format.CEROS:
        raise CompetitionError(_("Un torneo a ceros se sortea ronda a ronda."))
    if competition.draw is not None:
        raise CompetitionError(_("El sorteo ya está hecho."))
    count = competition.entries.count()
    try:
        drawn = list(read_draw(list(order), count))
    except LeagueError as error:
        raise _league_error(error) from None
    competition.draw = drawn
    competition.draw_method = method[:10]
    competition.drawn_at = timezone.now()
    competition.drawn_by = by if getattr(by, "is_authenticated", False) else None
    competition.status = Competition.Status.PLAYING
    competition.save()
    _generate(competition)
    _bump(competition)


def _generate(competition: Competition) -> None:
    entries = {e.index: e for e in competition.entries.all()}
    draw: list[int] = list(competition.draw or [])
    rounds: list[Round] = []
    planned: list[tuple[int, int, int, Entry | None, Entry | None, str]] = []
    # (round index in `rounds`, sort key group, order, first, second, slot)
    if competition.format == Competition.Format.LIGUILLA:
        for number, fixture in enumerate(fixtures(len(draw), competition.legs), 1):
            bye = entries[draw[fixture.bye[0]]] if fixture.bye else None
            rounds.append(Round(competition=competition, number=number, bye=bye))
            for order, (a, b) in enumerate(fixture.matches):
                planned.append((len(rounds) - 1, 0, order, entries[draw[a]], entries[draw[b]], ""))
    else:
        groups = [
            Group.objects.create(competition=competition, name=GROUP_NAMES[g], order=g)
            for g in range(competition.group_count)
        ]
        members: list[list[Entry]] = [[] for _ in groups]
        for place, index in enumerate(draw):
            g = place % len(groups)
            members[g].append(entries[index])
        for g, group in enumerate(groups):
            Entry.objects.filter(pk__in=[e.pk for e in members[g]]).update(group=group)
            for number, fixture in enumerate(fixtures(len(members[g]), competition.legs), 1):
                bye = members[g][fixture.bye[0]] if fixture.bye else None
                rounds.append(Round(competition=competition, number=number, group=group,
                                    bye=bye))
                for order, (a, b) in enumerate(fixture.matches):
                    planned.append((len(rounds) - 1, g, order, members[g][a], members[g][b], ""))
        last = max(r.number for r in rounds)
        stages = (["quarterfinal"] if len(groups) == 4 else []) + ["semifinal", "final"]
        for offset, stage in enumerate(stages, 1):
            rounds.append(Round(competition=competition, number=last + offset, stage=stage))
            slots = {"quarterfinal": ["qf1", "qf2", "qf3", "qf4"], "semifinal": ["sf1", "sf2"],
                     "final": ["final", "third"]}[stage]
            for order, slot in enumerate(slots):
                planned.append((len(rounds) - 1, 0, order, None, None, slot))
    Round.objects.bulk_create(rounds)
    planned.sort(key=lambda p: (rounds[p[0]].number, p[1], p[2]))
    matches = [
        Match(competition=competition, round=rounds[r], number=n, first=first, second=second,
              slot=slot)
        for n, (r, _g, _o, first, second, slot) in enumerate(planned, 1)
    ]
    for match in matches:  # bulk_create skips save(); their round and entries are loaded
        match.doc = match.document_text()
    Match.objects.bulk_create(matches)


# ------------------------------------------------------------------------------ results


def _locked(match: Match) -> Match:
    return Match.objects.select_for_update().select_related("competition").get(pk=match.pk)


def _writable(match: Match, by: Any) -> Match:
    _check_organiser(by, match.competition.club)
    locked = _locked(match)
    if locked.first_id is None or locked.second_id is None:
        raise CompetitionError(_("Esta partida aún no tiene sus dos parejas."))
    return locked


def store_figures(match: Match, result: Result, source: str, at: Any) -> None:
    """Set a match's stored figures from `result` (not saved: bulk writers save them)."""
    match.source = source
    match.juegos_first, match.juegos_second = result.juegos
    tantos = result.tantos
    match.tantos_first, match.tantos_second = tantos if tantos is not None else (None, None)
    match.no_show_first, match.no_show_second = result.no_show
    match.winner = result.winner
    match.result_at = at


LINE_FIELDS = ("played", "won", "lost", "forfeits", "points", "juegos_for", "juegos_against",
               "tantos_for", "tantos_against")


def _line_change(match: Match, sign: int) -> None:
    """Add (sign 1) or take away (-1) a league match's stored figures to its entries' lines."""
    if match.slot or not match.source or match.first_id is None or match.second_id is None:
        return
    result = match_result(match)
    assert result is not None
    competition = Competition.objects.only(
        "points_win", "points_loss", "points_forfeit").get(pk=match.competition_id)
    gained = match_points(result, Points(**competition.points))
    tantos = result.tantos or (0, 0)
    for side, entry_id in enumerate((match.first_id, match.second_id)):
        deltas = {
            "played": 1, "won": int(result.winner == side), "lost": int(result.winner != side),
            "forfeits": int(result.no_show[side]), "points": gained[side],
            "juegos_for": result.juegos[side], "juegos_against": result.juegos[1 - side],
            "tantos_for": tantos[side], "tantos_against": tantos[1 - side],
        }
        Entry.objects.filter(pk=entry_id).update(
            **{name: F(name) + sign * value for name, value in deltas.items() if value})


def recount_lines(competition: Competition) -> None:
    """Set every entry's standings line from the matches' stored figures (the bulk builder
    uses it; also a repair should a line ever drift)."""
    sums: dict[int, dict[str, int]] = {}
    for side in (0, 1):
        for pk, *values in _side_sums(competition, side):
            line = sums.setdefault(pk, dict.fromkeys(LINE_FIELDS, 0))
            played, won, forfeits, points, jf, ja, tf, ta = values
            for name, value in (("played", played), ("won", won), ("lost", played - won),
                                ("forfeits", forfeits), ("points", points),
                                ("juegos_for", jf), ("juegos_against", ja),
                                ("tantos_for", tf), ("tantos_against", ta)):
                line[name] += value
    entries = list(competition.entries.all())
    for entry in entries:
        for name, value in sums.get(entry.pk, dict.fromkeys(LINE_FIELDS, 0)).items():
            setattr(entry, name, value)
    Entry.objects.bulk_update(entries, list(LINE_FIELDS), batch_size=500)


def _store(
    match: Match, result: Result | None, source: str, at: datetime | None = None
) -> None:
    """Write (or clear, with None) a match's figures and its pairs' standings lines.
    `at` is the result's time when it is not now (a claim accepted after 24 hours)."""
    if match.competition.format == Competition.Format.CEROS:
        from muscore.leagues import ceros_services  # it builds on this module

        ceros_services.check_change(match, result)
    _line_change(match, -1)
    if result is None:
        match.source = ""
        match.juegos_first = match.juegos_second = None
        match.tantos_first = match.tantos_second = None
        match.no_show_first = match.no_show_second = False
        match.winner = None
        match.result_at = None
    else:
        store_figures(match, result, source, at or timezone.now())
    match.save()
    _line_change(match, 1)
    rating_store.match_changed(match)  # re-rates the club's players from this match on
    if source != Match.Source.TABLE:
        stats_store.drop(match)  # an organiser's result, or none: the hands no longer count


def match_result(match: Match) -> Result | None:
    """The stored figures of a match as the pure computations take them."""
    if not match.source:
        return None
    tantos = None
    if match.tantos_first is not None and match.tantos_second is not None:
        tantos = (match.tantos_first, match.tantos_second)
    source = {"table": "vaca", "manual": "juegos", "no_show": "forfeit"}[match.source]
    return Result((match.juegos_first or 0, match.juegos_second or 0), tantos,
                  (match.no_show_first, match.no_show_second), source)  # type: ignore[arg-type]


def _after_change(competition: Competition) -> None:
    if competition.format == Competition.Format.CEROS:
        from muscore.leagues import ceros_services  # it builds on this module

        ceros_services.after_change(competition)
        _bump(competition)
        return
    if competition.format == Competition.Format.GROUPS:
        _fill_knockout(competition)
    left = Match.objects.filter(competition=competition, source="").exists()
    status = Competition.Status.PLAYING if left else Competition.Status.FINISHED
    Competition.objects.filter(pk=competition.pk).update(status=status)
    _bump(competition)


@transaction.atomic
def record_result(
    match: Match, *, by: Any, juegos: Sequence[int], tantos: Sequence[int] | None = None
) -> Match:
    """A vaca kept on paper: the juegos of each pair and, if counted, the tantos."""
    match = _writable(match, by)
    rules = competition_rules(match.competition)
    data: dict[str, Any] = {"pairs": [0, 1], "juegos": list(juegos)}
    if tantos is not None:
        data["tantos"] = list(tantos)
    try:
        result = _read_one(data, rules)
    except LeagueError as error:
        raise _league_error(error) from None
    _check_knockout(match, result)
    before = match.figures()
    _store(match, result, Match.Source.MANUAL)
    _audit(match, by, "manual", before)
    _after_change(match.competition)
    return match


@transaction.atomic
def record_no_show(match: Match, *, by: Any, who: int | str) -> Match:
    """A no-show: `who` is 0 (the first pair), 1 (the second) or "both"."""
    match = _writable(match, by)
    rules = competition_rules(match.competition)
    if who not in (0, 1, "0", "1", "both"):
        raise CompetitionError(_("¿Quién no se presentó?"))
    forfeit: int | str = who if who == "both" else int(who)
    data = {"pairs": [0, 1], "forfeit": forfeit}
    result = _read_one(data, rules)
    _check_knockout(match, result)
    before = match.figures()
    _store(match, result, Match.Source.NO_SHOW)
    _audit(match, by, "no_show", before)
    _after_change(match.competition)
    return match


@transaction.atomic
def clear_result(match: Match, *, by: Any) -> Match:
    """Take a result back (the audit keeps it)."""
    match = _writable(match, by)
    before = match.figures()
    _store(match, None, "")
    _audit(match, by, "clear", before)
    _after_change(match.competition)
    return match


def _read_one(data: dict[str, Any], rules: Rules) -> Result:
    league = read_league({
        "name": "-", "rules": rules.to_json(),
        "pairs": [{"name": str(i), "players": [f"{i}-{k}" for k in range(rules.players // 2)]}
                  for i in range(2)],
        "matches": [data],
    })
    result = league.matches[0].result
    assert result is not None
    return result


def _check_knockout(match: Match, result: Result) -> None:
    if match.slot and result.winner is None:
        raise CompetitionError(_("En una eliminatoria una de las dos parejas tiene que pasar."))


def pair_players(entry: Entry) -> list[str]:
    return entry.pair.player_names()


def match_players(match: Match) -> tuple[list[str], list[str]]:
    """Who sits (or sat) for each side: the substitutes, else the pairs' own players."""
    assert match.first is not None and match.second is not None
    return (
        list(match.players_first) if match.players_first else pair_players(match.first),
        list(match.players_second) if match.players_second else pair_players(match.second),
    )


@transaction.atomic
def set_players(match: Match, *, by: Any, side: int, players: Sequence[str] | None) -> Match:
    """Who sat for one side (0 or 1) in this match; None: the pair's own players.

    A name the club does not know yet becomes one of its players.
    """
    match = _writable(match, by)
    if side not in (0, 1):
        raise CompetitionError(_("¿Qué pareja?"))
    rules = competition_rules(match.competition)
    match = Match.objects.select_related("first__pair", "second__pair", "competition").get(
        pk=match.pk)
    names: list[str] | None = None
    if players is not None:
        names = [str(n).strip() for n in players]
        if len(names) != rules.players // 2 or not all(names):
            raise CompetitionError(
                _("Por cada pareja se sientan %(n)s jugadores.") % {"n": rules.players // 2})
        if len({n.lower() for n in names}) != len(names):
            raise CompetitionError(_("Un jugador no puede sentarse dos veces."))
        own = pair_players(match.first if side == 0 else match.second)  # type: ignore[arg-type]
        if names == own:
            names = None
    other = match_players(match)[1 - side]
    if names and {n.lower() for n in names} & {n.lower() for n in other}:
        raise CompetitionError(_("Un jugador no puede sentarse con las dos parejas."))
    before = match.figures()
    if side == 0:
        match.players_first = names
    else:
        match.players_second = names
    match.save(update_fields=["players_first", "players_second"])
    for name in names or []:
        club = match.competition.club
        if not Player.objects.filter(club=club, name__iexact=name).exists():
            Player.objects.create(club=club, name=name)
    _audit(match, by, "players", before)
    rating_store.match_changed(match)  # who sat changed: a played match is rated again
    if match.source == Match.Source.TABLE:
        stats_store.count_table_match(match)  # the hands' counts go to who sat
    _bump(match.competition)
    return match


def substitute(match: Match, *, by: Any, side: int, replaced: str, substitute: str) -> Match:
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
def open_table(match: Match, *, by: Any) -> Table:
    """A muscore table for this match: the first pair at seats 0, 2 (, 4), the second at
    1, 3 (, 5), the competition's options. The same table if it is already open."""
    match = _writable(match, by)
    if match.table_id is not None:
        return Table.objects.get(pk=match.table_id)
    if match.source:
        raise CompetitionError(_("Esta partida ya tiene resultado."))
    match = Match.objects.select_related("first__pair", "second__pair", "competition").get(
        pk=match.pk)
    first, second = match_players(match)
    seats = [name for seat in zip(first, second, strict=True) for name in seat]
    try:
        table = tables.create_table(players=[n[:tables.NAME_MAX] for n in seats],
                                    rules=match.competition.rules, mano=0)
    except tables.TableError as error:
        # A name saved before the club's forms checked names as the tables do (a control
        # character, a direction override): say which, in the page's language, not a 500.
        raise CompetitionError(
            _("No se puede abrir la mesa: %(why)s. Corregid ese nombre en el club.")
            % {"why": error.page_message()}
        ) from None
    match.table = table
    match.save(update_fields=["table"])
    _bump(match.competition)
    return table


def on_table_changed(table: Table, state: TableState) -> None:
    """The listener of `muscore.tables.signals.table_changed` (inside the table's write).

    Stores the result of the table's first vaca in its league match once won, and takes
    it back when an undo or edit un-wins it. A failure here never blocks the table: it
    is logged, and the next write to the table checks again.
    """
    match_id = Match.objects.filter(table_id=table.pk).values_list("pk", flat=True).first()
    if match_id is None:
        return
    try:
        with transaction.atomic():
            _sync(match_id, table, state)
    except Exception:  # the table's hand is saved whatever happens to the league
        logger.exception("league match %s: the result of table %s was not stored",
                         match_id, table.pk)


def _sync(match_id: int, table: Table, state: TableState) -> None:
    match = Match.objects.select_for_update().select_related("competition").get(pk=match_id)
    if match.source not in ("", Match.Source.TABLE):
        return  # an organiser's result (by hand, a no-show) stands until they clear it
    finished = state.get("finished") or []
    result = replay_result(finished[0], Rules.from_json(table.rules)) if finished else None
    current = match_result(match) if match.source else None
    if finished or current is not None:  # what the hands say follows the vaca (an edited bet)
        stats_store.count_match(match, table, finished[0] if finished else None)
    if result == current:
        return
    before = match.figures()
    _store(match, result, Match.Source.TABLE)
    _audit(match, None, "table", before)
    _after_change(match.competition)


def touch_pairs(pair_ids: Sequence[int]) -> None:
    """A pair's name or players changed: the documents of its competitions change too."""
    Competition.objects.filter(entries__pair_id__in=list(pair_ids)).update(
        revision=F("revision") + 1)


def on_club_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save/post_delete of clubs' Pair, PairMember and Player: bump the ETags."""
    if isinstance(instance, Pair):
        touch_pairs([instance.pk])
    elif isinstance(instance, PairMember):
        touch_pairs([instance.pair_id])
    elif isinstance(instance, Player):
        touch_pairs(list(PairMember.objects.filter(player=instance).values_list(
            "pair_id", flat=True)))


# ----------------------------------------------------------------------------- knockout


def _fill_knockout(competition: Competition) -> None:
    matches = list(Match.objects.filter(competition=competition).select_related("round"))
    group_matches = [m for m in matches if not m.slot]
    slots = {m.slot: m for m in matches if m.slot}
    wanted: dict[str, tuple[int | None, int | None]] = {}
    if all(m.source for m in group_matches):
        # Never from the cache inside a write: a rolled-back write must leave no trace there.
        table = {g.group.order if g.group else 0: g.rows
                 for g in standings(competition, cached=False) if g.group is not None}
        firsts = [rows[0].pair if rows else None for _, rows in sorted(table.items())]
        seconds = [rows[1].pair if len(rows) > 1 else None for _, rows in sorted(table.items())]
        if competition.group_count == 2:
            wanted["sf1"] = (firsts[0], seconds[1])
            wanted["sf2"] = (firsts[1], seconds[0])
        else:
            wanted["qf1"] = (firsts[0], seconds[1])
            wanted["qf2"] = (firsts[1], seconds[0])
            wanted["qf3"] = (firsts[2], seconds[3])
            wanted["qf4"] = (firsts[3], seconds[2])
    entries = {e.index: e.pk for e in competition.entries.all()}
    by_pk = {pk: index for index, pk in entries.items()}

    def outcome(slot: str, winner: bool) -> int | None:
        m = slots.get(slot)
        if m is None or m.winner is None or m.first_id is None or m.second_id is None:
            return None
        side = m.winner if winner else 1 - m.winner
        return by_pk[m.first_id if side == 0 else m.second_id]

    if competition.group_count == 4:
        wanted["sf1"] = (outcome("qf1", True), outcome("qf3", True))
        wanted["sf2"] = (outcome("qf2", True), outcome("qf4", True))
    wanted["final"] = (outcome("sf1", True), outcome("sf2", True))
    wanted["third"] = (outcome("sf1", False), outcome("sf2", False))
    for slot in KNOCKOUT_ORDER:
        m = slots.get(slot)
        if m is None or m.source:
            continue  # played: a later correction upstream is the organiser's to settle
        first, second = wanted.get(slot, (None, None))
        first_pk = entries[first] if first is not None else None
        second_pk = entries[second] if second is not None else None
        if (m.first_id, m.second_id) != (first_pk, second_pk):
            m.first_id, m.second_id = first_pk, second_pk
            m.save(update_fields=["first", "second"])  # save() writes its document text too


# ---------------------------------------------------------------------------- standings


@dataclass
class GroupStandings:
    """The standings of a liguilla (group None) or of one group."""

    group: Group | None
    rows: list[Row]


def _standings_key(competition: Competition) -> str:
    # created_at too: a primary key can come back (a rolled-back insert, a test database).
    stamp = competition.created_at.timestamp()
    return f"muscore:league-standings:{competition.pk}:{stamp}:{competition.revision}"


def standings(competition: Competition, *, cached: bool = True) -> list[GroupStandings]:
    """The standings, from the matches' stored figures, cached by revision.

    Each entry's line (kept in step with its matches' figures) is one row, and one more
    query reads the matches among pairs level on points: the number of queries never
    grows with the number of matches, and no hand is replayed. Only read outside a
    write's transaction with `cached` (the default): an entry cached by a write that
    is then rolled back would outlive it.
    """
    key = _standings_key(competition)
    hit = cache.get(key) if cached else None
    if hit is not None:
        groups_by_pk = {g.pk: g for g in competition.groups.all()} if hit[1] else {}
        return [GroupStandings(groups_by_pk.get(gpk) if gpk else None, rows)
                for gpk, rows in hit[0]]
    groups = list(competition.groups.all())
    out = _compute(competition, groups)
    if cached:
        cache.set(key, ([(g.group.pk if g.group else None, g.rows) for g in out],
                        bool(groups)), STANDINGS_CACHE_SECONDS)
    return out


def _side_sums(competition: Competition, side: int) -> Any:
    me, other = ("first", "second") if side == 0 else ("second", "first")
    points = Case(
        When(**{f"no_show_{me}": True}, then=Value(competition.points_forfeit)),
        When(winner=side, then=Value(competition.points_win)),
        default=Value(competition.points_loss),
        output_field=IntegerField(),
    )
    return (
        Match.objects.filter(competition=competition, slot="").exclude(source="")
        .order_by().values(f"{me}_id")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(winner=side)),
            forfeits=Count("id", filter=Q(**{f"no_show_{me}": True})),
            points=Sum(points),
            juegos_for=Coalesce(Sum(f"juegos_{me}"), 0),
            juegos_against=Coalesce(Sum(f"juegos_{other}"), 0),
            tantos_for=Coalesce(Sum(f"tantos_{me}"), 0),
            tantos_against=Coalesce(Sum(f"tantos_{other}"), 0),
        )
        .values_list(f"{me}_id", "played", "won", "forfeits", "points", "juegos_for",
                     "juegos_against", "tantos_for", "tantos_against")
    )


def _compute(competition: Competition, groups: list[Group]) -> list[GroupStandings]:
    lines = list(competition.entries.values_list(
        "pk", "index", "pair__name", "group_id", *LINE_FIELDS))
    entries = [line[:4] for line in lines]
    draw = list(competition.draw or [e[1] for e in entries])
    place = {index: i for i, index in enumerate(draw)}
    rows: dict[int, Row] = {}
    for pk, index, name, _g, *figures in lines:
        row = Row(pair=index, name=name, draw_place=place.get(index, len(draw) + index))
        for field_name, value in zip(LINE_FIELDS, figures, strict=True):
            setattr(row, field_name, value)
        rows[pk] = row
    tables: list[tuple[Group | None, list[int]]] = (
        [(g, [pk for pk, _i, _n, gpk in entries if gpk == g.pk]) for g in groups]
        if groups else [(None, [pk for pk, _i, _n, _g in entries])]
    )
    # Head to head: the matches among the pairs level on points, in one query.
    level: list[list[int]] = []
    for _group, members in tables:
        by_points: dict[int, list[int]] = {}
        for pk in members:
            by_points.setdefault(rows[pk].points, []).append(pk)
        level.extend(pks for pks in by_points.values() if len(pks) > 1)
    if level:
        points = Points(**competition.points)
        # The database compares the two entries' kept points (a join on each match) rather
        # than testing every match against a list of level groups: on 39,800 matches that
        # is 17 ms instead of 70. Group matches are always within one group.
        played: list[tuple[int, int, tuple[int, int]]] = []
        for first, second, winner, nf, ns in (
            Match.objects.filter(competition=competition, slot="",
                                 first__points=F("second__points"))
            .exclude(source="").order_by()
            .values_list("first_id", "second_id", "winner", "no_show_first", "no_show_second")
        ):
            if first is None or second is None or rows[first].points != rows[second].points:
                continue
            gained = match_points(Result((0, 0), None, (nf, ns), "juegos"), points) if (
                nf or ns) else ((points.win, points.loss) if winner == 0
                               else (points.loss, points.win))
            played.append((first, second, gained))
        # Each table (a liguilla, or one group) its own mini-leagues, re-applied among a
        # smaller group still level (league.md, criterion 2), as the document path does.
        for _group, members in tables:
            apply_head_to_head({pk: rows[pk] for pk in members}, played)
    return [GroupStandings(group, order_rows([rows[pk] for pk in members]))
            for group, members in tables]


# ----------------------------------------------------------------------- the document


def league_document(competition: Competition, *, hands: bool = False) -> dict[str, Any]:
    """The competition in league.md's form. A table's result is written as its juegos and
    tantos, or with `hands` as the vaca itself (the export that can be imported again).

    Read with plain value rows (a fixed number of queries whatever the number of
    matches); knockout matches whose pairs are not known yet are left out.
    """
    league_pair_list = league_pairs(competition)
    index_of = dict(competition.entries.values_list("pk", "index"))
    rounds = dict(competition.rounds.values_list("pk", "number"))
    matches: list[dict[str, Any]] = []
    rows = list(Match.objects.filter(competition=competition).order_by("number").values_list(
        "round_id", "first_id", "second_id", "source", "juegos_first", "juegos_second",
        "tantos_first", "tantos_second", "no_show_first", "no_show_second", "players_first",
        "players_second", "table_id"))
    vacas = _table_vacas([row[12] for row in rows if row[3] == Match.Source.TABLE
                          and row[12] is not None]) if hands else {}
    for (round_id, first, second, source, jf, js, tf, ts, nf, ns, pf, ps, table_id) in rows:
        if first is None or second is None:
            continue
        match: dict[str, Any] = {}
        number = rounds[round_id]
        if number:
            match["round"] = number
        pairs = [index_of[first], index_of[second]]
        match["pairs"] = pairs
        vaca = vacas.get(table_id) if (
            hands and source == Match.Source.TABLE and table_id is not None) else None
        if vaca is not None:
            match["vaca"] = vaca
        elif source == Match.Source.NO_SHOW:
            match["forfeit"] = "both" if nf and ns else pairs[0] if nf else pairs[1]
        elif source:
            match["juegos"] = [jf, js]
            if tf is not None and ts is not None:
                match["tantos"] = [tf, ts]
        if pf or ps:
            match["players"] = [pf or None, ps or None]
        matches.append(match)
    return {
        "name": competition.name,
        "rules": competition_rules(competition).to_json(),
        "points": competition.points,
        "legs": competition.legs,
        "draw": list(competition.draw or range(len(league_pair_list))),
        "pairs": league_pair_list,
        "matches": matches,
    }


def league_pairs(competition: Competition) -> list[dict[str, Any]]:
    """The document's `pairs` in entry order, from two value queries (no model rows)."""
    names = list(competition.entries.order_by("index").values_list("pair_id", "pair__name"))
    players: dict[int, list[str]] = {}
    for pair_id, name in (PairMember.objects.filter(pair__entries__competition=competition)
                          .order_by("pair_id", "position").values_list("pair_id", "player__name")):
        players.setdefault(pair_id, []).append(name)
    return [{"name": name, "players": players.get(pair_id, [])} for pair_id, name in names]


DOC_FIELDS = ("round__number", "first__index", "second__index", "source", "juegos_first",
              "juegos_second", "tantos_first", "tantos_second", "no_show_first",
              "no_show_second", "players_first", "players_second")


def refresh_docs(competition: Competition, *, missing_only: bool = False) -> int:
    """Write every match's document text (`Match.doc`) from its row, after bulk writes
    that bypass `save()` (the large club's builder) or to repair them. Returns how many."""
    rows = Match.objects.filter(competition=competition)
    if missing_only:
        rows = rows.filter(doc__isnull=True)
    changed = [
        Match(pk=pk, doc="" if first is None or second is None
              else document_text(round_number, first, second, *rest))
        for pk, round_number, first, second, *rest in rows.values_list("pk", *DOC_FIELDS)
    ]
    Match.objects.bulk_update(changed, ["doc"], batch_size=1000)
    return len(changed)


def api_body(competition: Competition) -> bytes:
    """`api_document` as compact JSON, the matches joined from their stored texts.

    Same document (a test holds them equal). Each match keeps its own text (`Match.doc`,
    written with its result), so a cold request reads one short column per match and
    joins it: on a league of 40,000 matches that is ~15 ms where formatting the rows was
    ~70. A text not written yet (NULL) is worked out here from its row.
    """
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    texts = list(Match.objects.filter(competition=competition).order_by("number")
                 .values_list("number", "doc"))
    if any(text is None for _n, text in texts):
        missing = {
            number: "" if first is None or second is None
            else document_text(round_number, first, second, *rest)
            for number, round_number, first, second, *rest in (
                Match.objects.filter(competition=competition, doc__isnull=True)
                .values_list("number", *DOC_FIELDS))
        }
        texts = [(n, missing.get(n, "") if text is None else text) for n, text in texts]
    pairs = league_pairs(competition)
    head = dumps({
        "name": competition.name,
        "rules": competition_rules(competition).to_json(),
        "points": competition.points,
        "legs": competition.legs,
        "draw": list(competition.draw or range(len(pairs))),
        "pairs": pairs,
    })
    body = (head[:-1] + ',"matches":[' + ",".join([t for _n, t in texts if t])
            + '],"standings":' + dumps(standings_json(competition)) + "}")
    return body.encode()


def standings_json(competition: Competition) -> list[dict[str, Any]]:
    """The standings rows as league.md writes them; in a groups competition each row also
    names its `group` (positions count within the group)."""
    out = []
    for table in standings(competition):
        for row in table.rows:
            line = row.to_json()
            if table.group is not None:
                line["group"] = table.group.name
            out.append(line)
    return out


def api_document(competition: Competition) -> dict[str, Any]:
    """GET /api/v1/leagues/<id>: the league in league.md's form with its standings."""
    return {**league_document(competition), "standings": standings_json(competition)}


STANDINGS_CSV = ["group", "position", "pair", "name", "played", "won", "lost", "forfeits",
                 "points", "juegos_for", "juegos_against", "tantos_for", "tantos_against"]
MATCHES_CSV = ["number", "round", "stage", "group", "first", "second", "result", "juegos_first",
               "juegos_second", "tantos_first", "tantos_second", "no_show", "players_first",
               "players_second", "table", "result_at"]


def standings_csv(competition: Competition, *, sep: str = ",") -> str:
    """The standings as CSV (a spreadsheet's columns: one line per pair); ``sep`` ``;``
    for Spanish Excel (:mod:`muscore.leagues.compute.spreadsheet`)."""
    return write_csv(STANDINGS_CSV, (
        [row.get(column, "") for column in STANDINGS_CSV]
        for row in standings_json(competition)
    ), sep=sep)


def matches_csv(competition: Competition, *, sep: str = ",") -> str:
    """Every match as CSV: its pairs, how its result came (table, manual, no_show) and the
    stored figures; ``sep`` as in :func:`standings_csv`."""
    names = dict(competition.entries.values_list("pk", "pair__name"))
    rows = (Match.objects.filter(competition=competition).order_by("number").values_list(
        "number", "round__number", "round__stage", "round__group__name", "first_id",
        "second_id", "source", "juegos_first", "juegos_second", "tantos_first", "tantos_second",
        "no_show_first", "no_show_second", "players_first", "players_second", "table_id",
        "result_at", "slot"))
    lines = []
    for (number, round_, stage, group, first, second, source, jf, js, tf, ts, nf, ns, pf, ps,
         table, at, slot) in rows:
        no_show = "both" if nf and ns else "first" if nf else "second" if ns else ""
        lines.append([
            number, round_ or "", slot or stage, group or "", names.get(first, ""),
            names.get(second, ""), source, _blank(jf), _blank(js), _blank(tf), _blank(ts),
            no_show, " y ".join(pf or []), " y ".join(ps or []), table or "",
            at.isoformat() if at else "",
        ])
    return write_csv(MATCHES_CSV, lines, sep=sep)


def _blank(value: Any) -> Any:
    return "" if value is None else value


# Tables read per query by the export: their hands are a few hundred kB of JSON.
VACA_BATCH = 500


def _table_vacas(table_ids: list[str]) -> dict[str, dict[str, Any] | None]:
    """Each table's first finished vaca as the export writes it ({"mano", "hands"}, None
    while none is finished), as `_table_vaca` gives it: from the stored vacas and the hand
    records, three queries per VACA_BATCH tables instead of three per table (a large
    league's export read 4,000 tables one by one). A table whose stored vacas are behind
    its hands (loaded by hand) is replayed as before."""
    out: dict[str, dict[str, Any] | None] = {}
    for start in range(0, len(table_ids), VACA_BATCH):
        batch = table_ids[start:start + VACA_BATCH]
        current = set(Table.objects.filter(pk__in=batch, replayed_revision=F("revision"))
                      .values_list("pk", flat=True))
        firsts = {t: (first, mano, count) for t, first, mano, count in
                  VacaCheckpoint.objects.filter(table_id__in=current, index=0,
                                                winner__isnull=False)
                  .values_list("table_id", "first_hand", "mano", "hand_count")}
        records: dict[str, list[Any]] = {}
        for table_id, record in Hand.objects.filter(table_id__in=list(firsts)).order_by(
                "table_id", "number").values_list("table_id", "record"):
            records.setdefault(table_id, []).append(record)
        for table_id in batch:
            if table_id not in current:
                out[table_id] = _table_vaca(table_id)
            elif table_id not in firsts:
                out[table_id] = None
            else:
                first, mano, count = firsts[table_id]
                hands = records.get(table_id, [])
                out[table_id] = {"mano": mano, "hands": hands[first - 1:first - 1 + count]}
    return out


def _table_vaca(table_id: str) -> dict[str, Any] | None:
    table = Table.objects.get(pk=table_id)
    state = tables.table_state(table)
    finished = state["finished"]
    if not finished:
        return None
    first = finished[0]
    records = list(table.hands.order_by("number").values_list("record", flat=True))
    start = first["first_hand"] - 1
    return {"mano": first["mano"], "hands": records[start:start + len(first["hands"])]}


# The largest competition a club imports (the benchmarks' largest league).
IMPORT_MAX_PAIRS = 200


@transaction.atomic
def import_competition(
    club: Club, data: Any, *, by: Any, format: str = Competition.Format.LIGUILLA,
    groups: int = 2, name: str = "",
) -> Competition:
    """A competition from a league document (the export): its pairs (the club's own when
    the names and players match, else new ones), its matches as they were, a vaca's hands
    on a new muscore table of its own.

    The contract has no field for a competition's format, so the organiser says it: with
    `format="groups"` (and `groups`, 2 or 4) the draw places the pairs in groups as it did,
    the group matches must be the ones that draw gives (in the same order) and the
    matches after them the knockout's, each between the pairs the results before it
    send there. Anything else is refused and nothing is written. The club's own export
    imported again is refused as a copy (:func:`document_fingerprint`); `name` names the
    competition instead of the document's name.
    """
    _check_organiser(by, club)
    if name and isinstance(data, dict):
        data = {**data, "name": name}  # another club's competition, named as this club says
    try:
        # The contract allows 1,000 pairs (half a million matches): written in one request
        # that would hold the database's write lock for minutes. A club's league is smaller.
        league = read_league(data, max_pairs=IMPORT_MAX_PAIRS)
    except LeagueError as error:
        raise _league_error(error) from None
    fingerprint = _refuse_copy(club, data)
    pairs = _import_pairs(club, league)
    if format == Competition.Format.GROUPS:
        return _fingerprinted(_import_groups(club, league, pairs, by, groups), fingerprint)
    if format != Competition.Format.LIGUILLA:
        raise CompetitionError(_("Formato desconocido: %(format)s.") % {"format": format})
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, legs=league.legs,
        rules=league.rules.to_json(), points=league.points.to_json(),
    )
    competition.draw = list(league.draw)
    competition.draw_method = "imported"
    competition.drawn_at = timezone.now()
    competition.status = Competition.Status.PLAYING
    competition.save()
    entries = {e.index: e for e in competition.entries.select_related("pair")}
    rounds: dict[int, Round] = {}
    for doc_match in league.matches:
        number = doc_match.round or 0
        if number not in rounds:
            rounds[number] = Round.objects.create(competition=competition, number=number)
    for n, doc_match in enumerate(league.matches, 1):
        first, second = (entries[i] for i in doc_match.pairs)
        match = Match(competition=competition, round=rounds[doc_match.round or 0], number=n,
                      first=first, second=second)
        _import_result(match, doc_match, league, by)
    _after_change(competition)
    return _fingerprinted(competition, fingerprint)


def document_fingerprint(data: Any) -> str:
    """A league document's fingerprint: the SHA-256 of its pairs and matches as canonical
    JSON (its name left out, so a renamed copy is still the same competition)."""
    body = {"pairs": data.get("pairs"), "matches": data.get("matches")}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _refuse_copy(club: Club, data: Any) -> str:
    """The document's fingerprint, unless the club already holds that competition: its own
    export imported again would count every result twice (standings apart, but the ratings
    and the leaders read every match of the club). An earlier import is known by its kept
    fingerprint; a competition made here by its export."""
    fingerprint = document_fingerprint(data)
    same = Competition.objects.filter(club=club, fingerprint=fingerprint).first()
    if same is None:
        # Made here (no fingerprint kept): compared by its export, only those with as many
        # pairs (a renamed copy is still a copy).
        pairs = len(data.get("pairs") or [])
        for candidate in (Competition.objects.filter(club=club, fingerprint="")
                          .annotate(n_entries=Count("entries")).filter(n_entries=pairs)):
            exported = json.loads(json.dumps(league_document(candidate, hands=True)))
            if document_fingerprint(exported) == fingerprint:
                same = candidate
                break
    if same is not None:
        raise CompetitionError(_(
            "Este archivo es una copia de %(name)s, que ya está en el club: importarlo "
            "contaría dos veces sus resultados en los niveles y los líderes.")
            % {"name": same.name})
    return fingerprint


def _fingerprinted(competition: Competition, fingerprint: str) -> Competition:
    Competition.objects.filter(pk=competition.pk).update(fingerprint=fingerprint)
    competition.fingerprint = fingerprint
    return competition


def _import_pairs(club: Club, league: League) -> list[Pair]:
    pairs: list[Pair] = []
    for doc_pair in league.pairs:
        existing = Pair.objects.filter(club=club, name__iexact=doc_pair.name).first()
        if existing is not None:
            if existing.player_names() != list(doc_pair.players):
                raise CompetitionError(
                    _("La pareja %(pair)s ya existe en el club con otros jugadores.")
                    % {"pair": doc_pair.name})
            pairs.append(existing)
            continue
        from muscore.clubs.services import save_pair

        pairs.append(save_pair(club, doc_pair.name, list(doc_pair.players)))
    return pairs


def _import_result(match: Match, doc_match: LeagueMatch, league: League, by: Any) -> None:
    """Save `match` with the document's substitutes and result (a vaca on its own table)."""
    if doc_match.sat:
        match.players_first = list(doc_match.sat[0]) if doc_match.sat[0] else None
        match.players_second = list(doc_match.sat[1]) if doc_match.sat[1] else None
    result = doc_match.result
    if result is None:
        match.save()
        return
    if match.slot:
        _check_knockout(match, result)
    source = {"vaca": Match.Source.TABLE, "juegos": Match.Source.MANUAL,
              "forfeit": Match.Source.NO_SHOW}[result.source]
    if result.source == "vaca" and doc_match.vaca is not None:
        match.table = _import_vaca(match, doc_match.vaca, league.rules)
    match.save()
    _store(match, result, source)
    if match.table_id is not None:
        stats_store.count_table_match(match)
    _audit(match, by, "import", {})


def _import_groups(club: Club, league: League, pairs: list[Pair], by: Any,
                   groups: int) -> Competition:
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, format=Competition.Format.GROUPS,
        groups=groups, legs=league.legs, rules=league.rules.to_json(),
        points=league.points.to_json(), draw=list(league.draw), draw_method="imported",
    )
    competition.refresh_from_db()  # record_draw wrote the draw through its own row
    planned = list(competition.matches.select_related("round", "first", "second")
                   .order_by("number"))
    group_matches = [m for m in planned if not m.slot]
    doc_matches = list(league.matches)

    def refuse(number: int) -> CompetitionError:
        return CompetitionError(
            _("Este documento no es una competición de %(groups)s grupos con su sorteo: la "
              "partida %(n)s no es la que toca.") % {"groups": groups, "n": number})

    def same(match: Match, doc_match: LeagueMatch) -> bool:
        return (match.first is not None and match.second is not None
                and (match.round.number, match.first.index, match.second.index)
                == (doc_match.round, *doc_match.pairs))

    if len(doc_matches) < len(group_matches):
        raise refuse(len(doc_matches) + 1)
    for n, (match, doc_match) in enumerate(zip(group_matches, doc_matches, strict=False), 1):
        if not same(match, doc_match):
            raise refuse(n)
        _import_result(match, doc_match, league, by)
    _fill_knockout(competition)
    done: set[int] = set()
    for n, doc_match in enumerate(doc_matches[len(group_matches):], len(group_matches) + 1):
        # The knockout's next match whose pairs are known, as the export lists them.
        knockout = (Match.objects.filter(competition=competition, first__isnull=False,
                                         second__isnull=False).exclude(slot="")
                    .exclude(pk__in=done).select_related("round", "first", "second")
                    .order_by("number").first())
        if knockout is None or not same(knockout, doc_match):
            raise refuse(n)
        done.add(knockout.pk)
        _import_result(knockout, doc_match, league, by)
        _fill_knockout(competition)
    _after_change(competition)
    return competition


def _import_vaca(match: Match, vaca: Mapping[str, Any], rules: Rules) -> Table:
    first, second = match_players(match)
    seats = [name for seat in zip(first, second, strict=True) for name in seat]
    return tables.import_table(
        {"rules": rules.to_json(), "mano": vaca.get("mano", 0),
         "players": [n[:tables.NAME_MAX] for n in seats], "hands": list(vaca["hands"])},
        via="api",
    )


@transaction.atomic
def schedule_round(
    competition: Competition, number: int, starts_at: datetime | None, *, by: Any
) -> int:
    """When round `number` of a competition is played (every group's round of that number);
    None clears it. Returns how many rounds changed. Only the club's organisers."""
    require_organiser(by, competition.club)
    return Round.objects.filter(competition=competition, number=number).update(starts_at=starts_at)
