"""A competition as a document: league.md's form (the export and the API body), the CSV
files, and the import that makes a competition again from its export."""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, Pair, PairMember
from muscore.clubs.permissions import Actor
from muscore.clubs.services import save_pair
from muscore.handentry.words import NAME_MAX
from muscore.leagues import imports, prepared, stats_store
from muscore.leagues.competitions import (
    CompetitionError,
    check_organiser,
    competition_rules,
    create_competition,
    league_error,
    match_players,
    standings,
)
from muscore.leagues.compute.document import (
    League,
    read_league,
)
from muscore.leagues.compute.document import Match as LeagueMatch
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.spreadsheet import write_csv
from muscore.leagues.models import (
    Competition,
    Entry,
    Match,
    Round,
    document_text,
)
from muscore.leagues.results import (
    after_change,
    check_result,
    fill_knockout,
    write,
)
from muscore.rules import Rules
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
    by id, in the same fixed number of queries for one or for hundreds."""
    ids = [c.pk for c in competitions]
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
            "competition_id", "number").values_list(
            "competition_id", "round_id", "first_id", "second_id", "source", "juegos_first",
            "juegos_second", "tantos_first", "tantos_second", "no_show_first",
            "no_show_second", "players_first", "players_second", "table_id"):
        rows.setdefault(row[0], []).append(row[1:])
    vacas = table_vacas([row[12] for matches in rows.values() for row in matches
                         if row[3] == Match.Source.TABLE and row[12] is not None]
                        ) if hands else {}
    out = {}
    for competition in competitions:
        pairs = [{"name": name, "players": players.get(pair_id, [])}
                 for pair_id, name in names.get(competition.pk, [])]
        out[competition.pk] = {
            **document_head(competition, pairs),
            "matches": [_document_match(row, rounds, index_of, vacas)
                        for row in rows.get(competition.pk, [])
                        if row[1] is not None and row[2] is not None],
        }
    return out


def document_head(competition: Competition, pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """A league document's fields before its matches: name, rules, points, legs, draw, pairs."""
    return {
        "name": competition.name,
        "rules": competition_rules(competition).to_json(),
        "points": competition.points,
        "legs": competition.legs,
        "draw": list(competition.draw or range(len(pairs))),
        "pairs": pairs,
    }


def _document_match(row: Sequence[Any], rounds: Mapping[int, int], index_of: Mapping[int, int],
                    vacas: Mapping[str, dict[str, Any] | None]) -> dict[str, Any]:
    round_id, first, second, source, jf, js, tf, ts, nf, ns, pf, ps, table_id = row
    match: dict[str, Any] = {}
    number = rounds[round_id]
    if number:
        match["round"] = number
    pairs = [index_of[first], index_of[second]]
    match["pairs"] = pairs
    vaca = vacas.get(table_id) if (source == Match.Source.TABLE and table_id is not None) \
        else None
    if vaca is not None:
        match["vaca"] = vaca
    elif source == Match.Source.NO_SHOW:
        match["forfeit"] = "both" if nf and ns else pairs[0] if nf else pairs[1]
    elif source:
        match["juegos"] = [jf, js]
        if tf is not None and ts is not None:
            match["tantos"] = [tf, ts]
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


DOC_FIELDS = ("round__number", "first__index", "second__index", "source", "juegos_first",
              "juegos_second", "tantos_first", "tantos_second", "no_show_first",
              "no_show_second", "players_first", "players_second")


def refresh_docs(competition: Competition, *, missing_only: bool = False) -> int:
    """Write every match's document text (`Match.doc`) from its row, after bulk writes
    that bypass `save()` (the large club's builder) or to repair them. Returns how many."""
    rows = Match.objects.filter(competition=competition)
    if missing_only:
        rows = rows.filter(doc__isnull=True)
    changed = [
        Match(pk=pk, doc="" if first is None or second is None
              else document_text(round_number, first, second, *rest))
        for pk, round_number, first, second, *rest in rows.values_list("pk", *DOC_FIELDS)
    ]
    Match.objects.bulk_update(changed, ["doc"], batch_size=1000)
    return len(changed)


def api_body(competition: Competition) -> bytes:
    """`api_document` as compact JSON, the matches joined from their stored texts.

    Same document (a test holds them equal). Each match keeps its own text (`Match.doc`,
    written with its result), so a cold request reads one short column per match and
    joins it: on a league of 40,000 matches that is ~15 ms where formatting the rows was
    ~70. A text not written yet (NULL) is worked out here from its row.
    """
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    texts = list(Match.objects.filter(competition=competition).order_by("number")
                 .values_list("number", "doc"))
    if any(text is None for _n, text in texts):
        missing = {
            number: "" if first is None or second is None
            else document_text(round_number, first, second, *rest)
            for number, round_number, first, second, *rest in (
                Match.objects.filter(competition=competition, doc__isnull=True)
                .values_list("number", *DOC_FIELDS))
        }
        texts = [(n, missing.get(n, "") if text is None else text) for n, text in texts]
    pairs = league_pairs(competition)
    head = dumps(document_head(competition, pairs))
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


def api_document(competition: Competition) -> dict[str, Any]:
    """GET /api/v1/leagues/<id>: the league in league.md's form with its standings."""
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


def matches_csv(competition: Competition, *, sep: str = ",") -> str:
    """Every match as CSV: its pairs, how its result came (table, manual, no_show) and the
    stored figures; ``sep`` as in :func:`standings_csv`."""
    names = dict(competition.entries.values_list("pk", "pair__name"))
    rows = (Match.objects.filter(competition=competition).order_by("number").values_list(
        "number", "round__number", "round__stage", "round__group__name", "first_id",
        "second_id", "source", "juegos_first", "juegos_second", "tantos_first", "tantos_second",
        "no_show_first", "no_show_second", "players_first", "players_second", "table_id",
        "result_at", "slot"))
    lines = []
    for (number, round_, stage, group, first, second, source, jf, js, tf, ts, nf, ns, pf, ps,
         table, at, slot) in rows:
        no_show = "both" if nf and ns else "first" if nf else "second" if ns else ""
        lines.append([
            number, round_ or "", slot or stage, group or "", names.get(first, ""),
            names.get(second, ""), source, _blank(jf), _blank(js), _blank(tf), _blank(ts),
            no_show, " y ".join(pf or []), " y ".join(ps or []), table or "",
            at.isoformat() if at else "",
        ])
    return write_csv(MATCHES_CSV, lines, sep=sep)


def _blank(value: Any) -> Any:
    return "" if value is None else value


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


# The largest competition a club imports (the benchmarks' largest league).
IMPORT_MAX_PAIRS = 200


def import_competition(
    club: Club, data: Any, *, by: Actor, format: str = Competition.Format.LIGUILLA,
    groups: int = 2, name: str = "", rated: bool = True,
) -> Competition:
    """A competition from a league document (the export): its pairs (the club's own when
    the names and players match, else new ones), its matches as they were, a vaca's hands
    on a new muscore table of its own.

    The contract has no field for a competition's format, so the organiser says it: with
    `format="groups"` (and `groups`, 2 or 4) the draw places the pairs in groups as it did,
    the group matches must be the ones that draw gives (in the same order) and the
    matches after them the knockout's, each between the pairs the results before it
    send there. Anything else is refused and nothing is written. The club's own export
    imported again is refused as a copy (:func:`document_fingerprint`); `name` names the
    competition instead of the document's name; with `rated` False its matches stay out
    of the club's ratings and leaders (another club's competition, kept for the record).

    A document with more matches than a request writes in well under 2 seconds
    (`settings.MUSCORE_IMPORT_IN_REQUEST_MAX`) is checked here and written by the worker
    (muscore.leagues.imports): the competition is returned in the "importing" state.
    """
    check_organiser(by, club)
    if name and isinstance(data, dict):
        data = {**data, "name": name}  # another club's competition, named as this club says
    if format not in (Competition.Format.GROUPS, Competition.Format.LIGUILLA):
        raise CompetitionError(_("Formato desconocido: %(format)s.") % {"format": format})
    # Read and checked before the write transaction: on SQLite it holds the write lock from
    # its start, and reading the benchmark's league (39,800 matches) takes a second or two.
    league, fingerprint = check_import(club, data)
    document = json.dumps(data, ensure_ascii=False) if imports.deferred(league) else ""
    with transaction.atomic():
        if Competition.objects.filter(club=club, fingerprint=fingerprint).exists():
            _refuse_copy(club, data)  # the same document imported meanwhile: says so
        known = set(Pair.objects.filter(club=club).values_list("pk", flat=True))
        pairs = _import_pairs(club, league)
        competition = import_frame(club, league, pairs, by, format, groups,
                                   rated and not document)
        _fingerprinted(competition, fingerprint)
        if document:
            return imports.start(competition, document, len(league.matches), rated=rated,
                                 by=by, new_pairs=[p.pk for p in pairs if p.pk not in known])
        import_matches(competition, league, by, 0, len(league.matches))
        import_rest(competition, league, by)
        return competition


def import_frame(club: Club, league: League, pairs: list[Pair], by: Actor, format: str,
                 groups: int, rated: bool) -> Competition:
    """The imported competition without its results: its entries, draw and rounds (a
    groups competition's planned matches, checked against the document's count)."""
    if format == Competition.Format.GROUPS:
        return _groups_frame(club, league, pairs, by, groups, rated)
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, legs=league.legs,
        rules=league.rules.to_json(), points=league.points.to_json(), retired_ok=True,
        rated=rated,
    )
    competition.draw = list(league.draw)
    competition.draw_method = "imported"
    competition.drawn_at = timezone.now()
    competition.status = Competition.Status.PLAYING
    competition.save()
    for number in sorted({doc_match.round or 0 for doc_match in league.matches}):
        Round.objects.create(competition=competition, number=number)
    return competition


def import_matches(competition: Competition, league: League, by: Actor, start: int,
                   stop: int, until: float | None = None) -> int:
    """Write the document's matches `start` to `stop` (0-based; a groups competition's
    group matches only), each result through `results.write`; with `until` (a
    time.monotonic()), stop after the first match written past it. Returns where it
    stopped."""
    n = start
    if competition.format == Competition.Format.GROUPS:
        planned = list(competition.matches.filter(slot="").select_related(
            "round", "first", "second").order_by("number")[start:stop])
        for match, doc_match in zip(planned, league.matches[start:stop], strict=False):
            if not _same(match, doc_match):
                raise _refuse_order(competition.groups.count(), n + 1)
            _import_result(match, doc_match, league, by)
            n += 1
            if until is not None and time.monotonic() >= until:
                break
        return n
    entries = {e.index: e for e in competition.entries.all()}
    rounds = {r.number: r for r in competition.rounds.all()}
    for doc_match in league.matches[start:stop]:
        first, second = (entries[i] for i in doc_match.pairs)
        match = Match(competition=competition, round=rounds[doc_match.round or 0],
                      number=n + 1, first=first, second=second)
        _import_result(match, doc_match, league, by)
        n += 1
        if until is not None and time.monotonic() >= until:
            break
    return n


def written_in_batches(competition: Competition, league: League) -> int:
    """How many of the document's matches `import_matches` writes (the rest, a groups
    competition's knockout, `import_rest`)."""
    if competition.format == Competition.Format.GROUPS:
        return competition.matches.filter(slot="").count()
    return len(league.matches)


def check_import(club: Club, data: Any) -> tuple[League, str]:
    """A document read as an import into `club` would read it, and its fingerprint
    (CompetitionError: what is wrong with it, or that the club already has it). Writes
    nothing: the import page checks the file with it before asking the name."""
    return read_checked(data), _refuse_copy(club, data)


def read_checked(data: Any) -> League:
    """A document read as an import reads it (CompetitionError: what is wrong with it)."""
    try:
        # The contract allows 1,000 pairs (half a million matches): a club's league is
        # smaller, and even one of 200 pairs is written by the worker (muscore.leagues.imports).
        return read_league(data, max_pairs=IMPORT_MAX_PAIRS)
    except LeagueError as error:
        raise league_error(error) from None


def document_fingerprint(data: Any) -> str:
    """A league document's fingerprint: the SHA-256 of its pairs and matches as canonical
    JSON (its name left out, so a renamed copy is still the same competition)."""
    body = {"pairs": data.get("pairs"), "matches": data.get("matches")}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _refuse_copy(club: Club, data: Any) -> str:
    """The document's fingerprint, unless the club already holds that competition: its own
    export imported again would count every result twice (standings apart, but the ratings
    and the leaders read every match of the club). An earlier import is known by its kept
    fingerprint; a competition made here by the fingerprint the document worker keeps of
    its export (:func:`kept_fingerprint`), never by building that export here."""
    fingerprint = document_fingerprint(data)
    same = Competition.objects.filter(club=club, fingerprint=fingerprint).first()
    unknown: Competition | None = None
    if same is None:
        # Made here (no import fingerprint): only those with as many pairs (a renamed copy
        # is still a copy).
        pairs = len(data.get("pairs") or [])
        for candidate in (Competition.objects.filter(club=club, fingerprint="")
                          .annotate(n_entries=Count("entries")).filter(n_entries=pairs)):
            kept, current = kept_fingerprint(candidate)
            if kept == fingerprint:
                same = candidate
                break
            if not current:
                unknown = candidate
    if same is not None:
        raise CompetitionError(_(
            "Este archivo es una copia de %(name)s, que ya está en el club: importarlo "
            "contaría dos veces sus resultados en los niveles y los líderes.")
            % {"name": same.name})
    if unknown is not None:
        raise CompetitionError(_(
            "No se puede saber aún si este archivo es una copia de %(name)s: se está "
            "poniendo al día. Vuelve a intentarlo en unos segundos.") % {"name": unknown.name})
    return fingerprint


def kept_fingerprint(competition: Competition) -> tuple[str | None, bool]:
    """The fingerprint of a competition's export (:func:`document_fingerprint`), and
    whether it is of its current revision. Kept by the document worker; a small
    competition's is computed here when missing (a few hundred matches, milliseconds); a
    large one's missing or older fingerprint is put on the worker's backlog."""
    kept = prepared.latest(competition.pk, prepared.FINGERPRINT)
    if kept is not None and kept.revision == competition.revision:
        return kept.read().decode(), True
    if prepared.small(competition):
        return document_fingerprint(league_document(competition, hands=True)), True
    prepared.enqueue(competition.pk)
    return (kept.read().decode() if kept is not None else None), False


def _fingerprinted(competition: Competition, fingerprint: str) -> Competition:
    Competition.objects.filter(pk=competition.pk).update(fingerprint=fingerprint)
    competition.fingerprint = fingerprint
    return competition


def _import_pairs(club: Club, league: League) -> list[Pair]:
    pairs: list[Pair] = []
    for doc_pair in league.pairs:
        existing = Pair.objects.filter(club=club, name__iexact=doc_pair.name).first()
        if existing is not None:
            if existing.player_names() != list(doc_pair.players):
                raise CompetitionError(
                    _("La pareja %(pair)s ya existe en el club con otros jugadores.")
                    % {"pair": doc_pair.name})
            pairs.append(existing)
            continue
        # An import keeps its pairs as its record names them, even with the players of a
        # pair of the club: the competition's own check keeps a person in one pair of it.
        pairs.append(save_pair(club, doc_pair.name, list(doc_pair.players), same_players_ok=True))
    return pairs


def _import_result(match: Match, doc_match: LeagueMatch, league: League, by: Actor) -> None:
    """Save `match` with the document's substitutes and result (a vaca on its own table)."""
    if doc_match.sat:
        match.players_first = list(doc_match.sat[0]) if doc_match.sat[0] else None
        match.players_second = list(doc_match.sat[1]) if doc_match.sat[1] else None
    result = doc_match.result
    if result is None:
        match.save()
        return
    check_result(match, result, league.rules)
    source = {"vaca": Match.Source.TABLE, "juegos": Match.Source.MANUAL,
              "forfeit": Match.Source.NO_SHOW}[result.source]
    if result.source == "vaca" and doc_match.vaca is not None:
        match.table = _import_vaca(match, doc_match.vaca, league.rules)
    match.save()
    write(match, result, source, by=by, action="import")
    if match.table_id is not None:
        stats_store.count_table_match(match)


def _groups_frame(club: Club, league: League, pairs: list[Pair], by: Actor,
                  groups: int, rated: bool) -> Competition:
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, format=Competition.Format.GROUPS,
        groups=groups, legs=league.legs, rules=league.rules.to_json(),
        points=league.points.to_json(), draw=list(league.draw), draw_method="imported",
        retired_ok=True, rated=rated,
    )
    competition.refresh_from_db()  # record_draw wrote the draw through its own row
    planned = competition.matches.filter(slot="").count()
    if len(league.matches) < planned:
        raise _refuse_order(groups, len(league.matches) + 1)
    return competition


def _refuse_order(groups: int, number: int) -> CompetitionError:
    return CompetitionError(
        _("Este documento no es una competición de %(groups)s grupos con su sorteo: la "
          "partida %(n)s no es la que toca.") % {"groups": groups, "n": number})


def _same(match: Match, doc_match: LeagueMatch) -> bool:
    return (match.first is not None and match.second is not None
            and (match.round.number, match.first.index, match.second.index)
            == (doc_match.round, *doc_match.pairs))


def import_rest(competition: Competition, league: League, by: Actor) -> None:
    """After the batches: a groups competition's knockout, each match between the pairs
    the results before it send there; then what follows every change (`after_change`)."""
    if competition.format == Competition.Format.GROUPS:
        fill_knockout(competition)
        start = competition.matches.filter(slot="").count()
        done: set[int] = set()
        for n, doc_match in enumerate(league.matches[start:], start + 1):
            # The knockout's next match whose pairs are known, as the export lists them.
            knockout = (Match.objects.filter(competition=competition, first__isnull=False,
                                             second__isnull=False).exclude(slot="")
                        .exclude(pk__in=done).select_related("round", "first", "second")
                        .order_by("number").first())
            if knockout is None or not _same(knockout, doc_match):
                raise _refuse_order(competition.groups.count(), n)
            done.add(knockout.pk)
            _import_result(knockout, doc_match, league, by)
            fill_knockout(competition)
    after_change(competition)


def _import_vaca(match: Match, vaca: Mapping[str, Any], rules: Rules) -> Table:
    first, second = match_players(match)
    seats = [name for seat in zip(first, second, strict=True) for name in seat]
    return tables.import_table(
        {"rules": rules.to_json(), "mano": vaca.get("mano", 0),
         "players": [n[:NAME_MAX] for n in seats], "hands": list(vaca["hands"])},
        via="api",
    )

