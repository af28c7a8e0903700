"""muscore.leagues: a club's league of pairs, as league.md writes it.

The pure part (no Django import, like :mod:`muscore.rules`): reading a league
document (:func:`read_league`), its standings, fixtures and player ratings, and the
command line ``python -m muscore.leagues standings|fixtures|ratings [FILE]``. The
Django app of the same package (models, services) stores competitions and draws its
standings from each match's stored figures through :func:`compute_standings`.

>>> league = read_league({"name": "Liga", "pairs": [
...     {"name": "Ana y Bea", "players": ["Ana", "Bea"]},
...     {"name": "Carlos y Dani", "players": ["Carlos", "Dani"]}],
...     "matches": [{"pairs": [1, 0], "juegos": [3, 2]}]})
>>> [(row.position, row.name, row.points) for row in standings(league)]
[(1, 'Carlos y Dani', 2), (2, 'Ana y Bea', 0)]
"""

from __future__ import annotations

from muscore.leagues.compute.document import (
    League,
    Match,
    Pair,
    Points,
    Result,
    forfeit_result,
    loads_league,
    read_league,
    replay_result,
    vaca_result,
)
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.fixtures import Round, fixtures, fixtures_json
from muscore.leagues.compute.ratings import (
    PlayerRating,
    RatedMatch,
    rate,
    ratings,
    ratings_json,
    win_probability,
)
from muscore.leagues.compute.standings import (
    CRITERIA,
    Row,
    compute_standings,
    standings,
    standings_json,
)

__all__ = [
    "CRITERIA", "League", "LeagueError", "Match", "Pair", "PlayerRating", "Points",
    "RatedMatch", "Result", "Round", "Row", "compute_standings", "fixtures", "fixtures_json",
    "forfeit_result", "loads_league", "rate", "ratings", "ratings_json", "read_league",
    "replay_result", "standings", "standings_json", "vaca_result", "win_probability",
]
