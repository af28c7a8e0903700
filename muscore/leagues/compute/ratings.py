"""Player ratings (league.md, "Ratings"): openskill's ``ThurstoneMostellerFull``.

One rating per player, since partners change: each match with a result, in order,
forfeits left out, is rated as two teams (the players who sat) ranked by the result,
with the model's default parameters. ``nivel`` = mu - 3 sigma is the figure shown.
Ratings are always recomputed from the whole history, so a corrected result re-rates
everything after it and the same history always gives the same ratings.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from muscore.leagues.compute.document import League

if TYPE_CHECKING:
    from openskill.models import ThurstoneMostellerFull


def model() -> ThurstoneMostellerFull:
    """The rating model with openskill's default parameters."""
    # Imported here so that standings and fixtures run with the standard library alone.
    from openskill.models import ThurstoneMostellerFull

    return ThurstoneMostellerFull()


@dataclass(frozen=True)
class RatedMatch:
    """A match as the ratings see it: who sat on each side, and which side won (0 or 1)."""

    first: Sequence[str]
    second: Sequence[str]
    winner: int


@dataclass
class PlayerRating:
    """A player's rating after the last match, and its nivel after each match played."""

    player: str
    mu: float
    sigma: float
    matches: int = 0
    history: list[float] = field(default_factory=list, repr=False)

    @property
    def nivel(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """The entry exactly as league.md writes it."""
        return {"player": self.player, "mu": self.mu, "sigma": self.sigma, "nivel": self.nivel,
                "matches": self.matches}


def rate(matches: Iterable[RatedMatch]) -> list[PlayerRating]:
    """Rate ``matches`` in order; the players who played, highest nivel first.

    Players level on nivel keep alphabetical order, so the list is deterministic.
    """
    out: dict[str, PlayerRating] = {}
    for after in replay(((m.first, m.second, m.winner) for m in matches), {}):
        for name, mu, sigma, matches_rated in after:
            entry = out.get(name)
            if entry is None:
                entry = out[name] = PlayerRating(name, mu, sigma)
            entry.mu, entry.sigma, entry.matches = mu, sigma, matches_rated
            entry.history.append(entry.nivel)
    return sorted(out.values(), key=lambda r: (-r.nivel, r.player))


Key = TypeVar("Key", bound=Hashable)
# A player's state between matches: mu, sigma and how many matches rated so far.
State = tuple[float, float, int]


def replay(
    matches: Iterable[tuple[Sequence[Key], Sequence[Key], int]],
    start: Mapping[Key, State],
) -> Iterator[list[tuple[Key, float, float, int]]]:
    """Rate ``matches`` (first side, second side, winner 0 or 1) in order, starting from
    each player's state in ``start`` (a player missing there is new: the model's default
    rating), and yield, after each match, its players' new ``(key, mu, sigma, matches)``.

    The stored ratings (muscore.leagues.rating_store) resume from the states kept after
    an earlier match with this same function, so resuming and computing from the first
    match give the same floats: openskill's rating is only its mu and sigma.
    """
    tm = model()
    current: dict[Key, State] = dict(start)
    for first, second, winner in matches:
        teams = [
            [tm.rating(mu=current[p][0], sigma=current[p][1]) if p in current else tm.rating()
             for p in side]
            for side in (first, second)
        ]
        ranks: list[float] = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
        rated = tm.rate(teams, ranks=ranks)
        after = []
        for side, team in zip((first, second), rated, strict=True):
            for player, rating in zip(side, team, strict=True):
                played = current[player][2] + 1 if player in current else 1
                current[player] = (rating.mu, rating.sigma, played)
                after.append((player, rating.mu, rating.sigma, played))
        yield after


def rated_matches(league: League) -> list[RatedMatch]:
    """The league's matches that count for ratings: with a result, not forfeited."""
    out = []
    for match in league.matches:
        result = match.result
        if result is None or result.is_forfeit or result.winner is None:
            continue
        first, second = match.players(league.pairs)
        out.append(RatedMatch(first, second, result.winner))
    return out


def ratings(league: League) -> list[PlayerRating]:
    """The ratings of a league document's players."""
    return rate(rated_matches(league))


def ratings_json(league: League) -> dict[str, Any]:
    """``{"ratings": [...]}`` exactly as league.md writes it."""
    return {"ratings": [rating.to_json() for rating in ratings(league)]}


def win_probability(
    first: Sequence[PlayerRating | None], second: Sequence[PlayerRating | None]
) -> tuple[float, float]:
    """openskill's prediction that each of two teams wins (None: a player not rated yet)."""
    tm = model()
    teams = [
        [tm.rating() if r is None else tm.rating(mu=r.mu, sigma=r.sigma) for r in side]
        for side in (first, second)
    ]
    first_wins, second_wins = tm.predict_win(teams)
    return first_wins, second_wins
