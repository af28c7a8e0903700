"""What an import's batches of matches read (muscore.leagues.imports): the competition's
entries and rounds, a ceros document's byes and tables, a groups competition's planned
matches; the worker reads them before its transactions, which then mostly write."""

from __future__ import annotations

from muscore.leagues.changes import CompetitionError
from muscore.leagues.competitions import pair_players
from muscore.leagues.compute import ceros as ceros_rules
from muscore.leagues.compute.document import Format, League
from muscore.leagues.models import Competition, Match
from muscore.messages import page_message

# A groups competition's planned matches read per query: a batch writes a few dozen.
PLANNED_WINDOW = 200


def ceros_byes(league: League) -> list[int | None]:
    """A ceros document's rounds checked as a tournament, and the pair resting in each
    (CompetitionError: why it is no ceros tournament)."""
    kind = league.format or Format("ceros")
    try:
        return ceros_rules.document_rounds(
            list(range(len(league.pairs))), kind.ceros, [m.round for m in league.matches],
            [None if m.result is None or m.result.winner is None
             else m.pairs[1 - m.result.winner] for m in league.matches],
            [m.pairs for m in league.matches])
    except ceros_rules.CerosError as error:
        raise CompetitionError(page_message(error)) from None


class Frame:
    """What every batch of an import's matches reads: its entries and rounds, read once
    per run of the worker instead of once per batch (600 rows for a 200-pair liguilla:
    a batch of 80 ms wrote 5 matches beside reading them)."""

    def __init__(self, competition: Competition) -> None:
        self.entries = {e.index: e for e in competition.entries.select_related("pair")}
        self.rounds = {r.number: r for r in competition.rounds.all()}
        self._own: dict[int, list[str]] = {}
        self._byes: list[int | None] | None = None
        self._tables: list[int] | None = None
        self._planned: tuple[int, list[Match]] = (0, [])

    def planned(self, competition: Competition, n: int) -> list[Match]:
        """A groups competition's planned matches from its `n`th (0-based) to the end of
        the window of PLANNED_WINDOW that holds it, read when `n` is past the window read
        last: the worker reads it before a batch's transaction (200 matches with their
        rounds and pairs: 17 ms of CPU, which at load 10-13 held the lock 300 ms for
        a batch of one match)."""
        start, window = self._planned
        if not start <= n < start + len(window):
            self._planned = start, window = n, planned_matches(competition, n, PLANNED_WINDOW)
        return window[n - start:]

    def byes(self, league: League) -> list[int | None]:
        """A ceros document's pair resting in each round, worked out once a run."""
        if self._byes is None:
            self._byes = ceros_byes(league)
        return self._byes

    def table_numbers(self, league: League) -> list[int]:
        """A ceros document's each match's table in its round, worked out once a run."""
        if self._tables is None:
            self._tables = table_numbers(league)
        return self._tables

    def players(self, match: Match) -> tuple[list[str], list[str]]:
        """`match_players`, each pair's own players read once a run (a vaca's table is
        made inside its batch's transaction)."""
        assert match.first is not None and match.second is not None
        sides = []
        for sat, entry in ((match.players_first, match.first),
                           (match.players_second, match.second)):
            if sat:
                sides.append(list(sat))
                continue
            if entry.pk not in self._own:
                self._own[entry.pk] = pair_players(entry)
            sides.append(list(self._own[entry.pk]))
        return sides[0], sides[1]


def planned_matches(competition: Competition, n: int, count: int) -> list[Match]:
    """A groups competition's planned matches from its `n`th (0-based), `count` at most."""
    return list(competition.matches.filter(tie__isnull=True).select_related(
        "round", "first", "second").order_by("number")[n:n + count])


def table_numbers(league: League) -> list[int]:
    """Each match's table in its round (1, 2, ...), as a ceros round numbers them."""
    seen: dict[int | None, int] = {}
    out = []
    for doc_match in league.matches:
        seen[doc_match.round] = seen.get(doc_match.round, 0) + 1
        out.append(seen[doc_match.round])
    return out
