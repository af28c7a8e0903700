"""A competition as a document: league.md's form (the export and the API body) and the CSV
files (which standings.csv a competition's format has: :func:`standings_file`). The
import that makes a competition again from its export is
muscore.leagues.imports."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any, NamedTuple, cast

from django.db.models import F
from django.utils import timezone

from muscore.clubs.models import PairMember
from muscore.leagues import ceros_rounds
from muscore.leagues.changes import competition_rules
from muscore.leagues.compute.document import Format, Result
from muscore.leagues.compute.spreadsheet import SPANISH_BRACKET_COLUMNS, write_csv
from muscore.leagues.models import (
    Competition,
    Entry,
    Match,
    Round,
    Tie,
    document_text,
)
from muscore.leagues.models.knockout import game_title, rounds_of
from muscore.leagues.models.knockout import name as tie_name
from muscore.leagues.results import bracket
from muscore.leagues.results.standings import standings
from muscore.tables import services as tables
from muscore.tables.models import Hand, Table, VacaCheckpoint

# ----------------------------------------------------------------------- the document


def league_document(competition: Competition, *, hands: bool = False) -> dict[str, Any]:
    """The competition in league.md's form. A table's result is written as its juegos and
    tantos, or with `hands` as the vaca itself (the export that can be imported again).

    Read with plain value rows (a fixed number of queries whatever the number of
    matches); knockout matches whose pairs are not known yet are left out.
    """
    return league_documents([competition], hands=hands)[competition.pk]


def league_documents(competitions: Sequence[Competition], *,
                     hands: bool = False) -> dict[int, dict[str, Any]]:
    """:func:`league_document` of many competitions (a championship's heats and groups)
    by id, in the same fixed number of queries for one or for hundreds (one more when a
    knockout alone is among them: its ties)."""
    ids = [c.pk for c in competitions]
    knockouts = [c.pk for c in competitions if c.format == Competition.Format.KNOCKOUT]
    ties: dict[int, tuple[int, int]] = {}
    formats: dict[int, list[tuple[int, int, int]]] = {}
    for pk, competition_id, number, order, best_of in (Tie.objects.filter(
            competition_id__in=knockouts).values_list(
            "pk", "competition_id", "round", "order", "best_of") if knockouts else []):
        ties[pk] = (number, order)
        formats.setdefault(competition_id, []).append((number, order, best_of))
    index_of: dict[int, int] = {}
    names: dict[int, list[tuple[int, str]]] = {}
    for competition_id, pk, index, pair_id, name in (
            Entry.objects.filter(competition_id__in=ids).order_by("competition_id", "index")
            .values_list("competition_id", "pk", "index", "pair_id", "pair__name")):
        index_of[pk] = index
        names.setdefault(competition_id, []).append((pair_id, name))
    players: dict[int, list[str]] = {}
    for pair_id, name in (PairMember.objects.filter(
            pair_id__in={p for rows in names.values() for p, _n in rows})
            .order_by("pair_id", "position").values_list("pair_id", "player__name")):
        players.setdefault(pair_id, []).append(name)
    rounds = dict(Round.objects.filter(competition_id__in=ids).values_list("pk", "number"))
    rows: dict[int, list[Any]] = {}
    for row in Match.objects.filter(competition_id__in=ids).order_by(
            "competition_id", "number").outcomes(
            "competition_id", "round_id", "first_id", "second_id", "players_first",
            "players_second", "table_id", "tie_id", "game"):
        rows.setdefault(row[0], []).append(row[1:])
    vacas = table_vacas([row[5] for matches in rows.values() for row in matches
                         if row[-1] is not None and row[-1].source == "table"
                         and row[5] is not None]) if hands else {}
    out = {}
    for competition in competitions:
        pairs = [{"name": name, "players": players.get(pair_id, [])}
                 for pair_id, name in names.get(competition.pk, [])]
        kind = (knockout_format(formats.get(competition.pk, []))
                if competition.pk in knockouts else None)
        out[competition.pk] = {
            **document_head(competition, pairs, kind),
            "matches": [_document_match(row, rounds, index_of, vacas, ties)
                        for row in rows.get(competition.pk, [])
                        if row[1] is not None and row[2] is not None],
        }
    return out


def document_head(competition: Competition, pairs: list[dict[str, Any]],
                  format: Format | None = None) -> dict[str, Any]:
    """A league document's fields before its matches: name, format (groups, ceros and a
    knockout only: a liguilla's document stays as the contract wrote it before it had
    one; `format` the competition's when already read), rules, points, legs, draw (a
    knockout's places, None for a bye), pairs."""
    return {
        "name": competition.name,
        **({"format": (format or competition_format(competition)).to_json()}
           if competition.format != Competition.Format.LIGUILLA else {}),
        "rules": competition_rules(competition).to_json(),
        "points": competition.points,
        "legs": competition.legs,
        "draw": list(competition.draw or range(len(pairs))),
        "pairs": pairs,
    }


def game_documents(competition: Competition) -> list[dict[str, Any]]:
    """A knockout alone's games whose pairs are known, in bracket order (round, tie, game),
    each as league.md writes a liguilla of its two pairs and its one match of round 1,
    named in the reader's language: how a championship's document gives its knockout."""
    doc = league_document(competition)
    games = list(Match.objects.filter(competition=competition).exclude(first=None)
                 .exclude(second=None).select_related("tie", "first", "second")
                 .order_by("number"))
    out = []
    for match, written in sorted(zip(games, doc["matches"], strict=True), key=lambda g: (
            g[0].tie.round if g[0].tie else 0, g[0].tie.order if g[0].tie else 0,
            g[0].game or 0)):
        assert match.first is not None and match.second is not None
        sides = [match.first.index, match.second.index]
        # Its place in the bracket (league.md's knockout) is in its name here.
        written = {k: v for k, v in written.items() if k not in ("tie", "game")}
        if written.get("forfeit") in sides:
            written["forfeit"] = sides.index(written["forfeit"])
        written.update({"round": 1, "pairs": [0, 1]})
        out.append({"name": game_title(competition, match.tie, match.game),
                    "rules": doc["rules"], "points": doc["points"], "legs": 1, "draw": [0, 1],
                    "pairs": [doc["pairs"][i] for i in sides],
                    "matches": [written]})
    return out


def competition_format(competition: Competition) -> Format:
    """The competition's kind as league.md's `format` says it (a knockout's read from its
    ties)."""
    if competition.format == Competition.Format.GROUPS:
        return Format("groups", groups=competition.group_count)
    if competition.format == Competition.Format.CEROS:
        return Format("ceros", ceros=competition.ceros)
    if competition.format == Competition.Format.KNOCKOUT:
        return knockout_format(competition.ties.values_list("round", "order", "best_of"))
    return Format("liguilla")


def knockout_format(ties: Iterable[tuple[int, int, int]]) -> Format:
    """A knockout alone's format from its ties (round, order, best_of): the best of N its
    ties are played to (a bye's 0 aside), and whether it has a match for third place (the
    last round's second tie)."""
    rows = list(ties)
    last = max((number for number, _o, _b in rows), default=1)
    return Format("knockout", best_of=max((b for _n, _o, b in rows), default=1) or 1,
                  third=any((number, order) == (last, 1) for number, order, _b in rows))


def _document_match(row: Sequence[Any], rounds: Mapping[int, int], index_of: Mapping[int, int],
                    vacas: Mapping[str, dict[str, Any] | None],
                    ties: Mapping[int, tuple[int, int]]) -> dict[str, Any]:
    round_id, first, second, pf, ps, table_id, tie_id, game, result = row
    result = cast(Result | None, result)
    match: dict[str, Any] = {}
    number = rounds[round_id]
    if tie_id in ties:  # a knockout alone's game: its tie's round and place, its number
        number, order = ties[tie_id]
        match.update(round=number, tie=order + 1, game=game)
    elif number:
        match["round"] = number
    pairs = [index_of[first], index_of[second]]
    match["pairs"] = pairs
    vaca = vacas.get(table_id) if (result is not None and result.source == "table"
                                   and table_id is not None) else None
    if vaca is not None:
        match["vaca"] = vaca
    elif result is not None and result.source == "no_show":
        nf, ns = result.no_show
        match["forfeit"] = "both" if nf and ns else pairs[0] if nf else pairs[1]
    elif result is not None:
        match["juegos"] = list(result.juegos)
        if result.tantos is not None:
            match["tantos"] = list(result.tantos)
    if pf or ps:
        match["players"] = [pf or None, ps or None]
    return match


def league_pairs(competition: Competition) -> list[dict[str, Any]]:
    """The document's `pairs` in entry order, from two value queries (no model rows)."""
    names = list(competition.entries.order_by("index").values_list("pair_id", "pair__name"))
    players: dict[int, list[str]] = {}
    for pair_id, name in (PairMember.objects.filter(pair__entries__competition=competition)
                          .order_by("pair_id", "position").values_list("pair_id", "player__name")):
        players.setdefault(pair_id, []).append(name)
    return [{"name": name, "players": players.get(pair_id, [])} for pair_id, name in names]


DOC_FIELDS = ("round__number", "first__index", "second__index", "players_first",
              "players_second")


def refresh_docs(competition: Competition, *, missing_only: bool = False) -> int:
    """Write every match's document text (`Match.doc`) from its row, after bulk writes
    that bypass `save()` (the large club's builder) or to repair them. Returns how many."""
    rows = Match.objects.filter(competition=competition)
    if missing_only:
        rows = rows.filter(doc__isnull=True)
    changed = [
        Match(pk=pk, doc="" if first is None or second is None
              else document_text(round_number, first, second, result, pf, ps))
        for pk, round_number, first, second, pf, ps, result in rows.outcomes("pk", *DOC_FIELDS)
    ]
    Match.objects.bulk_update(changed, ["doc"], batch_size=1000)
    return len(changed)


def api_body(competition: Competition, name: str | None = None) -> bytes:
    """`api_document` as compact JSON, the matches joined from their stored texts.

    Same document (a test holds them equal). Each match keeps its own text (`Match.doc`,
    written with its result), so a cold request reads one short column per match and
    joins it: on a league of 40,000 matches that is ~15 ms where formatting the rows was
    ~70. A text not written yet (NULL) is worked out here from its row. ``name``: the
    league's name as the reader reads it (`Competition.title`), else the stored one.
    A knockout alone's is written from its rows (its games name their ties, which the
    kept texts do not; a championship's bracket is a few dozen games at most).
    """
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    if competition.format == Competition.Format.KNOCKOUT:
        return dumps({**api_document(competition), **({"name": name} if name else {})}).encode()
    texts = list(Match.objects.filter(competition=competition).order_by("number")
                 .values_list("number", "doc"))
    if any(text is None for _n, text in texts):
        missing = {
            number: "" if first is None or second is None
            else document_text(round_number, first, second, result, pf, ps)
            for number, round_number, first, second, pf, ps, result in (
                Match.objects.filter(competition=competition, doc__isnull=True)
                .outcomes("number", *DOC_FIELDS))
        }
        texts = [(n, missing.get(n, "") if text is None else text) for n, text in texts]
    pairs = league_pairs(competition)
    head = dumps({**document_head(competition, pairs), **({"name": name} if name else {})})
    body = (head[:-1] + ',"matches":[' + ",".join([t for _n, t in texts if t])
            + '],"standings":' + dumps(standings_json(competition)) + "}")
    return body.encode()


def standings_json(competition: Competition) -> list[dict[str, Any]]:
    """The standings rows as league.md writes them; in a groups competition each row also
    names its `group` (positions count within the group)."""
    out = []
    for table in standings(competition):
        for row in table.rows:
            line = row.to_json()
            if table.group is not None:
                line["group"] = table.group.name
            out.append(line)
    return out


def bracket_json(competition: Competition) -> list[dict[str, Any]]:
    """A knockout alone's ties as league.md writes them in place of standings, in bracket
    order (round, then place): each one's two pairs (entry indices; None not known yet,
    or a bye's missing pair), the games each has won, and the pair that went through."""
    index_of: dict[int | None, int] = dict(competition.entries.values_list("pk", "index"))
    games: dict[int | None, list[Match]] = {}
    for match in (Match.objects.filter(competition=competition, tie__isnull=False)
                  .with_outcome().order_by("game")):
        games.setdefault(match.tie_id, []).append(match)
    out = []
    for tie in competition.ties.order_by("round", "order"):
        played = games.get(tie.pk, [])
        sides = [tie.first_id, tie.second_id]
        wins = [0, 0]
        for game in played:
            result = game.outcome
            won = None if result is None or result.winner is None else (
                game.first_id, game.second_id)[result.winner]
            if won is not None and won in sides:
                wins[sides.index(won)] += 1
        out.append({"round": tie.round, "tie": tie.order + 1,
                    "pairs": [index_of.get(pk) for pk in sides], "wins": wins,
                    "winner": index_of.get(bracket.winner(tie, played))})
    return out


def api_document(competition: Competition) -> dict[str, Any]:
    """GET /api/v1/leagues/<id>: the league in league.md's form with its standings; a
    knockout alone's with its bracket (league.md: its standings are no league table)."""
    if competition.format == Competition.Format.KNOCKOUT:
        return {**league_document(competition), "bracket": bracket_json(competition)}
    return {**league_document(competition), "standings": standings_json(competition)}


STANDINGS_CSV = ["group", "position", "pair", "name", "played", "won", "lost", "forfeits",
                 "points", "juegos_for", "juegos_against", "tantos_for", "tantos_against"]
MATCHES_CSV = ["number", "round", "stage", "group", "first", "second", "result", "juegos_first",
               "juegos_second", "tantos_first", "tantos_second", "no_show", "players_first",
               "players_second", "table", "result_at"]


def standings_csv(competition: Competition, *, sep: str = ",") -> str:
    """The standings as CSV (a spreadsheet's columns: one line per pair); ``sep`` ``;``
    for Spanish Excel (:mod:`muscore.leagues.compute.spreadsheet`)."""
    return write_csv(STANDINGS_CSV, (
        [row.get(column, "") for column in STANDINGS_CSV]
        for row in standings_json(competition)
    ), sep=sep)


BRACKET_CSV = ["round", "tie", "first", "second", "wins_first", "wins_second", "winner"]


def bracket_csv(competition: Competition, *, sep: str = ",") -> str:
    """A knockout alone's standings.csv: its bracket (:func:`bracket_json`, league.md's
    "A knockout"), not a league table all at 0. One line per tie in bracket order: its
    round and place from 1 (the last round's tie 1 the final, tie 2 the third place),
    its two pairs by name (empty: not known yet, or a bye's missing pair), the games each
    has won and the pair that went through (empty until decided); ``sep`` as in
    :func:`standings_csv`."""
    names: dict[int | None, str] = dict(competition.entries.values_list("index", "pair__name"))
    return write_csv(BRACKET_CSV, (
        [tie["round"], tie["tie"], *(names.get(p, "") for p in tie["pairs"]), *tie["wins"],
         names.get(tie["winner"], "")]
        for tie in bracket_json(competition)
    ), sep=sep, spanish=SPANISH_BRACKET_COLUMNS)


class Download(NamedTuple):
    """A CSV file of a competition: its name, and how its body is written (called only
    when no copy kept for the competition's revision is at hand)."""

    filename: str
    write: Callable[[], str]


def standings_file(competition: Competition, *, sep: str = ",") -> Download:
    """standings.csv as the competition's format has it: a ceros tournament's table
    (:func:`muscore.leagues.ceros_rounds.standings_csv`), a knockout alone's bracket
    (:func:`bracket_csv`, docs/league.md "A knockout": named "cuadro", not a league table
    all at 0), else the standings (:func:`standings_csv`); ``sep`` as there."""
    if competition.format == Competition.Format.CEROS:
        return Download(f"clasificacion-{competition.pk}.csv",
                        partial(ceros_rounds.standings_csv, competition, sep=sep))
    if competition.format == Competition.Format.KNOCKOUT:
        return Download(f"cuadro-{competition.pk}.csv",
                        partial(bracket_csv, competition, sep=sep))
    return Download(f"clasificacion-{competition.pk}.csv",
                    partial(standings_csv, competition, sep=sep))


def matches_csv(competition: Competition, *, sep: str = ",") -> str:
    """Every match as CSV: its pairs, how its result came (table, manual, no_show) and the
    stored figures; ``sep`` as in :func:`standings_csv`."""
    names = dict(competition.entries.values_list("pk", "pair__name"))
    rows = (Match.objects.filter(competition=competition).order_by("number").outcomes(
        "number", "round__number", "round__stage", "round__group__name", "first_id",
        "second_id", "players_first", "players_second", "table_id", "result_at", "tie__round",
        "tie__order"))
    rounds = rounds_of(competition)
    lines = []
    for (number, round_, stage, group, first, second, pf, ps, table, at, tie_round,
         tie_order, result) in rows:
        slot = tie_name(tie_round, tie_order, rounds) if tie_round is not None else ""
        nf, ns = result.no_show if result is not None else (False, False)
        no_show = "both" if nf and ns else "first" if nf else "second" if ns else ""
        juegos = result.juegos if result is not None else ("", "")
        tantos = result.tantos if result is not None and result.tantos is not None else (
            "", "")
        lines.append([
            number, round_ or "", slot or stage, group or "", names.get(first, ""),
            names.get(second, ""), result.source if result is not None else "", *juegos,
            *tantos, no_show, " y ".join(pf or []), " y ".join(ps or []), table or "",
            _when(at, sep),
        ])
    return write_csv(MATCHES_CSV, lines, sep=sep)


def _when(at: datetime | None, sep: str) -> str:
    """A result's time: ISO in UTC (the API's "," variant), the club's local day and
    time for Spanish Excel ("07/12/2026 01:01", issue 38.9)."""
    if at is None:
        return ""
    if sep == ";":
        return timezone.localtime(at).strftime("%d/%m/%Y %H:%M")
    return at.isoformat()


# Tables read per query by the export: their hands are a few hundred kB of JSON.
VACA_BATCH = 500


def table_vacas(table_ids: list[str]) -> dict[str, dict[str, Any] | None]:
    """Each table's first finished vaca as the export writes it ({"mano", "hands"}, None
    while none is finished), as `table_vaca` gives it: from the stored vacas and the hand
    records, three queries per VACA_BATCH tables instead of three per table (a large
    league's export read 4,000 tables one by one). A table whose stored vacas are behind
    its hands (loaded by hand) is replayed as before."""
    out: dict[str, dict[str, Any] | None] = {}
    for start in range(0, len(table_ids), VACA_BATCH):
        batch = table_ids[start:start + VACA_BATCH]
        current = set(Table.objects.filter(pk__in=batch, replayed_revision=F("revision"))
                      .values_list("pk", flat=True))
        firsts = {t: (first, mano, count) for t, first, mano, count in
                  VacaCheckpoint.objects.filter(table_id__in=current, index=0,
                                                winner__isnull=False)
                  .values_list("table_id", "first_hand", "mano", "hand_count")}
        records: dict[str, list[Any]] = {}
        for table_id, record in Hand.objects.filter(table_id__in=list(firsts)).order_by(
                "table_id", "number").values_list("table_id", "record"):
            records.setdefault(table_id, []).append(record)
        for table_id in batch:
            if table_id not in current:
                out[table_id] = table_vaca(table_id)
            elif table_id not in firsts:
                out[table_id] = None
            else:
                first, mano, count = firsts[table_id]
                hands = records.get(table_id, [])
                out[table_id] = {"mano": mano, "hands": hands[first - 1:first - 1 + count]}
    return out


def table_vaca(table_id: str) -> dict[str, Any] | None:
    table = Table.objects.get(pk=table_id)
    state = tables.table_state(table)
    finished = state["finished"]
    if not finished:
        return None
    first = finished[0]
    records = list(table.hands.order_by("number").values_list("record", flat=True))
    start = first["first_hand"] - 1
    return {"mano": first["mano"], "hands": records[start:start + len(first["hands"])]}


def document_fingerprint(data: Any) -> str:
    """A league document's fingerprint: the SHA-256 of its pairs and matches as canonical
    JSON (its name left out, so a renamed copy is still the same competition)."""
    body = {"pairs": data.get("pairs"), "matches": data.get("matches")}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
