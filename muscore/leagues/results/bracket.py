"""A knockout as ties and games (muscore.leagues.models.knockout): each tie's place in the
bracket and its name, its winner from its games' results, and what the results send on,
which the owner of results writes in the result's own write (`fill`).

A cup (a groups competition's knockout) has its ties and their one game each from its
draw. Its first round takes the groups' places (`SEEDS`: 1A against 2B...); every later
tie the winners of the two ties before it in the bracket (round r, place o: round r - 1's
places 2o and 2o + 1), and the match for third place (the last round's place 1) the
semifinals' losers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import ngettext

from muscore.clubs.permissions import Actor
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Competition, Match, Tie
from muscore.leagues.models.knockout import SEEDS, name, places, rounds_of
from muscore.leagues.results import consequences
from muscore.leagues.results.standings import standings
from muscore.leagues.results.store import write


def winner(tie: Tie, games: Sequence[Match]) -> int | None:
    """The entry that won `tie` (its id), once one pair has won most of its best of N;
    None until then."""
    needed = tie.best_of // 2 + 1
    wins: dict[int, int] = {}
    for game in games:
        result = game.outcome
        if result is None or result.winner is None or game.first_id is None or (
                game.second_id is None):
            continue
        won = game.first_id if result.winner == 0 else game.second_id
        wins[won] = wins.get(won, 0) + 1
        if wins[won] >= needed:
            return won
    return None


def loser(tie: Tie, games: Sequence[Match]) -> int | None:
    """The entry that lost a decided `tie` (its pair in the games the winner won)."""
    won = winner(tie, games)
    for game in games if won is not None else []:
        if won in (game.first_id, game.second_id):
            return game.second_id if won == game.first_id else game.first_id
    return None


def placed(competition: Competition) -> list[int]:
    """A cup's pairs (entry indices) in the order its knockout placed them: the final's
    winner and loser, the third place's, then those the semifinals and quarterfinals put
    out; each pair once, a tie not decided yet left out."""
    index_of = dict(competition.entries.values_list("pk", "index"))
    rounds = rounds_of(competition)
    games = {name(number, place, rounds): (first, second, result)
             for number, place, first, second, result in Match.objects.filter(
                 competition=competition, tie__isnull=False).outcomes(
                 "tie__round", "tie__order", "first_id", "second_id")}
    order: list[int] = []
    for tie in ("final", "third", "sf1", "sf2", "qf1", "qf2", "qf3", "qf4"):
        first, second, result = games.get(tie, (None, None, None))
        if result is None or result.winner is None or first is None or second is None:
            continue
        sides = [first, second]
        for pk in (sides[result.winner], sides[1 - result.winner]):
            if index_of[pk] not in order:
                order.append(index_of[pk])
    return order


class KnockoutConflict(CompetitionError):
    """A change that would send other pairs to knockout matches already played: refused
    (the whole write rolls back) unless the organiser resets those matches with it."""

    code = "knockout_conflict"
    status = 409

    def __init__(self, numbers: Sequence[int]) -> None:
        self.numbers = list(numbers)
        super().__init__(
            ngettext("Este cambio cambia quién juega la partida %(numbers)s, que ya se jugó. "
                     "Para hacerlo, anula también lo que depende de este resultado: esa "
                     "partida se borra (queda en el registro) y se vuelve a jugar.",
                     "Este cambio cambia quién juega las partidas %(numbers)s, que ya se "
                     "jugaron. Para hacerlo, anula también lo que depende de este resultado: "
                     "esas partidas se borran (quedan en el registro) y se vuelven a jugar.",
                     len(self.numbers))
            % {"numbers": ", ".join(str(n) for n in self.numbers)})


def fill(
    competition: Competition, *, by: Actor | None = None, reset: bool = False, reason: str = "",
) -> None:
    """Put in each tie not played yet the pairs the standings and the ties before send
    there. A played one whose pairs would change is a KnockoutConflict, or with `reset`
    its games are cleared (audited with `reason`, required: ReasonRequired) and the
    knockout filled again, until nothing differs."""
    while True:
        conflicts = _fill_once(competition)
        if not conflicts:
            return
        if not reset:
            raise KnockoutConflict([m.number for m in conflicts])
        for m in conflicts:
            m.table = None  # its table seated other pairs: a new one is opened to replay it
            write(m, None, by=by, action="reset", reason=reason)


@dataclass
class _Bracket:
    ties: dict[tuple[int, int], Tie]
    games: dict[int, list[Match]]

    def result(self, number: int, order: int, won: bool) -> int | None:
        tie = self.ties.get((number, order))
        if tie is None:
            return None
        games = self.games.get(tie.pk, [])
        return winner(tie, games) if won else loser(tie, games)


def _wanted(competition: Competition, bracket: _Bracket, group_matches: list[Match],
            rounds: int) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """The pairs (entry ids) the results send to each tie."""
    wanted: dict[tuple[int, int], tuple[int | None, int | None]] = {}
    if all(m.played for m in group_matches):
        # Never from the cache inside a write: a rolled-back write must leave no trace there.
        placed = {f"{place + 1}{g.group.name}": row.pair
                  for g in standings(competition, cached=False) if g.group is not None
                  for place, row in enumerate(g.rows[:2])}
        entries = {e.index: e.pk for e in competition.entries.all()}
        for order, (first, second) in enumerate(SEEDS[competition.group_count]):
            wanted[(1, order)] = (entries.get(placed.get(first, -1)),
                                  entries.get(placed.get(second, -1)))
    for number in range(2, rounds + 1):
        for order in range(2 ** (rounds - number)):
            wanted[(number, order)] = (bracket.result(number - 1, 2 * order, True),
                                       bracket.result(number - 1, 2 * order + 1, True))
    wanted[(rounds, 1)] = (bracket.result(rounds - 1, 0, False),
                           bracket.result(rounds - 1, 1, False))
    return wanted


def _fill_once(competition: Competition) -> list[Match]:
    """Fill the ties not played yet; the played games whose pairs differ from those the
    results send there."""
    matches = list(Match.objects.filter(competition=competition).with_outcome())
    games: dict[int, list[Match]] = {}
    for m in matches:
        if m.tie_id is not None:
            games.setdefault(m.tie_id, []).append(m)
    for tie_games in games.values():
        tie_games.sort(key=lambda m: m.game or 0)
    bracket = _Bracket({(t.round, t.order): t for t in competition.ties.all()}, games)
    rounds = rounds_of(competition)
    wanted = _wanted(competition, bracket, [m for m in matches if m.tie_id is None], rounds)
    conflicts: list[Match] = []
    # Being played (a hand at its table) counts as played: those hands are never lost.
    started = set(consequences.started(Match.objects.filter(
        competition=competition, tie__isnull=False)).values_list("pk", flat=True))
    for place in places(rounds):
        tie = bracket.ties.get(place)
        if tie is None:
            continue
        first, second = wanted.get(place, (None, None))
        if (tie.first_id, tie.second_id) == (first, second):
            continue
        played = [m for m in games.get(tie.pk, []) if m.played or m.pk in started]
        if played:
            conflicts += played  # played between other pairs: the organiser decides
            continue
        tie.first_id, tie.second_id = first, second
        tie.save(update_fields=["first", "second"])
        for m in games.get(tie.pk, []):
            m.first_id, m.second_id = first, second
            m.table = None  # a table opened for other pairs: a new one is opened for these
            m.save(update_fields=["first", "second", "table"])  # its document text too
    return conflicts
