"""The standings of a league (league.md, "Standings").

Drawn from each match's stored figures (:class:`~muscore.leagues.compute.document.Result`),
never by replaying hands. The order, each criterion only for pairs level on all the
ones before: points; head to head (the points each pair won in the matches among all
the pairs level on points, as one mini-league; where that leaves a smaller group still
level, the mini-league again among that group alone, and so on); juego difference;
juegos for; tanto difference; the draw.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from muscore.leagues.compute.document import League, Points, Result

# The criteria in order, as named in each row's ``decided_by``.
CRITERIA = ("points", "head_to_head", "juego_difference", "juegos_for", "tanto_difference",
            "draw")


@dataclass
class Row:
    """One pair's line in the standings.

    ``head_to_head`` is the pair's points in the mini-league of the pairs level with it
    on points (0 when no other pair is). ``head_to_head_rounds`` are its points in each
    mini-league it took part in, the first among all the pairs level on points, each next
    one among the smaller group still level after the one before; ``head_to_head_among``
    the pairs (by index) of each of those mini-leagues. ``decided_by`` names the criterion
    that put it below the pair above (None for the first): what a page shows on hover or
    tap.
    """

    pair: int
    name: str
    position: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    forfeits: int = 0
    points: int = 0
    juegos_for: int = 0
    juegos_against: int = 0
    tantos_for: int = 0
    tantos_against: int = 0
    head_to_head: int = 0
    head_to_head_rounds: tuple[int, ...] = ()
    head_to_head_among: tuple[tuple[int, ...], ...] = ()
    decided_by: str | None = None
    draw_place: int = field(default=0, repr=False)

    @property
    def juego_difference(self) -> int:
        return self.juegos_for - self.juegos_against

    @property
    def tanto_difference(self) -> int:
        return self.tantos_for - self.tantos_against

    def key(self) -> tuple[int, tuple[int, ...], int, int, int, int]:
        """The sort key: smaller first; one entry per criterion of CRITERIA.

        Head to head compares the points of each mini-league in turn: two pairs that
        were split by one share every mini-league before it, so the first that differs
        is the one that decided.
        """
        return (-self.points, tuple(-p for p in self.head_to_head_rounds),
                -self.juego_difference, -self.juegos_for, -self.tanto_difference,
                self.draw_place)

    def head_to_head_decider(self, above: Row) -> tuple[int, tuple[int, ...]] | None:
        """Where head to head put this row below ``above``: the mini-league's number (0
        for the first, among all the pairs level on points) and its pairs; None when it
        did not."""
        for level, (mine, theirs) in enumerate(
                zip(self.head_to_head_rounds, above.head_to_head_rounds, strict=False)):
            if mine != theirs:
                return level, self.head_to_head_among[level]
        return None

    def to_json(self) -> dict[str, Any]:
        """The row exactly as league.md writes it."""
        return {
            "position": self.position, "pair": self.pair, "name": self.name,
            "played": self.played, "won": self.won, "lost": self.lost,
            "forfeits": self.forfeits, "points": self.points,
            "juegos_for": self.juegos_for, "juegos_against": self.juegos_against,
            "tantos_for": self.tantos_for, "tantos_against": self.tantos_against,
        }


def match_points(result: Result, points: Points) -> tuple[int, int]:
    """The points each side gets from a result."""
    def side(i: int) -> int:
        if result.no_show[i]:
            return points.forfeit
        return points.win if result.winner == i else points.loss
    return side(0), side(1)


def compute_standings(
    names: Sequence[str],
    draw: Sequence[int],
    points: Points,
    matches: Iterable[tuple[int, int, Result | None]],
) -> list[Row]:
    """The standings of pairs ``names`` (by index) from ``(first, second, result)`` triples.

    Matches without a result count nowhere. ``draw`` is the order of the public draw.
    """
    place = {pair: i for i, pair in enumerate(draw)}
    rows = [Row(pair=i, name=name, draw_place=place.get(i, len(draw) + i))
            for i, name in enumerate(names)]
    played: list[tuple[int, int, tuple[int, int]]] = []
    for first, second, result in matches:
        if result is None:
            continue
        gained = match_points(result, points)
        played.append((first, second, gained))
        tantos = result.tantos or (0, 0)
        for side, me in enumerate((first, second)):
            row = rows[me]
            row.played += 1
            if result.winner == side:
                row.won += 1
            else:
                row.lost += 1
            if result.no_show[side]:
                row.forfeits += 1
            row.points += gained[side]
            row.juegos_for += result.juegos[side]
            row.juegos_against += result.juegos[1 - side]
            row.tantos_for += tantos[side]
            row.tantos_against += tantos[1 - side]
    apply_head_to_head(dict(enumerate(rows)), played)
    return order_rows(rows)


Key = TypeVar("Key", bound=Hashable)


def apply_head_to_head(
    rows: Mapping[Key, Row], played: Iterable[tuple[Key, Key, tuple[int, int]]]
) -> None:
    """Fill each row's head to head from the points ``played`` gave (``(first, second,
    (first's points, second's points))``, the rows named by the same keys).

    One mini-league per group level on points; a smaller group still level after it plays
    its own mini-league with only the matches among its pairs, and so on, until a
    mini-league separates nobody (then the next criterion decides). Matches with a pair
    not in ``rows`` count nowhere (another group's, or a pair level with no one).
    """
    # Each level's own matches apart: a mini-league reads only those (a large league has
    # many levels, and each smaller group only the matches among its pairs).
    games: dict[int, list[tuple[Key, Key, tuple[int, int]]]] = {}
    for a, b, gained in played:
        if a in rows and b in rows and rows[a].points == rows[b].points:
            games.setdefault(rows[a].points, []).append((a, b, gained))
    by_points: dict[int, list[Key]] = {}
    for key, row in rows.items():
        by_points.setdefault(row.points, []).append(key)
    for points, level in by_points.items():
        if len(level) > 1:
            _mini_league(rows, level, games.get(points, []))
    for row in rows.values():
        row.head_to_head = row.head_to_head_rounds[0] if row.head_to_head_rounds else 0


def _mini_league(
    rows: Mapping[Key, Row], keys: list[Key], games: list[tuple[Key, Key, tuple[int, int]]]
) -> None:
    members = set(keys)
    among = tuple(sorted(rows[key].pair for key in keys))
    scores = dict.fromkeys(keys, 0)
    games = [game for game in games if game[0] in members and game[1] in members]
    for a, b, gained in games:
        scores[a] += gained[0]
        scores[b] += gained[1]
    for key in keys:
        rows[key].head_to_head_rounds += (scores[key],)
        rows[key].head_to_head_among += (among,)
    by_score: dict[int, list[Key]] = {}
    for key in keys:
        by_score.setdefault(scores[key], []).append(key)
    if len(by_score) == 1:
        return  # nobody separated: the next criterion decides among them
    for group in by_score.values():
        if len(group) > 1:
            _mini_league(rows, group, games)


def order_rows(rows: list[Row]) -> list[Row]:
    """Sort rows whose figures and head to head are filled in; set position and decided_by.

    The web app fills the rows from sums the database makes over the stored figures, the
    document path from :func:`compute_standings`: both end here, so they order alike.
    """
    ordered = sorted(rows, key=Row.key)
    for position, row in enumerate(ordered, 1):
        row.position = position
        if position > 1:
            above = ordered[position - 2].key()
            mine = row.key()
            row.decided_by = next(
                (name for name, a, b in zip(CRITERIA, above, mine, strict=True) if a != b),
                "draw",
            )
    return ordered


def standings(league: League) -> list[Row]:
    """The standings of a league document."""
    return compute_standings(
        [pair.name for pair in league.pairs],
        league.draw,
        league.points,
        ((m.pairs[0], m.pairs[1], m.result) for m in league.matches),
    )


def standings_json(league: League) -> dict[str, Any]:
    """``{"standings": [...]}`` exactly as league.md writes it."""
    return {"standings": [row.to_json() for row in standings(league)]}
