"""A knockout as ties and games (muscore.leagues.models.knockout): each tie's place in the
bracket and its name, its winner from its games' results, and what the results send on,
which the owner of results writes in the result's own write (`fill`): the pairs of the
ties after, and a tie's next game.

A cup (a groups competition's knockout) has its ties and their one game each from its
draw; its first round takes the groups' places (`SEEDS`: 1A against 2B...). A knockout
alone (a championship's knockout phase, `draw`) has its first round's pairs from its
places, and its games made as its ties go: the first (both first two of a best of 3) once
a tie's pairs are known, the next while it is undecided and every game before is played;
the pairs swap sides each game. In both, every later tie takes the winners of the two
ties before it in the bracket (round r, place o: round r - 1's places 2o and 2o + 1), and
the match for third place (the last round's place 1) the semifinals' losers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore.clubs.permissions import Actor
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Competition, Match, Round, Tie
from muscore.leagues.models.knockout import SEEDS, game_title, name, places, rounds_of
from muscore.leagues.results import consequences
from muscore.leagues.results.standings import standings
from muscore.leagues.results.store import write


def winner(tie: Tie, games: Sequence[Match]) -> int | None:
    """The entry that won `tie` (its id), once one pair has won most of its best of N
    (a bye's one pair at once); None until then."""
    if tie.best_of == 0:
        return tie.first_id or tie.second_id
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


def draw(competition: Competition, bracket: Sequence[int | None], *, best_of: int,
         third: bool) -> None:
    """Draw a knockout alone: its places (`bracket`, entry indices in bracket order, None
    for a bye; a power of 2) kept as its draw, every tie of every round made (the first
    round's with their pairs, a bye played to no game), the match for third place when
    asked and there are semifinals, and the first games (`fill`)."""
    competition.draw = list(bracket)
    competition.drawn_at = timezone.now()
    competition.status = Competition.Status.PLAYING
    competition.save(update_fields=["draw", "drawn_at", "status"])
    entries = dict(competition.entries.values_list("index", "pk"))
    rounds = rounds_of(competition)
    ties = []
    for order in range(len(bracket) // 2):
        first, second = (entries.get(i) if i is not None else None
                         for i in bracket[2 * order:2 * order + 2])
        ties.append(Tie(competition=competition, round=1, order=order, first_id=first,
                        second_id=second, best_of=best_of if first and second else 0))
    ties += [Tie(competition=competition, round=number, order=order, best_of=best_of)
             for number in range(2, rounds + 1) for order in range(2 ** (rounds - number))]
    if third and rounds >= 2:
        ties.append(Tie(competition=competition, round=rounds, order=1, best_of=best_of))
    Tie.objects.bulk_create(ties)
    fill(competition)


def fill(
    competition: Competition, *, by: Actor | None = None, reset: bool = False, reason: str = "",
) -> None:
    """Put in each tie not played yet the pairs the standings and the ties before send
    there. A played one whose pairs would change is a KnockoutConflict, or with `reset`
    its games are cleared (audited with `reason`, required: ReasonRequired) and the
    knockout filled again, until nothing differs. Then each tie whose pairs are known
    gets the games it waits for (a knockout alone's)."""
    while True:
        conflicts = _fill_once(competition)
        if not conflicts:
            break
        if competition.format == Competition.Format.KNOCKOUT:  # its hands are never lost
            game = Match.objects.select_related("tie").get(pk=conflicts[0].pk)
            raise CompetitionError(_(
                "Este resultado cambia quién juega «%(game)s» en %(championship)s, que ya "
                "se jugó: borra antes su resultado y vuelve a anotar este.")
                % {"game": game_title(competition, game.tie, game.game),
                   "championship": consequences.full_title(competition).split(" · ")[0]})
        if not reset:
            raise KnockoutConflict([m.number for m in conflicts])
        for m in conflicts:
            m.table = None  # its table seated other pairs: a new one is opened to replay it
            write(m, None, by=by, action="reset", reason=reason)
    if competition.format == Competition.Format.KNOCKOUT:
        _next_games(competition)


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


def _read(competition: Competition) -> tuple[_Bracket, list[Match]]:
    """The competition's ties by place with their games in order, and its matches of no
    tie (a cup's groups)."""
    matches = list(Match.objects.filter(competition=competition).with_outcome())
    games: dict[int, list[Match]] = {}
    for m in matches:
        if m.tie_id is not None:
            games.setdefault(m.tie_id, []).append(m)
    for tie_games in games.values():
        tie_games.sort(key=lambda m: m.game or 0)
    ties = {(t.round, t.order): t for t in competition.ties.all()}
    return _Bracket(ties, games), [m for m in matches if m.tie_id is None]


def _wanted(competition: Competition, bracket: _Bracket, group_matches: list[Match],
            rounds: int) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """The pairs (entry ids) the results send to each tie (a knockout alone's first round
    keeps the pairs of its draw)."""
    wanted: dict[tuple[int, int], tuple[int | None, int | None]] = {}
    if competition.format == Competition.Format.KNOCKOUT:
        for (number, order), tie in bracket.ties.items():
            if number == 1:
                wanted[(1, order)] = (tie.first_id, tie.second_id)
    elif all(m.played for m in group_matches):
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


@dataclass
class Fill:
    """What filling a knockout writes, worked out from what is stored (`planned`): the
    ties that take other pairs (set on them), their games between those pairs, off the
    tables opened for the others (set on them), a knockout alone's games removed, and the
    played games whose pairs would change (`conflicts`: nothing is written for them)."""

    ties: list[Tie]
    games: list[Match]
    removed: list[int]
    conflicts: list[Match]

    def writes(self) -> bool:
        """Whether writing it changes any row."""
        return bool(self.ties or self.games or self.removed)


def planned(competition: Competition) -> Fill:
    """What filling the ties not played yet writes (`write_fill`), read and worked out
    without writing: the worker's import reads it before its transaction, which then only
    writes it (the reads, the whole competition and its standings, held SQLite's lock up
    to 380 ms a knockout match at load 9-11)."""
    bracket, group_matches = _read(competition)
    rounds = rounds_of(competition)
    wanted = _wanted(competition, bracket, group_matches, rounds)
    fill = Fill([], [], [], [])
    # Being played (a hand at its table) counts as played: those hands are never lost.
    started = set(consequences.started(Match.objects.filter(
        competition=competition, tie__isnull=False)).values_list("pk", flat=True))
    alone = competition.format == Competition.Format.KNOCKOUT
    for place in places(rounds):
        tie = bracket.ties.get(place)
        if tie is None:
            continue
        first, second = wanted.get(place, (None, None))
        games = bracket.games.get(tie.pk, [])
        played = [m for m in games if m.played or m.pk in started]
        if alone and games and None in (first, second):
            # A tie without both its pairs plays nothing yet: a game made before a
            # correction took one of them out goes (or the change is refused, played).
            if played:
                fill.conflicts += played
                continue
            fill.removed += [m.pk for m in games]
            games = []
        if (tie.first_id, tie.second_id) == (first, second):
            continue
        if played:
            fill.conflicts += played  # played between other pairs: the organiser decides
            continue
        tie.first_id, tie.second_id = first, second
        fill.ties.append(tie)
        if alone:  # made again for the new pairs, on new tables
            fill.removed += [m.pk for m in games]
            continue
        fill.games += games
        for m in games:
            m.first_id, m.second_id = first, second
            m.table = None  # a table opened for other pairs: a new one is opened for these
    if fill.games:
        # What their document text reads, read here: `write_fill` only writes.
        entries = competition.entries.in_bulk()
        played_in = Round.objects.in_bulk({m.round_id for m in fill.games})
        for m in fill.games:
            m.first = entries.get(m.first_id) if m.first_id is not None else None
            m.second = entries.get(m.second_id) if m.second_id is not None else None
            m.round = played_in[m.round_id]
    return fill


def write_fill(fill: Fill) -> None:
    """Write what `planned` worked out (its conflicts are the caller's)."""
    if fill.removed:
        Match.objects.filter(pk__in=fill.removed).delete()
    for tie in fill.ties:
        tie.save(update_fields=["first", "second"])
    for m in fill.games:
        m.save(update_fields=["first", "second", "table"])  # its document text too


def _fill_once(competition: Competition) -> list[Match]:
    """Fill the ties not played yet; the played games whose pairs differ from those the
    results send there. A knockout alone's games made for other pairs are removed (made
    again for the new pairs by `_next_games`)."""
    fill = planned(competition)
    write_fill(fill)
    return fill.conflicts


def _next_games(competition: Competition) -> None:
    """Make the games a knockout alone waits for: a tie's first game (and second, for a
    best of 3) once both its pairs are known, its next one while it is undecided and
    every game before is played. Each game is the competition's next match, in a round
    of its own for each tie's round and game number (the games played side by side); the
    tie's first pair opens the odd games."""
    bracket, _group = _read(competition)
    number = (Match.objects.filter(competition=competition).aggregate(n=Max("number"))["n"]
              or 0)
    most = max((t.best_of for t in bracket.ties.values()), default=1) or 1
    made: list[Match] = []
    for (tie_round, _order), tie in sorted(bracket.ties.items()):
        if not tie.best_of or tie.first_id is None or tie.second_id is None:
            continue
        games = bracket.games.get(tie.pk, [])
        if winner(tie, games) is not None:
            continue
        if not games:
            count = min(tie.best_of, 2) if tie.best_of > 1 else 1
        elif all(m.played for m in games) and len(games) < tie.best_of:
            count = 1
        else:
            continue
        for game in range(len(games) + 1, len(games) + count + 1):
            round_number = (tie_round - 1) * most + game
            played_in, _new = Round.objects.get_or_create(
                competition=competition, number=round_number,
                defaults={"stage": "knockout"})
            number += 1
            pairs = (tie.first_id, tie.second_id) if game % 2 else (tie.second_id,
                                                                    tie.first_id)
            made.append(Match(competition=competition, round=played_in, number=number,
                              tie=tie, game=game, first_id=pairs[0], second_id=pairs[1]))
    for match in made:
        match.save()  # its document text from its round and entries
