"""Storage for a club's competitions, one module per thing the club names: a competition
with its groups, entries and rounds (`competition`); a knockout's ties (`knockout`); a
match and its audit (`match`); a
result, stored once and read as a value (`result`); what placed a competition and what
was drawn from it (`stage`); the pairs' links and claims
(`claims`); the players' ratings (`ratings`); what the hands say (`stats`); a ceros
tournament's rounds (`ceros`); the worker's documents and imports (`documents`) and its
own rows (`workers`).

Business logic lives in the service modules (competitions, results, confirmations...);
the pure computations (standings, fixtures, ratings) in the Django-free package
muscore.leagues.compute.
"""

from muscore.leagues.models.ceros import CerosDraft, CerosEvent
from muscore.leagues.models.claims import ClaimEvent, ResultClaim, SideKey, new_side_key
from muscore.leagues.models.competition import Competition, Entry, Group, Round
from muscore.leagues.models.documents import (
    DocumentBacklog,
    LeagueImport,
    LeagueImportDocument,
    PreparedPart,
)
from muscore.leagues.models.knockout import Tie
from muscore.leagues.models.match import (
    REASON_MAX,
    Correction,
    Match,
    MatchQuerySet,
    document_text,
)
from muscore.leagues.models.ratings import PlayerRating, RatingBacklog, RatingMatch, RatingPoint
from muscore.leagues.models.result import (
    ResultRow,
    from_q,
    outcomes,
    unplayed_q,
)
from muscore.leagues.models.stage import Stage
from muscore.leagues.models.stats import HandCounts, PairHandStats, PlayerHandStats
from muscore.leagues.models.workers import WorkClaim, WorkerBeat

__all__ = [
    "REASON_MAX", "CerosDraft", "CerosEvent", "ClaimEvent", "Competition",
    "Correction", "DocumentBacklog", "Entry", "Group", "HandCounts", "LeagueImport",
    "LeagueImportDocument", "Match", "MatchQuerySet", "PairHandStats", "PlayerHandStats",
    "PlayerRating", "PreparedPart", "RatingBacklog", "RatingMatch", "RatingPoint",
    "ResultClaim", "ResultRow", "Round", "SideKey", "Stage", "Tie", "WorkClaim", "WorkerBeat",
    "document_text", "from_q", "new_side_key", "outcomes", "unplayed_q",
]
