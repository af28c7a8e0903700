"""The club players' ratings, stored and kept in step with the results (league.md, "Ratings").

One history per club: every match of every competition of the club with a result, in the
club's rating order, rated with `muscore.leagues.compute.ratings.replay` (openskill's
ThurstoneMostellerFull, default parameters). Each player who sat gets a `RatingPoint`
after the match (mu, sigma, nivel, matches so far); `PlayerRating` keeps the last one.
Substitutes are rated for the matches they sat in (`Match.players_first/second`), the
pair's own players otherwise; no-shows rate nobody.

**The order.** A club's matches are rated by the time their result *first* arrived
(`RatingMatch.arrived_at`, set once and kept through corrections and clears), then by the
match's id. Why: a club plays several competitions at once (the winter league, a one-day
ceros tournament on a Friday), and a player's rating should move in the order the games
were played, across competitions, which neither "competition then match number" nor a
round's date (often not set) gives. Keeping the *first* arrival means a corrected result
stays where it was played instead of jumping to the end; the id breaks ties (results
stored in one bulk write, an import: the match numbers' order).

**Recomputing.** When a result arrives, changes or is cleared, or who sat changes,
`match_changed` (called by muscore.leagues.results in the write's transaction) re-rates
from that match on: the points at or after its place are deleted, each player's state
just before it is read back (mu, sigma, matches), and the rest of the history is replayed
from there. A new result is the last in the order, so it re-rates one match; a correction
of an old match re-rates everything after it, unless it rates the same players the same
way as before (only the juegos or tantos corrected: nothing to do). The floats resumed
are the floats stored, so the result is exactly that of computing the whole history
afresh (`rate_club`, the `rate_players` command), which the tests check.

**Outside the request.** Re-rating an early match of a large club replays tens of thousands
of matches (8-18 s for the benchmark's club): inside the write it held a worker past
gunicorn's timeout and SQLite's one write lock for as long. So a write that would re-rate
more than INLINE_LIMIT matches only records, in its own transaction, from where the club's
ratings are out of date (`RatingBacklog`, the earliest place wins), and every later write of
that club joins the backlog rather than rate on stale figures. `manage.py rating_worker`
(`catch_up`) then places the matches that have no place yet (a large import's), computes
the tail with no transaction open, and writes all of it (places, points, the players'
last ratings) in short transactions sized to hold the write lock about LOCK_TARGET (40 ms)
each (`pacing.in_chunks`); when it ends it drops the backlog only if no write joined it
meanwhile, and otherwise starts again from the earliest place, so the ratings end as a
fresh `rate_club` gives them whatever the order of the writes. A worker stopped or killed
between two of its transactions leaves the backlog, and what it wrote is such that the
next catch-up ends the same (`_apply`'s order). The pages say the ratings are being
brought up to date while a backlog is there (`waiting`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from muscore.clubs.models import Club, PairMember, Player
from muscore.clubs.people import name_key, player_ids
from muscore.leagues import pacing
from muscore.leagues.compute.ratings import State, replay
from muscore.leagues.models import (
    Competition,
    Correction,
    Entry,
    Match,
    PlayerRating,
    RatingBacklog,
    RatingMatch,
    RatingPoint,
    outcomes,
)
from muscore.leagues.rows import insert_rows

BATCH = 2000
# A write re-rates at most this many matches itself (a new result re-rates one; a few
# hundred take well under 200 ms); more wait for the worker.
INLINE_LIMIT = 300
# Matches the worker re-rates per transaction to start with; then each transaction's size
# follows how long the last one held the write lock, aiming at LOCK_TARGET seconds (250
# matches held SQLite's lock ~0.9 s on a loaded machine: every other write waited that long).
# 80 ms each held the lock 160-225 ms at load 8-9 (a loaded machine's spikes) and a writer
# waited 481 ms behind the catch-up (issue 28): 40 ms, and at most 200 matches.
CHUNK = 50
MAX_CHUNK = 200
LOCK_TARGET = 0.04
# The players' last ratings, likewise (a row each): 156,000 points' worth of a large club's
# 600 players in one transaction held the lock 150-400 ms at load 8-10 (issue 40).
RATINGS_CHUNK = 200
MAX_RATINGS_CHUNK = 1000
# Matches placed in the rating order per transaction (a large import's 39,800 in one held
# the lock for seconds).
PLACES_CHUNK = 100
MAX_PLACES_CHUNK = 2000
Place = tuple[datetime, int]


def match_changed(match: Match) -> None:
    """Re-rate the match's club from this match on (its result, or who sat, changed).

    Call inside the transaction of the write: the ratings change with the result or not
    at all. A match that never had a result has no place and changes nothing.
    """
    club_id, rated = Competition.objects.filter(pk=match.competition_id).values_list(
        "club_id", "rated").get()
    if not rated:
        return  # another club's competition kept for the record: not in the ratings
    # One re-rating of a club at a time (PostgreSQL): two results of two competitions
    # arriving together would otherwise replay the same tail over each other. FOR NO KEY
    # UPDATE: the rows the worker inserts meanwhile (its points name the club) take a KEY
    # SHARE lock of the club's row, which FOR UPDATE waited for (issue 28: a correction
    # waited 323 ms behind the catch-up at load 9).
    _lock_club(club_id)
    # Unordered (RatingMatch's ordering joins the club, match and competition): the
    # correction of a large club's first match spent 40-83 ms at load 8 in the count below
    # sorting the club's 39,000 places only to count 301 of them (issue 28).
    arrived = next(iter(RatingMatch.objects.filter(match_id=match.pk).order_by().values_list(
        "arrived_at", flat=True)[:1]), None)
    if arrived is None:
        if not match.played:
            return
        arrived = match.result_at or timezone.now()
        RatingMatch.objects.create(club_id=club_id, match_id=match.pk, arrived_at=arrived)
    since = (arrived, match.pk)
    if _join_backlog(club_id, since):
        return  # the stored figures are out of date already: the worker re-rates this too
    if _rates_as_before(club_id, match):
        # The same players on the same sides and the same winner (a correction of the
        # juegos or tantos only, a no-show for another): every rating stays as it is.
        return
    if RatingMatch.objects.filter(club_id=club_id).filter(_from(since)).order_by()[
            :INLINE_LIMIT + 1].count() > INLINE_LIMIT:
        RatingBacklog.objects.create(club_id=club_id, since_at=arrived, since_match=match.pk)
        return
    rerate(club_id, since)


def _lock_club(club_id: int) -> None:
    """The club's row, as a re-rating of its players locks it (till the commit)."""
    list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).order_by()
         .values_list("pk", flat=True))


def _join_backlog(club_id: int, since: Place) -> bool:
    """Add `since` to the club's backlog if it has one (the club row is locked)."""
    backlog = RatingBacklog.objects.filter(club_id=club_id).first()
    if backlog is None:
        return False
    backlog.since_at, backlog.since_match = min((backlog.since_at, backlog.since_match), since)
    backlog.version += 1
    backlog.save(update_fields=["since_at", "since_match", "version"])
    return True


def first_arrival(competition_id: int) -> Place | None:
    """Where the competition's earliest match with a result would take its place in the
    rating order (`place_matches`), or None if it has none. Reads only."""
    return min(((at, pk) for pk, at in _arrivals(Match.objects.filter(
        competition_id=competition_id, rating_place__isnull=True).played())), default=None)


def rerate_later(club_id: int, since: Place | None) -> None:
    """Leave the club's re-rating from `since` to the worker (a large import, just made
    rated, whose earliest match arrived then: `first_arrival`, read before). Call in the
    transaction that makes the competition rated: the backlog is queued with it or not at
    all, and the worker places the matches (`catch_up`), a few hundred a transaction."""
    if since is None:
        return
    _lock_club(club_id)
    if not _join_backlog(club_id, since):
        RatingBacklog.objects.create(club_id=club_id, since_at=since[0], since_match=since[1])


def waiting(club: Club | int) -> bool:
    """Whether the club's ratings are being brought up to date (a backlog waits)."""
    club_id = club if isinstance(club, int) else club.pk
    return RatingBacklog.objects.filter(club_id=club_id).exists()


def catch_up(club_id: int | None = None) -> int:
    """Re-rate every club whose ratings wait (or only `club_id`), oldest backlog first,
    until none waits. Returns how many re-ratings ran. The worker's job; tests call it."""
    runs = 0
    while True:
        backlogs = RatingBacklog.objects.order_by("queued_at", "club_id")
        if club_id is not None:
            backlogs = backlogs.filter(club_id=club_id)
        backlog = backlogs.first()
        if backlog is None:
            return runs
        if _place_waiting(backlog.club_id):
            backlog.refresh_from_db()  # from the earliest place made, if earlier
        plan = _plan(backlog.club_id, (backlog.since_at, backlog.since_match))
        _apply(plan, chunked=True)
        runs += 1
        with transaction.atomic():
            _lock_club(backlog.club_id)
            # Done only if no write joined the backlog meanwhile; else again, from its start.
            RatingBacklog.objects.filter(club_id=backlog.club_id,
                                         version=backlog.version).delete()


def _rates_as_before(club_id: int, match: Match) -> bool:
    """Whether the match now rates exactly whom its stored points rated, the same way."""
    before = set(RatingPoint.objects.filter(match_id=match.pk).values_list(
        "player_id", "side", "won"))
    result = match.outcome
    winner = result.winner if result is not None and result.source != "no_show" else None
    if winner is None:
        return not before
    if match.first_id is None or match.second_id is None:
        return False
    pairs = dict(Entry.objects.filter(pk__in=[match.first_id, match.second_id]).values_list(
        "pk", "pair_id"))
    own: dict[int, list[int]] = {}
    for pair_id, player_id in PairMember.objects.filter(pair_id__in=list(pairs.values())
                                                        ).order_by("position").values_list(
            "pair_id", "player_id"):
        own.setdefault(pair_id, []).append(player_id)
    names = [n for side in (match.players_first, match.players_second) for n in side or []]
    known = player_ids(club_id, names)  # by the Spanish key, as _Sat and the pages find them
    now = set()
    for side, (entry_id, sat) in enumerate(((match.first_id, match.players_first),
                                            (match.second_id, match.players_second))):
        if sat and any(n not in known for n in sat):
            return False  # a name the club does not know yet: rated (and made) anew
        players = [known[n] for n in sat] if sat else own.get(pairs[entry_id], [])
        now |= {(p, side, side == winner) for p in players}
    return now == before


def _from(place: Place, prefix: str = "") -> Q:
    """At or after `place` in the rating order."""
    at, match_id = place
    return Q(**{f"{prefix}arrived_at__gt": at}) | Q(
        **{f"{prefix}arrived_at": at, f"{prefix}match_id__gte": match_id})


@dataclass
class _Sat:
    """Who sat in the matches to rate: each pair's own players, the club's names."""

    own: dict[int, list[int]]
    by_name: dict[str, int]  # by muscore.clubs.people.name_key
    club_id: int

    @classmethod
    def of(cls, club_id: int) -> _Sat:
        own: dict[int, list[int]] = {}
        for pair_id, player_id in PairMember.objects.filter(pair__club_id=club_id).order_by(
                "pair_id", "position").values_list("pair_id", "player_id"):
            own.setdefault(pair_id, []).append(player_id)
        by_name: dict[str, int] = {}
        for name, pk in Player.objects.filter(club_id=club_id).order_by("-pk").values_list(
                "name", "pk"):
            by_name[name_key(name)] = pk  # the first made wins a shared key
        return cls(own, by_name, club_id)

    def side(self, pair_id: int | None, names: Sequence[str] | None) -> list[int]:
        if not names:
            return list(self.own.get(pair_id, [])) if pair_id is not None else []
        return [self._player(name) for name in names]

    def _player(self, name: str) -> int:
        found = self.by_name.get(name_key(name))
        if found is None:
            # As set_players does: a name the club does not know becomes one of its
            # players (an imported league's substitute), so that it is rated too.
            found = Player.objects.create(club_id=self.club_id, name=name).pk
            self.by_name[name_key(name)] = found
        return found


def rerate(club_id: int, since: Place | None) -> int:
    """Replay the club's ratings from `since` (None: from the first match). Returns how
    many matches were rated. Runs in the caller's transaction, or its own."""
    with transaction.atomic():
        return _rerate(club_id, since)


def _rerate(club_id: int, since: Place | None) -> int:
    plan = _plan(club_id, since)
    _apply(plan, chunked=False)
    return plan.rated


@dataclass
class _Plan:
    """A re-rating worked out and not yet written: the new points of every match from
    `since` on (`places`, in order, each with its rows) and each player's last state."""

    club_id: int
    since: Place | None
    places: list[tuple[int, list[tuple[Any, ...]]]]
    final: dict[int, State]
    stale: set[int] | None  # the players whose rating is written again (None: the club's)
    playing: set[int]  # the players of the matches rated
    rated: int


def _plan(club_id: int, since: Place | None) -> _Plan:
    """Work out the re-rating from `since`: reads only (but for a substitute's name the
    club did not know, made one of its players as set_players does)."""
    points = RatingPoint.objects.filter(club_id=club_id)
    tail = points.filter(_from(since)) if since is not None else points
    touched = set(tail.values_list("player_id", flat=True).distinct())
    places = RatingMatch.objects.filter(club_id=club_id)
    if since is not None:
        places = places.filter(_from(since))
    rows = outcomes(places.order_by("arrived_at", "match_id"), "match_id", "arrived_at",
                    "match__first__pair_id", "match__second__pair_id",
                    "match__players_first", "match__players_second", through="match__")
    sat = _Sat.of(club_id)
    every: list[int] = []
    matches: list[tuple[int, datetime, int, list[int], list[int]]] = []
    for (match_id, at, first_pair, second_pair, first_names, second_names,
         result) in rows:
        every.append(match_id)
        winner = result.winner if result is not None and result.source != "no_show" else None
        if winner is None:
            continue
        first, second = sat.side(first_pair, first_names), sat.side(second_pair, second_names)
        if first and second:
            matches.append((match_id, at, winner, first, second))
    playing = {p for m in matches for side in (m[3], m[4]) for p in side}
    start = _states_before(club_id, since, touched, playing)
    final: dict[int, State] = {p: start[p] for p in touched if p in start}
    rated = replay(((m[3], m[4], m[2]) for m in matches), start)
    adapt = connection.ops.adapt_datetimefield_value
    new: dict[int, list[tuple[Any, ...]]] = {}
    for (match_id, at, winner, first, _second), after in zip(matches, rated, strict=True):
        stamp = adapt(at)
        for player, mu, sigma, count in after:
            side = 0 if player in first else 1
            new.setdefault(match_id, []).append(
                (club_id, player, match_id, stamp, side, side == winner, mu, sigma,
                 mu - 3 * sigma, count))
            final[player] = (mu, sigma, count)
    return _Plan(club_id, since, [(m, new.get(m, [])) for m in every], final,
                 touched | playing if since is not None else None, playing, len(matches))


def _apply(plan: _Plan, *, chunked: bool) -> None:
    """Write a re-rating: at once (in the caller's transaction), or in short transactions
    (the worker's `catch_up`: each holds the lock about LOCK_TARGET; the pages say it is
    catching up).

    In short transactions, in an order that a worker stopped or killed between any two
    leaves a state the next catch-up, from the same backlog, ends right: first the
    ratings of the players no match of the tail rates any more (their last points may be
    among those replaced, and then the next plan would not find them), then the points,
    a few matches at a time, then the ratings of the players who played (the next plan
    reads their state before `since` from their points, which are all there by then)."""
    if not chunked:
        points = RatingPoint.objects.filter(club_id=plan.club_id)
        (points.filter(_from(plan.since)) if plan.since is not None else points).delete()
        _insert_points([row for _match, rows in plan.places for row in rows])
        _write_ratings(plan)
        return
    if plan.since is None:  # no place: points of matches that lost theirs go too
        RatingPoint.objects.filter(club_id=plan.club_id, match__rating_place__isnull=True
                                   ).delete()
    stale = plan.stale if plan.stale is not None else set(
        PlayerRating.objects.filter(club_id=plan.club_id).values_list("pk", flat=True))

    def ratings(players: Sequence[int]) -> None:
        _write_ratings_of(plan, players)

    def matches(chunk: Sequence[tuple[int, list[tuple[Any, ...]]]]) -> None:
        RatingPoint.objects.filter(match_id__in=[m for m, _rows in chunk]).delete()
        _insert_points([row for _match, rows in chunk for row in rows])

    pacing.in_chunks(sorted(stale - plan.playing), ratings, "a rating batch's players",
                     first=RATINGS_CHUNK, most=MAX_RATINGS_CHUNK, target=LOCK_TARGET)
    pacing.in_chunks(plan.places, matches, "a rating batch", first=CHUNK, most=MAX_CHUNK,
                     target=LOCK_TARGET)
    pacing.in_chunks(sorted(plan.playing), ratings, "a rating batch's players",
                     first=RATINGS_CHUNK, most=MAX_RATINGS_CHUNK, target=LOCK_TARGET)


def _write_ratings(plan: _Plan) -> None:
    stale = PlayerRating.objects.filter(club_id=plan.club_id)
    if plan.stale is not None:
        stale = stale.filter(pk__in=plan.stale)
    stale.delete()
    # Plain rows: a backfill writes every player's rating at once.
    insert_rows(PlayerRating, RATING_FIELDS, [
        (p, plan.club_id, mu, sigma, mu - 3 * sigma, count)
        for p, (mu, sigma, count) in plan.final.items()])


def _write_ratings_of(plan: _Plan, players: Sequence[int]) -> None:
    """The last rating of these players as the plan ends it (none: it rated them never)."""
    PlayerRating.objects.filter(pk__in=players).delete()
    insert_rows(PlayerRating, RATING_FIELDS, [
        (p, plan.club_id, mu, sigma, mu - 3 * sigma, count)
        for p, (mu, sigma, count) in ((p, plan.final[p]) for p in players
                                      if p in plan.final)])


RATING_FIELDS = ("player", "club", "mu", "sigma", "nivel", "matches")
POINT_FIELDS = ("club", "player", "match", "arrived_at", "side", "won", "mu", "sigma", "nivel",
                "matches")


def _insert_points(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert RatingPoint rows given as values in POINT_FIELDS' order (one executemany: a
    backfill or an old match's correction writes a row per player per match)."""
    insert_rows(RatingPoint, POINT_FIELDS, rows)


def _states_before(
    club_id: int, since: Place | None, touched: set[int], playing: set[int]
) -> dict[int, State]:
    """Each player's (mu, sigma, matches) just before `since`: the stored last rating of a
    player none of whose points were replaced, the last point before `since` otherwise."""
    if since is None:
        return {}
    states: dict[int, State] = {
        pk: (mu, sigma, n) for pk, mu, sigma, n in PlayerRating.objects.filter(
            pk__in=playing - touched).values_list("pk", "mu", "sigma", "matches")}
    if touched:
        last = RatingPoint.objects.filter(player_id=OuterRef("pk")).exclude(
            _from(since)).order_by("-arrived_at", "-match_id")
        rows = Player.objects.filter(pk__in=touched).annotate(
            last_mu=Subquery(last.values("mu")[:1]),
            last_sigma=Subquery(last.values("sigma")[:1]),
            last_n=Subquery(last.values("matches")[:1]),
        ).values_list("pk", "last_mu", "last_sigma", "last_n")
        for pk, mu, sigma, n in rows:
            if mu is not None:
                states[pk] = (mu, sigma, n)
    return states


def _missing(club_id: int) -> QuerySet[Match]:
    """The club's rated matches with a result and no place yet."""
    return Match.objects.filter(competition__club_id=club_id, competition__rated=True,
                                rating_place__isnull=True).played()


def _arrivals(matches: QuerySet[Match]) -> list[tuple[int, datetime]]:
    """Each match's place in the rating order: when its result first arrived, as the
    audit (Correction) remembers it, else its result's time (else now)."""
    first_audit = Correction.objects.filter(
        match_id=OuterRef("pk"), after_result__isnull=False).order_by("at", "id").values("at")[:1]
    now = timezone.now()
    out = []
    for pk, result_at, first in matches.annotate(first_arrival=Subquery(first_audit)
                                                 ).values_list("pk", "result_at",
                                                               "first_arrival"):
        times = [t for t in (result_at, first) if t is not None]
        out.append((pk, min(times) if times else now))
    return out


def place_matches(club_id: int) -> int:
    """Give every match of the club with a result and no place yet its place
    (`_arrivals`), in the caller's transaction. Returns how many were placed."""
    made = [RatingMatch(club_id=club_id, match_id=pk, arrived_at=at)
            for pk, at in _arrivals(_missing(club_id))]
    RatingMatch.objects.bulk_create(made, batch_size=BATCH)
    return len(made)


def _place_waiting(club_id: int) -> int:
    """The worker's `place_matches`: the places worked out before, written a few hundred
    a transaction, each moving the club's backlog to the earliest it made (so that a
    worker stopped between two leaves the backlog where the re-rating must start).
    A place a write made meanwhile is kept. Returns how many were placed."""
    places = [RatingMatch(club_id=club_id, match_id=pk, arrived_at=at)
              for pk, at in _arrivals(_missing(club_id))]  # made outside the transactions

    def place(chunk: Sequence[RatingMatch]) -> None:
        _lock_club(club_id)
        RatingMatch.objects.bulk_create(chunk, ignore_conflicts=True)
        earliest = min((p.arrived_at, p.match_id) for p in chunk)
        RatingBacklog.objects.filter(club_id=club_id).filter(
            Q(since_at__gt=earliest[0])
            | Q(since_at=earliest[0], since_match__gt=earliest[1])).update(
            since_at=earliest[0], since_match=earliest[1])

    pacing.in_chunks(places, place, "a rating's places", first=PLACES_CHUNK,
                     most=MAX_PLACES_CHUNK, target=LOCK_TARGET)
    return len(places)


def rate_club(club: Club | int) -> int:
    """Recompute a club's ratings from its whole history (the backfill). Returns how many
    matches were rated."""
    club_id = club if isinstance(club, int) else club.pk
    with transaction.atomic():
        place_matches(club_id)
        return _rerate(club_id, None)


# ------------------------------------------------------------------------------- reading


def history(player: Player) -> list[float]:
    """The player's nivel after each rated match, in order."""
    return list(RatingPoint.objects.filter(player=player).order_by(
        "arrived_at", "match_id").values_list("nivel", flat=True))


def current(players: Iterable[int]) -> dict[int, PlayerRating]:
    """The last rating of each of these players who has one."""
    return {r.pk: r for r in PlayerRating.objects.filter(pk__in=list(players))}
