"""A draw's fixtures worked out from the competition's entries before they are written
(muscore.leagues.competitions.record_draw plans them outside its transaction, which on
SQLite holds the site's one write lock, and writes them inside it): the groups, the
rounds, the matches in their order with their document texts, written as plain rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from muscore.leagues.compute.fixtures import fixtures
from muscore.leagues.models import Competition, Entry, Group, Match, Round, Tie, document_text
from muscore.leagues.models.knockout import name as bracket_name
from muscore.leagues.rows import insert_returning, insert_rows, prepared_rows

GROUP_NAMES = "ABCD"
# A knockout tie's place in its bracket: (round from 1, its place in the round).
Place = tuple[int, int]


@dataclass(frozen=True)
class DrawPlan:
    """A draw's fixtures, worked out from the competition's entries before they are
    written: the groups' members (entry ids), the rounds (number, group's place, the
    entry that rests, stage) and the matches in their order (round's place, the knockout
    tie's place in its bracket, (round, place), or None, the entries' ids, the match's
    document text)."""

    basis: tuple[Any, ...]
    drawn: list[int]
    members: list[list[int]]
    rounds: list[tuple[int, int | None, int | None, str]]
    matches: list[tuple[int, Place | None, int | None, int | None, str]]


def basis(competition: Competition, entries: Sequence[Entry]) -> tuple[Any, ...]:
    """What a plan is worked out from: if it is the same in the transaction, so is the plan."""
    return (competition.format, competition.legs, competition.group_count,
            tuple((e.pk, e.index) for e in entries))


def plan(competition: Competition, draw: list[int], entries: Sequence[Entry]) -> DrawPlan:
    """The fixtures of `draw` (entry indices in the order drawn, already read) for the
    competition's `entries` (a liguilla or groups and their knockout)."""
    by_index = {e.index: e for e in entries}
    rounds: list[tuple[int, int | None, int | None, str]] = []
    planned: list[tuple[int, int, int, Entry | None, Entry | None, Place | None]] = []
    # (round's place in `rounds`, sort key group, order, first, second, tie's place)
    members: list[list[Entry]] = []
    if competition.format == Competition.Format.LIGUILLA:
        for number, fixture in enumerate(fixtures(len(draw), competition.legs), 1):
            bye = by_index[draw[fixture.bye[0]]].pk if fixture.bye else None
            rounds.append((number, None, bye, "league"))
            for order_, (a, b) in enumerate(fixture.matches):
                planned.append((len(rounds) - 1, 0, order_, by_index[draw[a]],
                                by_index[draw[b]], None))
    else:
        members = [[] for _ in range(competition.group_count)]
        for place, index in enumerate(draw):
            members[place % len(members)].append(by_index[index])
        for g, group in enumerate(members):
            for number, fixture in enumerate(fixtures(len(group), competition.legs), 1):
                bye = group[fixture.bye[0]].pk if fixture.bye else None
                rounds.append((number, g, bye, "league"))
                for order_, (a, b) in enumerate(fixture.matches):
                    planned.append((len(rounds) - 1, g, order_, group[a], group[b], None))
        last = max(number for number, *_rest in rounds)
        stages = (["quarterfinal"] if len(members) == 4 else []) + ["semifinal", "final"]
        for number, stage in enumerate(stages, 1):
            rounds.append((last + number, None, None, stage))
            # The ties of the round, each with its one game, in the order they are named
            # (qf1..qf4, sf1, sf2, final, third), as the pages and the document list them.
            ties = [(number, order) for order in range(2 ** (len(stages) - number))]
            if number == len(stages):
                ties.append((number, 1))  # the match for third place
            ties.sort(key=lambda t: bracket_name(t[0], t[1], len(stages)))
            for order_, tie in enumerate(ties):
                planned.append((len(rounds) - 1, 0, order_, None, None, tie))
    planned.sort(key=lambda p: (rounds[p[0]][0], p[1], p[2]))
    return DrawPlan(
        basis=basis(competition, entries), drawn=draw,
        members=[[e.pk for e in group] for group in members], rounds=rounds,
        matches=[(r, place, first.pk if first else None, second.pk if second else None,
                  document_text(rounds[r][0], first.index, second.index, None, None, None)
                  if first and second else "")
                 for r, _g, _o, first, second, place in planned])


def write(competition: Competition, plan: DrawPlan) -> None:
    """Write a plan: the groups, the entries' groups, the rounds, the matches."""
    write_many([(competition, plan)])


def write_many(plans: Sequence[tuple[Competition, DrawPlan]]) -> None:
    """Write the plans of many competitions (a championship phase's liguillas) with their
    rounds in one insert and their matches in one, whatever their number."""
    made: list[list[Round]] = []
    for competition, plan in plans:
        groups = [Group.objects.create(competition=competition, name=GROUP_NAMES[g], order=g)
                  for g in range(len(plan.members))]
        for group, members in zip(groups, plan.members, strict=True):
            Entry.objects.filter(pk__in=members).update(group=group)
        made.append([Round(competition=competition, number=number, stage=stage, bye_id=bye,
                           group=groups[g] if g is not None else None)
                     for number, g, bye, stage in plan.rounds])
    Round.objects.bulk_create([r for rounds in made for r in rounds])
    made_ties = Tie.objects.bulk_create(
        [Tie(competition=competition, round=place[0], order=place[1])
         for competition, plan in plans for _r, place, *_rest in plan.matches if place])
    ties = {(tie.competition_id, (tie.round, tie.order)): tie.pk for tie in made_ties}
    # Plain rows, not Match instances through bulk_create: a 200-pair liguilla's 19,900
    # matches took 1.5 s that way, holding the write lock (issue 21: requests bounded).
    insert_rows(Match, MATCH_FIELDS, [
        (competition.pk, rounds[r].pk, n, ties[(competition.pk, place)] if place else None,
         1 if place else None, first, second, doc)
        for (competition, plan), rounds in zip(plans, made, strict=True)
        for n, (r, place, first, second, doc) in enumerate(plan.matches, 1)])


# A new match's columns (the others are null until it is played).
MATCH_FIELDS = ("competition", "round", "number", "tie", "game", "first", "second", "doc")


@dataclass
class Liguillas:
    """Many one-leg liguillas (a championship phase's groups) worked out before their
    transaction, every row prepared (`rows.prepared_rows`): in the transaction only the
    ids are filled in (a row's competition, entries and round are named by their place
    in these lists until then). A phase of 112 groups held SQLite's lock 0.6-0.85 s on a
    busy machine while bulk_create prepared its 1,000 instances inside (issue 28)."""

    competitions: list[Competition]
    competition_rows: list[tuple[Any, ...]]
    entry_rows: list[tuple[Any, ...]]
    round_rows: list[tuple[Any, ...]]
    # (competition's place, round's place, number, first's place, second's, doc)
    matches: list[tuple[int, int, int, int | None, int | None, str]]


def _fields(model: type[Any]) -> list[str]:
    return [f.name for f in model._meta.concrete_fields if not f.primary_key]


COMPETITION_FIELDS, ENTRY_FIELDS, ROUND_FIELDS = (
    _fields(Competition), _fields(Entry), _fields(Round))


def liguillas(made: Sequence[Competition], pairs: Sequence[Sequence[Any]]) -> Liguillas:
    """The rows of the unsaved liguillas `made`, each with its `pairs` drawn in the order
    given (their fixtures as `plan` makes them)."""
    entries: list[Entry] = []
    rounds: list[Round] = []
    matches: list[tuple[int, int, int, int | None, int | None, str]] = []
    for place, (competition, drawn) in enumerate(zip(made, pairs, strict=True)):
        # Each entry's pk is its place in `entries` until the transaction gives its id.
        own = [Entry(pk=len(entries) + i, competition_id=place, pair=pair, index=i)
               for i, pair in enumerate(drawn)]
        entries.extend(own)
        planned = plan(competition, list(range(len(own))), own)
        first_round = len(rounds)
        rounds.extend(Round(competition_id=place, number=number, stage=stage, bye_id=bye)
                      for number, _g, bye, stage in planned.rounds)
        matches.extend((place, first_round + r, n, first, second, doc)
                       for n, (r, _tie, first, second, doc) in enumerate(planned.matches, 1))
    for entry in entries:
        entry.pk = None
    return Liguillas(list(made), prepared_rows(made, COMPETITION_FIELDS),
                     prepared_rows(entries, ENTRY_FIELDS), prepared_rows(rounds, ROUND_FIELDS),
                     matches)


def _relinked(rows: Sequence[tuple[Any, ...]], fields: Sequence[str],
              ids: dict[str, Sequence[int]]) -> list[tuple[Any, ...]]:
    """`rows` with each column of `ids` (a field's name) turned from a place to its id."""
    places = {fields.index(name): found for name, found in ids.items()}
    return [tuple(found[value] if value is not None and (found := places.get(c)) is not None
                  else value for c, value in enumerate(row)) for row in rows]


def write_liguillas(planned: Liguillas) -> list[Competition]:
    """Write the liguillas, in the caller's transaction: one insert of each kind."""
    made = insert_returning(Competition, COMPETITION_FIELDS, planned.competition_rows)
    entries = insert_returning(Entry, ENTRY_FIELDS, _relinked(
        planned.entry_rows, ENTRY_FIELDS, {"competition": made}))
    rounds = insert_returning(Round, ROUND_FIELDS, _relinked(
        planned.round_rows, ROUND_FIELDS, {"competition": made, "bye": entries}))
    insert_rows(Match, MATCH_FIELDS, [
        (made[c], rounds[r], n, None, None, entries[first] if first is not None else None,
         entries[second] if second is not None else None, doc)
        for c, r, n, first, second, doc in planned.matches])
    for competition, pk in zip(planned.competitions, made, strict=True):
        competition.pk = pk
        competition._state.adding = False
    return planned.competitions
