"""The standings, from the matches' stored results: each entry's line kept in step with
its matches' results (`store`), the tie-breaks of league.md between pairs level on
points, cached by the competition's revision.

- `standings(competition)`, `standings_of(competitions)`, `standings_until(competition,
  upto)`: the groups' rows, in order (`muscore.leagues.compute.standings.Row`)
- `recount_lines(competition)`: every line summed again from the results (the bulk
  builders; a repair)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.db.models.functions import Coalesce

from muscore.leagues.compute.document import Points
from muscore.leagues.compute.standings import Row, apply_head_to_head, match_points, order_rows
from muscore.leagues.models import Competition, Entry, Group, Match

STANDINGS_CACHE_SECONDS = 3600
LINE_FIELDS = ("played", "won", "lost", "forfeits", "points", "juegos_for", "juegos_against",
               "tantos_for", "tantos_against")


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


def side_sums(competition: Competition, side: int, upto: int | None = None) -> Any:
    """Each entry's sums as `side` (0: first, 1: second) of the league matches with a
    result (of rounds up to `upto` when given): played, won, forfeits, points, juegos and
    tantos for and against."""
    me, other = ("first", "second") if side == 0 else ("second", "first")
    absent = Q(**{f"result__{me}_absent": True})
    won = _won(side)
    points = Case(
        When(absent, then=Value(competition.points_forfeit)),
        When(won, then=Value(competition.points_win)),
        default=Value(competition.points_loss),
        output_field=IntegerField(),
    )
    played = Match.objects.filter(competition=competition, tie__isnull=True).played()
    if upto is not None:
        played = played.filter(round__number__lte=upto)
    return (
        played.order_by().values(f"{me}_id")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=won),
            forfeits=Count("id", filter=absent),
            points=Sum(points),
            juegos_for=Coalesce(Sum(f"result__{me}_juegos"), 0),
            juegos_against=Coalesce(Sum(f"result__{other}_juegos"), 0),
            tantos_for=Coalesce(Sum(f"result__{me}_tantos"), 0),
            tantos_against=Coalesce(Sum(f"result__{other}_tantos"), 0),
        )
        .values_list(f"{me}_id", "played", "won", "forfeits", "points", "juegos_for",
                     "juegos_against", "tantos_for", "tantos_against")
    )


def _won(side: int) -> Q:
    """The condition "`side` won" on a played match, as `Result.winner` derives it: the
    other pair did not show up, or both did and `side` has more juegos."""
    me, other = ("first", "second") if side == 0 else ("second", "first")
    return (Q(**{f"result__{other}_absent": True, f"result__{me}_absent": False})
            | Q(**{"result__first_absent": False, "result__second_absent": False,
                   f"result__{me}_juegos__gt": F(f"result__{other}_juegos")}))


def standings_of(competitions: Sequence[Competition]) -> dict[int, list[GroupStandings]]:
    """The standings of many competitions (a championship phase's groups), by competition
    id, in a fixed number of queries whatever their number: the cached ones in one read,
    the others from their entries' stored lines and the matches among pairs level on
    points, each read once for them all. Same rows as :func:`standings`."""
    keys = {c.pk: _standings_key(c) for c in competitions}
    hits = cache.get_many(list(keys.values())) if keys else {}
    missing = [c for c in competitions if keys[c.pk] not in hits]
    group_rows = list(Group.objects.filter(competition__in=competitions))
    groups: dict[int, list[Group]] = {}
    for group in group_rows:
        groups.setdefault(group.competition_id, []).append(group)
    out: dict[int, list[GroupStandings]] = {}
    for competition in competitions:
        hit = hits.get(keys[competition.pk])
        if hit is not None:
            by_pk = {g.pk: g for g in groups.get(competition.pk, [])}
            out[competition.pk] = [GroupStandings(by_pk.get(gpk) if gpk else None, rows)
                                   for gpk, rows in hit[0]]
    if not missing:
        return out
    lines: dict[int, list[Any]] = {}
    for line in Entry.objects.filter(competition__in=missing).order_by(
            "competition_id", "index").values_list(
            "competition_id", "pk", "index", "pair__name", "group_id", *LINE_FIELDS):
        lines.setdefault(line[0], []).append(line[1:])
    level: dict[int, list[Any]] = {}
    for competition_id, first, second, result in (
            Match.objects.filter(competition__in=missing, tie__isnull=True,
                                 first__points=F("second__points"))
            .played().order_by().outcomes("competition_id", "first_id", "second_id")):
        level.setdefault(competition_id, []).append((first, second, result))
    fresh = {}
    for competition in missing:
        ordered = sorted(groups.get(competition.pk, []), key=lambda g: g.order)
        result = _compute_from(competition, ordered, lines.get(competition.pk, []),
                               lambda c=competition: level.get(c.pk, []))
        out[competition.pk] = result
        fresh[keys[competition.pk]] = ([(g.group.pk if g.group else None, g.rows)
                                        for g in result], bool(ordered))
    cache.set_many(fresh, STANDINGS_CACHE_SECONDS)
    return out


def standings_until(competition: Competition, upto: int) -> list[GroupStandings]:
    """The standings as they stood after round `upto`: from the results of rounds up to it
    only (a round's card tells that round, whatever was played since). Not cached."""
    sums: dict[int, list[int]] = {}
    for side in (0, 1):
        for pk, played, won, forfeits, points, jf, ja, tf, ta in side_sums(
                competition, side, upto):
            line = sums.setdefault(pk, [0] * len(LINE_FIELDS))
            for i, value in enumerate((played, won, played - won, forfeits, points,
                                       jf, ja, tf, ta)):
                line[i] += value
    lines = [(pk, index, name, group, *sums.get(pk, [0] * len(LINE_FIELDS)))
             for pk, index, name, group in competition.entries.order_by("index").values_list(
                 "pk", "index", "pair__name", "group_id")]

    def level_matches() -> list[Any]:
        # The pairs level on points after that round are known only here: every league
        # match up to it is read (_compute_from keeps those between level pairs).
        return (Match.objects.filter(competition=competition, tie__isnull=True,
                                     round__number__lte=upto)
                .played().order_by().outcomes("first_id", "second_id"))

    return _compute_from(competition, list(competition.groups.all()), lines, level_matches)


def _compute(competition: Competition, groups: list[Group]) -> list[GroupStandings]:
    lines = list(competition.entries.values_list(
        "pk", "index", "pair__name", "group_id", *LINE_FIELDS))

    def level_matches() -> list[Any]:
        # The database compares the two entries' kept points (a join on each match) rather
        # than testing every match against a list of level groups: on 39,800 matches that
        # is 17 ms instead of 70. Group matches are always within one group.
        return (Match.objects.filter(competition=competition, tie__isnull=True,
                                     first__points=F("second__points"))
                .played().order_by().outcomes("first_id", "second_id"))

    return _compute_from(competition, groups, lines, level_matches)


def _compute_from(competition: Competition, groups: list[Group], lines: list[Any],
                  level_matches: Any) -> list[GroupStandings]:
    # `level_matches()` reads the played matches between entries level on points, only
    # asked for when some entries are level.
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
        played: list[tuple[int, int, tuple[int, int]]] = []
        for first, second, result in level_matches():
            if first is None or second is None or rows[first].points != rows[second].points:
                continue
            played.append((first, second, match_points(result, points)))
        # Each table (a liguilla, or one group) its own mini-leagues, re-applied among a
        # smaller group still level (league.md, criterion 2), as the document path does.
        for _group, members in tables:
            apply_head_to_head({pk: rows[pk] for pk in members}, played)
    return [GroupStandings(group, order_rows([rows[pk] for pk in members]))
            for group, members in tables]


def recount_lines(competition: Competition) -> None:
    """Set every entry's standings line from the matches' stored figures (the bulk builder
    uses it; also a repair should a line ever drift)."""
    sums: dict[int, dict[str, int]] = {}
    for side in (0, 1):
        for pk, *values in side_sums(competition, side):
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
