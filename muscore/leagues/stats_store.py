"""What the hands say, stored: each match's counts per pair and per player, and the reads.

When a match's table stores its result (``results.on_table_changed``), :func:`count_match` counts
the hands of the table's first vaca (the one the result is; muscore.leagues.compute.handstats,
over the engine's answers kept in the table's state) and writes a `PairHandStats` row per
side and a `PlayerHandStats` row per player who sat (his side's counts: a hand record
names the side that bets, never the seat). An organiser's result (by hand, a no-show) or
a cleared one drops them (:func:`drop`, from ``results.store.store``). Pages only sum the
stored rows, grouped by the database, in a constant number of queries: nothing is
replayed on a page view. ``manage.py count_hand_stats`` recounts from the tables' hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet, Sum

from muscore.clubs.models import Club, Pair, PairMember, Player
from muscore.clubs.people import player_ids
from muscore.handentry.words import LANCE_NAMES
from muscore.leagues.compute.handstats import FIELDS, LANCES, Counts, count_hands
from muscore.leagues.models import Entry, Match, PairHandStats, PlayerHandStats, from_q
from muscore.rules import Checkpoint, HandResult, replay_evening
from muscore.tables.models import Hand, Table

#: Fewer matches on muscore tables than this and a player or pair is left out of the
#: share leaders (a single lucky night is no habit). Said on the leaders page.
MIN_MATCHES = 3
#: How many players and pairs each leaders' board shows.
TOP = 5


# --------------------------------------------------------------------------- writing


class _Seats:
    """Who sat for each side of a club's matches, as Player ids (the pairs' own players
    in seat order, else the substitutes' names looked up among the club's players)."""

    def __init__(self, club_id: int, pair_ids: Iterable[int]) -> None:
        self.club_id = club_id
        self.members: dict[int, list[int]] = {}
        for pair_id, player_id in PairMember.objects.filter(
                pair_id__in=list(set(pair_ids))).order_by("pair", "position").values_list(
                    "pair_id", "player_id"):
            self.members.setdefault(pair_id, []).append(player_id)
        self.by_name: dict[str, int] | None = None

    def side(self, pair_id: int, names: Sequence[str] | None) -> list[int]:
        if not names:
            return self.members.get(pair_id, [])
        if self.by_name is None:
            self.by_name = {}
        missing = [name for name in names if name not in self.by_name]
        if missing:  # by the Spanish key (muscore.clubs.people), as the ratings find them
            self.by_name.update(player_ids(self.club_id, missing))
        ids = []
        for name in names:
            found = self.by_name.get(name)
            if found is None:  # as set_players does: a name the club did not know yet
                found = Player.objects.create(club_id=self.club_id, name=name).pk
                self.by_name[name] = found
            ids.append(found)
        return ids


@dataclass
class _Sides:
    club_id: int
    entries: tuple[int, int]
    pairs: tuple[int, int]


def _rows(match: Match, sides: _Sides, seats: _Seats, counts: Mapping[str, Counts]
          ) -> tuple[list[PairHandStats], list[PlayerHandStats]]:
    pair_rows: list[PairHandStats] = []
    player_rows: list[PlayerHandStats] = []
    names = (match.players_first, match.players_second)
    for side, key in enumerate("AB"):
        values = counts[key].as_dict()
        common = {"club_id": sides.club_id, "match_id": match.pk, "side": side, **values}
        pair_rows.append(PairHandStats(pair_id=sides.pairs[side], entry_id=sides.entries[side],
                                       **common))
        player_rows.extend(PlayerHandStats(player_id=pk, **common)
                           for pk in dict.fromkeys(seats.side(sides.pairs[side], names[side])))
    return pair_rows, player_rows


def drop(match: Match) -> None:
    """Forget a match's counts (its table's result was cleared or replaced)."""
    PairHandStats.objects.filter(match_id=match.pk).delete()
    PlayerHandStats.objects.filter(match_id=match.pk).delete()


def count_match(match: Match, table: Table, vaca: Mapping[str, Any] | None) -> None:
    """Store the counts of `vaca`, the first vaca of the match's table as its state holds
    it (each hand's result, its first hand's number); None drops them (not won yet).
    Counts that did not change (a hand of a later vaca at the same table) are left alone."""
    if vaca is None or match.first_id is None or match.second_id is None:
        drop(match)
        return
    start = vaca["first_hand"]
    hands = vaca["hands"]
    records = list(Hand.objects.filter(
        table_id=table.pk, number__gte=start, number__lt=start + len(hands)
    ).order_by("number").values_list("record", flat=True))
    counts = count_hands(zip(records, (HandResult(h["result"]) for h in hands), strict=True))
    stored = {row.pop("side"): row for row in
              PairHandStats.objects.filter(match_id=match.pk).values("side", *FIELDS)}
    if stored == {0: counts["A"].as_dict(), 1: counts["B"].as_dict()}:
        return
    drop(match)
    _write(match.competition.club_id, [(match, counts)])


def _write(club_id: int, counted: Sequence[tuple[Match, Mapping[str, Counts]]]) -> int:
    if not counted:
        return 0
    entry_ids = {pk for m, _ in counted for pk in (m.first_id, m.second_id) if pk is not None}
    entries = dict(Entry.objects.filter(pk__in=entry_ids).values_list("pk", "pair_id"))
    seats = _Seats(club_id, entries.values())
    pair_rows: list[PairHandStats] = []
    player_rows: list[PlayerHandStats] = []
    for match, counts in counted:
        first, second = match.first_id, match.second_id
        assert first is not None and second is not None
        sides = _Sides(club_id, (first, second), (entries[first], entries[second]))
        pairs, players = _rows(match, sides, seats, counts)
        pair_rows += pairs
        player_rows += players
    PairHandStats.objects.bulk_create(pair_rows, batch_size=1000)
    PlayerHandStats.objects.bulk_create(player_rows, batch_size=1000)
    return len(counted)


def first_vaca_counts(table: Table, records: Sequence[Mapping[str, Any]]
                      ) -> dict[str, Counts] | None:
    """The counts of a table's first vaca replayed from its records (None: not won yet)."""
    evening = replay_evening(table.rules, records, Checkpoint(0, table.first_mano))
    if not evening["finished"]:
        return None
    vaca = evening["finished"][0]
    hands = vaca["hands"]
    # The first vaca is the first len(hands) records; those after it are later vacas'.
    return count_hands(zip(records[:len(hands)], (HandResult(h["result"]) for h in hands),
                           strict=True))


def count_table_match(match: Match) -> None:
    """Recount one match from its table's hands (an imported vaca, who sat changed)."""
    result = match.outcome
    if result is None or result.source != "table" or match.table_id is None:
        drop(match)
        return
    store_counts(match, table_counts(Table.objects.get(pk=match.table_id)))


def table_counts(table: Table) -> dict[str, Counts] | None:
    """The counts of a table's first vaca, from its stored hands (None: not won yet).
    Reads only: an import's worker asks it before the transaction that writes them
    (`store_counts`)."""
    records = list(table.hands.order_by("number").values_list("record", flat=True))
    return first_vaca_counts(table, records)


def store_counts(match: Match, counts: Mapping[str, Counts] | None) -> None:
    """Replace a match's counts by `counts` (None: it has none)."""
    drop(match)
    if counts is not None:
        _write(match.competition.club_id, [(match, counts)])


def count_club(club: Club, *, batch: int = 300) -> int:
    """Recount every match of the club played on a muscore table (the backfill); returns
    how many matches were counted."""
    PairHandStats.objects.filter(club=club).delete()
    PlayerHandStats.objects.filter(club=club).delete()
    matches = list(Match.objects.filter(
        from_q("table"), competition__club=club, table__isnull=False,
        first__isnull=False, second__isnull=False).order_by("pk"))
    done = 0
    for i in range(0, len(matches), batch):
        chunk = matches[i:i + batch]
        tables = {t.pk: t for t in Table.objects.filter(pk__in=[m.table_id for m in chunk])}
        records: dict[str, list[dict[str, Any]]] = {}
        for table_id, record in Hand.objects.filter(table_id__in=list(tables)).order_by(
                "table_id", "number").values_list("table_id", "record"):
            records.setdefault(table_id, []).append(record)
        counted = []
        for match in chunk:
            assert match.table_id is not None
            counts = first_vaca_counts(tables[match.table_id], records.get(match.table_id, []))
            if counts is not None:
                counted.append((match, counts))
        done += _write(club.pk, counted)
    return done


# --------------------------------------------------------------------------- reading


SUMS = {name: Sum(name) for name in FIELDS}


def _totals(rows: QuerySet[Any]) -> dict[str, int]:
    got = rows.aggregate(matches=Count("id"), **SUMS)
    return {name: value or 0 for name, value in got.items()}


def share(part: int, whole: int) -> int | None:
    """`part` as a whole percentage of `whole` (None when there is no whole)."""
    return round(100 * part / whole) if whole else None


def summary(totals: Mapping[str, int]) -> dict[str, Any]:
    """What the include `leagues/_hand_stats.html` draws from one player's or pair's sums."""
    return {
        **totals,
        "lances": [
            {"lance": lance, "name": LANCE_NAMES[lance], "won": totals[lance],
             "piedras": totals[f"piedras_{lance}"],
             "share": share(totals[f"piedras_{lance}"], totals["piedras"])}
            for lance in LANCES
        ],
        "envites_share": share(totals["envites_accepted"], totals["envites"]),
    }


def player_context(player: Player) -> dict[str, Any]:
    """The context of the include `leagues/_hand_stats.html` for a player (one query)."""
    return {"hand_stats": summary(_totals(PlayerHandStats.objects.filter(player=player))),
            "hand_stats_of": "player"}


def pair_context(pair: Pair, entry: Entry | None = None) -> dict[str, Any]:
    """The context of the include `leagues/_hand_stats.html` for a pair: in one competition
    (its `entry`) or in all of them (one query)."""
    rows = PairHandStats.objects.filter(pair=pair)
    if entry is not None:
        rows = rows.filter(entry=entry)
    return {"hand_stats": summary(_totals(rows)), "hand_stats_of": "pair"}


#: The leaders' boards: (stat, kind) where kind "count" ranks the sums and "share" ranks
#: a lance's piedras as a share of all the lances' piedras (MIN_MATCHES or more).
BOARDS: tuple[tuple[str, str], ...] = (
    ("ordagos_won", "count"), ("juegos_ordago", "count"), ("ordagos", "count"),
    ("envites", "count"), ("envites_accepted", "count"),
    ("dejes_taken", "count"), ("dejes_given", "count"),
    *((lance, "count") for lance in LANCES),
    *((f"piedras_{lance}", "share") for lance in LANCES),
)


@dataclass
class Leader:
    """One line of a leaders' board: who, the figure shown, over how many matches."""

    name: str
    pk: int
    value: int
    matches: int
    detail: int | None = None  # the piedras behind a count (dejes) or a share
    url: str = ""  # the player's page (the view sets it)
    position: int = 1  # level values share their position (1, 1, 3...)


def _grouped(model: type[PlayerHandStats] | type[PairHandStats], club: Club,
             key: str, competition_id: int | None) -> list[dict[str, Any]]:
    rows = model.objects.filter(club=club)
    if competition_id is not None:
        rows = rows.filter(match__competition_id=competition_id)
    else:  # the club's leaders: another club's competition joins them only if rated
        rows = rows.filter(match__competition__rated=True)
    return list(rows.values(key, f"{key}__name").annotate(
        matches=Count("id"), **SUMS).order_by())


def _board(rows: list[dict[str, Any]], key: str, stat: str, kind: str) -> list[Leader]:
    found = []
    for row in rows:
        if kind == "share":
            if row["matches"] < MIN_MATCHES or not row["piedras"]:
                continue
            value = share(row[stat], row["piedras"])
            assert value is not None
            detail = row[stat]
        else:
            value = row[stat]
            detail = row.get(f"{stat}_piedras")
        if value:
            found.append(Leader(row[f"{key}__name"], row[key], value, row["matches"], detail))
    found.sort(key=lambda leader: (-leader.value, leader.matches, leader.name.lower()))
    top = found[:TOP]
    for i, leader in enumerate(top):
        leader.position = top[i - 1].position if i and top[i - 1].value == leader.value else i + 1
    return top


def leaders(club: Club, competition_id: int | None = None) -> dict[str, Any]:
    """The club's leaders in every board, players and pairs, in all its competitions or
    in one: two grouped queries."""
    players = _grouped(PlayerHandStats, club, "player", competition_id)
    pairs = _grouped(PairHandStats, club, "pair", competition_id)
    boards = [
        {"stat": stat, "kind": kind,
         "players": _board(players, "player", stat, kind),
         "pairs": _board(pairs, "pair", stat, kind)}
        for stat, kind in BOARDS
    ]
    return {"boards": boards, "matches": sum(r["matches"] for r in pairs) // 2}


__all__ = ["BOARDS", "MIN_MATCHES", "TOP", "Leader", "count_club", "count_match",
           "count_table_match", "drop", "first_vaca_counts", "leaders", "pair_context",
           "player_context", "share", "summary"]
