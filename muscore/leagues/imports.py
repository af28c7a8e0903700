"""A league import: a competition made again from its export (league.md's document), with
its pairs, draw, results and vacas.

A document of up to `settings.MUSCORE_IMPORT_IN_REQUEST_MAX` matches is written by its
request in one transaction. A larger one (the benchmark's league: 200 pairs, 39,800
matches, 190 s in one request holding SQLite's write lock) is only read and checked by
its request (issue 21: every request bounded), which then writes two rows: the
competition, "importing" (on no list and no page, out of the ratings and leaders, no
result written to it by any other door), and the document beside it (`LeagueImport`).
The worker (`manage.py rating_worker`) writes the rest in short transactions of at most
about BATCH_SECONDS: the pairs the club lacks, the frame (entries, draw, rounds), then the
matches, each result through `results.write` (every door that writes a result goes
through it, and so does this; a vaca's table in a transaction before its result's); then
it marks the competition done and, if rated, queues its re-rating in the same
transaction. If a step fails, the competition is deleted whole with the pairs the import
added, and the `LeagueImport` row keeps why, for the organiser's page.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, Pair
from muscore.clubs.permissions import Actor, stored_user
from muscore.clubs.services import save_pair
from muscore.handentry.words import NAME_MAX
from muscore.leagues import pacing, prepared, rating_store, stats_store
from muscore.leagues.changes import CompetitionError, check_organiser, league_error
from muscore.leagues.competitions import create_competition, match_players
from muscore.leagues.compute.document import Format, League, read_league
from muscore.leagues.compute.document import Match as LeagueMatch
from muscore.leagues.compute.document import Pair as LeaguePair
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.documents import (
    competition_format,
    document_fingerprint,
    league_document,
)
from muscore.leagues.import_frame import (
    PLANNED_WINDOW,
    Frame,
    ceros_byes,
    planned_matches,
)
from muscore.leagues.models import (
    Competition,
    Entry,
    LeagueImport,
    LeagueImportDocument,
    Match,
    Round,
    Tie,
)
from muscore.leagues.results import (
    KnockoutConflict,
    after_change,
    bracket,
    check_result,
    write,
)
from muscore.rules import Rules
from muscore.tables import services as tables
from muscore.tables.models import Table

logger = logging.getLogger("muscore.imports")

# The largest competition a club imports (the benchmarks' largest league).
IMPORT_MAX_PAIRS = 200
# Matches a request writes itself: about 10 ms each through results.write at the
# benchmark's load, so 100 stay well under a second.
IN_REQUEST_MAX = 100
# How long one of the worker's transactions may hold the lock: it stops before the pair or
# match that would pass it, judged by the slowest so far (pacing.Budget). 80 ms, stopping
# only once past it, held 280-510 ms at load 8-12 (issue 40).
BATCH_SECONDS = 0.05
# How long one call of the worker spends on imports before it looks at its other work.
RUN_SECONDS = 20.0


# ------------------------------------------------------------------------ the request


def import_competition(
    club: Club, data: Any, *, by: Actor, format: str = Competition.Format.LIGUILLA,
    groups: int = 2, name: str = "", rated: bool = True, ceros: int = 3,
) -> Competition:
    """A competition from a league document (the export): its pairs (the club's own when
    the names and players match, else new ones), its matches as they were, a vaca's hands
    on a new muscore table of its own.

    The document's `format` (league.md) says what the competition was; an export made
    before the contract had it says nothing, and the organiser's word is taken instead
    (`format`, with `groups` or `ceros`). With groups (2 or 4) the draw places the pairs
    in groups as it did, the group matches must be the ones that draw gives (in the same
    order) and the matches after them the knockout's, each between the pairs the results
    before it send there (a pair of the same group again included). A ceros tournament's
    matches go round by round, each round's pairs still in as the rules allow (the pair
    resting worked out from them). Anything else is refused and nothing is written. The
    club's own export imported again is refused as a copy (:func:`document_fingerprint`);
    `name` names the competition instead of the document's name; with `rated` False its
    matches stay out of the club's ratings and leaders (another club's competition, kept
    for the record).

    A document with more matches than a request writes in well under 2 seconds
    (:func:`deferred`) is checked here and written by the worker: the competition is
    returned "importing", with nothing in it yet.
    """
    check_organiser(by, club)
    if name and isinstance(data, dict):
        data = {**data, "name": name}  # another club's competition, named as this club says
    # Read and checked before the write transaction: on SQLite it holds the write lock from
    # its start, and reading the benchmark's league (39,800 matches) takes a second or two.
    league, fingerprint = check_import(club, data, said_format(format, groups, ceros))
    _check_pairs(club, league)
    kind = league.format or Format()
    format, groups, ceros = str(kind.kind), kind.groups, kind.ceros
    document = json.dumps(data, ensure_ascii=False) if deferred(league) else ""
    with transaction.atomic():
        if Competition.objects.filter(club=club, fingerprint=fingerprint).exists():
            _refuse_copy(club, data)  # the same document imported meanwhile: says so
        if document:
            return _start(club, league, document, fingerprint, by=by, format=format,
                          groups=groups, rated=rated, ceros=ceros)
        pairs = [pair for pair, _new in (_import_pair(club, p) for p in league.pairs)]
        competition = import_frame(club, league, pairs, by, format, groups, rated,
                                   ceros=ceros)
        _fingerprinted(competition, fingerprint)
        import_matches(competition, league, by, 0, len(league.matches))
        import_rest(competition, league, by)
        return competition


def in_request_max() -> int:
    return int(getattr(settings, "MUSCORE_IMPORT_IN_REQUEST_MAX", IN_REQUEST_MAX))


def deferred(league: League) -> bool:
    """Whether the document has too many matches for the request to write them."""
    return len(league.matches) > in_request_max()


def said_format(format: str, groups: int = 2, ceros: int = 3) -> Format:
    """The organiser's word on what a document without `format` was."""
    if format == Competition.Format.GROUPS:
        return Format("groups", groups=groups)
    if format == Competition.Format.CEROS:
        return Format("ceros", ceros=ceros)
    if format == Competition.Format.LIGUILLA:
        return Format("liguilla")
    raise CompetitionError(_("Formato desconocido: %(format)s.") % {"format": format})


def check_import(club: Club, data: Any, assumed: Format | None = None) -> tuple[League, str]:
    """A document read as an import into `club` would read it (`assumed` its format if it
    says none), and its fingerprint (CompetitionError: what is wrong with it, or that the
    club already has it). Writes nothing: the import page checks the file with it before
    asking the name."""
    league = read_checked(data, assumed)
    if league.format is not None and league.format.kind == "ceros":
        ceros_byes(league)
    return league, _refuse_copy(club, data)


def read_checked(data: Any, assumed: Format | None = None) -> League:
    """A document read as an import reads it (CompetitionError: what is wrong with it)."""
    try:
        # The contract allows 1,000 pairs (half a million matches): a club's league is
        # smaller, and even one of 200 pairs is written by the worker.
        return read_league(data, max_pairs=IMPORT_MAX_PAIRS, assumed=assumed)
    except LeagueError as error:
        raise league_error(error) from None


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


def _check_pairs(club: Club, league: League) -> None:
    """Refuse, before anything is written, a document pair named as a pair of the club
    with other players (the worker would otherwise find it after the request answered)."""
    named = {doc_pair.name.lower(): doc_pair for doc_pair in league.pairs}
    for pair in (Pair.objects.filter(club=club).prefetch_related("members__player")
                 .order_by("pk")):
        doc_pair = named.get(pair.name.lower())
        if doc_pair is not None and pair.player_names() != list(doc_pair.players):
            raise _other_players(doc_pair)


def _other_players(doc_pair: LeaguePair) -> CompetitionError:
    return CompetitionError(_("La pareja %(pair)s ya existe en el club con otros jugadores.")
                            % {"pair": doc_pair.name})


def _start(club: Club, league: League, document: str, fingerprint: str, *, by: Actor,
           format: str, groups: int, rated: bool, ceros: int) -> Competition:
    """A large import's two rows: its competition, "importing" and empty (the worker fills
    it), and its document for the worker."""
    competition = Competition.objects.create(
        club=club, name=league.name[:200], format=format, legs=league.legs,
        group_count=groups if format == Competition.Format.GROUPS else 0, ceros=ceros,
        rules=league.rules.to_json(), **{f"points_{k}": v for k, v in
                                         league.points.to_json().items()},
        status=Competition.Status.IMPORTING, fingerprint=fingerprint, rated=False,
        created_by=stored_user(by))
    job = LeagueImport.objects.create(
        club=club, competition=competition, name=competition.name,
        fingerprint=fingerprint, rated=rated, total=len(league.matches),
        created_by=stored_user(by))
    LeagueImportDocument.objects.create(league_import=job, text=document)
    return competition


# ------------------------------------------------------------------- what is written


def _import_pair(club: Club, doc_pair: LeaguePair) -> tuple[Pair, bool]:
    """The club's pair of that name and players, or a new one (True)."""
    existing = Pair.objects.filter(club=club, name__iexact=doc_pair.name).first()
    if existing is not None:
        if existing.player_names() != list(doc_pair.players):
            raise _other_players(doc_pair)
        return existing, False
    # An import keeps its pairs as its record names them, even with the players of a
    # pair of the club: the competition's own check keeps a person in one pair of it.
    return save_pair(club, doc_pair.name, list(doc_pair.players), same_players_ok=True), True


def import_frame(club: Club, league: League, pairs: list[Pair], by: Actor, format: str,
                 groups: int, rated: bool, into: Competition | None = None,
                 ceros: int = 3) -> Competition:
    """The imported competition without its results: its entries, draw and rounds (a
    groups competition's planned matches, checked against the document's count; a ceros
    tournament's rounds come with their matches); `into` a large import's competition,
    made "importing" by its request."""
    if format == Competition.Format.GROUPS:
        return _groups_frame(club, league, pairs, by, groups, rated, into)
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, legs=league.legs, format=format,
        rules=league.rules.to_json(), points=league.points.to_json(), retired_ok=True,
        rated=rated, into=into, ceros=ceros,
    )
    if format == Competition.Format.CEROS:
        # Its draw is made round by round: the document's `draw` is kept only when it
        # says more than the pairs' order (a ceros tournament's export writes that).
        competition.draw = (list(league.draw) if list(league.draw) != list(
            range(len(pairs))) else None)
        competition.draw_method = "imported"
        competition.save()
        return competition
    competition.draw = list(league.draw)
    competition.draw_method = "imported"
    competition.drawn_at = timezone.now()
    competition.status = Competition.Status.PLAYING
    competition.save()
    Round.objects.bulk_create(
        Round(competition=competition, number=number)
        for number in sorted({doc_match.round or 0 for doc_match in league.matches}))
    return competition


def _groups_frame(club: Club, league: League, pairs: list[Pair], by: Actor,
                  groups: int, rated: bool, into: Competition | None) -> Competition:
    competition = create_competition(
        club, by=by, name=league.name, pairs=pairs, format=Competition.Format.GROUPS,
        groups=groups, legs=league.legs, rules=league.rules.to_json(),
        points=league.points.to_json(), draw=list(league.draw), draw_method="imported",
        retired_ok=True, rated=rated, into=into,
    )
    competition.refresh_from_db()  # record_draw wrote the draw through its own row
    planned = competition.matches.filter(tie__isnull=True).count()
    if len(league.matches) < planned:
        raise _refuse_order(groups, len(league.matches) + 1)
    return competition


def import_matches(competition: Competition, league: League, by: Actor, start: int,
                   stop: int, budget: pacing.Budget | None = None,
                   frame: Frame | None = None) -> int:
    """Write the document's matches `start` to `stop` (0-based; a groups competition's
    group matches only), each result through `results.write`; with `budget`, stop before
    the match that would pass it. `frame`: the competition's entries and rounds, if read
    already, and a groups competition's planned matches (the worker's batch ends with the
    window it read). Returns where it stopped."""
    n = start
    if competition.format == Competition.Format.GROUPS:
        while n < stop:
            if frame is None:
                planned = planned_matches(competition, n, PLANNED_WINDOW)
            elif n == start:
                planned = frame.planned(competition, n)  # read before the transaction
            else:
                break  # the worker's batch ends with the window its frame read
            if not planned:
                break
            for match, doc_match in zip(planned, league.matches[n:stop], strict=False):
                if budget is not None and n > start and _alone(doc_match):
                    return n
                if not _same(match, doc_match):
                    raise _refuse_order(competition.groups.count(), n + 1)
                _import_result(match, doc_match, league, by)
                n += 1
                if budget is not None and (budget.spent() or _alone(doc_match)):
                    return n
        return n
    frame = frame if frame is not None else Frame(competition)
    for doc_match in league.matches[start:stop]:
        if budget is not None and n > start and _alone(doc_match):
            break
        match = _new_match(competition, league, n, frame)
        _save_round(match, frame)
        _import_result(match, doc_match, league, by, frame)
        n += 1
        if budget is not None and (budget.spent() or _alone(doc_match)):
            break
    return n


def _new_match(competition: Competition, league: League, n: int, frame: Frame) -> Match:
    """The document's match `n` (0-based) of a liguilla or ceros import, not saved yet,
    nor its round if it is a ceros round's first match (`_save_round`)."""
    doc_match = league.matches[n]
    entries = frame.entries
    first, second = (entries[i] for i in doc_match.pairs)
    number = doc_match.round or 0
    round_ = frame.rounds.get(number)
    if round_ is None:  # a ceros round, made as its first match comes
        bye = frame.byes(league)[number - 1]
        round_ = Round(competition=competition, number=number, stage="ceros",
                       bye=entries[bye] if bye is not None else None)
    match = Match(competition=competition, round=round_, number=n + 1, first=first,
                  second=second)
    if competition.format == Competition.Format.CEROS:
        # Its table in the round, as the ceros draw numbers them.
        match.table_number = frame.table_numbers(league)[n]
    return match


def _save_round(match: Match, frame: Frame) -> None:
    """A new match's round saved if it is new (inside the transaction that saves it)."""
    if match.round.pk is None:
        match.round.save()
        match.round = match.round  # its id on the match too, read before the match is saved
        frame.rounds[match.round.number] = match.round


def _alone(doc_match: LeagueMatch) -> bool:
    """Whether the match is written apart from the others (`_vaca`): a vaca's table and
    its hands (100-200 ms at load 10, ten times a match entered on paper) could not be told
    from the matches before it, and after them it passed the batch's budget by as much."""
    result = doc_match.result
    return result is not None and result.source == "table" and doc_match.vaca is not None


def written_in_batches(competition: Competition, league: League) -> int:
    """How many of the document's matches `import_matches` writes (the rest, a groups
    competition's knockout, `import_rest`)."""
    if competition.format == Competition.Format.GROUPS:
        return competition.matches.filter(tie__isnull=True).count()
    return len(league.matches)


def import_rest(competition: Competition, league: League, by: Actor) -> None:
    """After the batches: a groups competition's knockout, each match between the pairs
    the results before it send there; then what follows every change (`after_change`).
    The worker writes the same a match a transaction (`_knockout`)."""
    if competition.format == Competition.Format.GROUPS:
        bracket.fill(competition)
        start = written_in_batches(competition, league)
        for n in range(start, len(league.matches)):
            _import_result(_next_knockout(competition, league, start, n), league.matches[n],
                           league, by)
            bracket.fill(competition)
    after_change(competition)


def _next_knockout(competition: Competition, league: League, start: int, n: int) -> Match:
    """The match of the document's knockout match `n` (0-based; those from `start` on
    written before it): the knockout's next one whose pairs are known, by number, as the
    export lists them (CompetitionError when it lists another). A written one is known by
    its round and pairs, which no other match of a cup's knockout has."""
    written = league.matches[start:n]
    match = next((m for m in Match.objects.filter(
        competition=competition, first__isnull=False, second__isnull=False,
        tie__isnull=False).select_related("round", "first", "second", "table")
        .order_by("number") if not any(_same(m, done) for done in written)), None)
    if match is None or not _same(match, league.matches[n]):
        raise _refuse_order(competition.groups.count(), n + 1)
    return match


def _import_result(match: Match, doc_match: LeagueMatch, league: League, by: Actor,
                   frame: Frame | None = None) -> None:
    """Save `match` with the document's substitutes and result (a vaca on its own table)."""
    _sat(match, doc_match)
    result = doc_match.result
    if result is None:
        match.save()
        return
    check_result(match, result, league.rules)
    if result.source == "table" and doc_match.vaca is not None:
        seats = frame.players(match) if frame is not None else match_players(match)
        match.table = _vaca_table(match, doc_match.vaca, league.rules, seats).store()
    # Saved by the write, a new match inserted with its result: it was inserted, then
    # updated, and its hands' counts deleted (none), 10 statements a match on paper.
    write(match, result, by=by, action="import")
    if match.table_id is not None:
        stats_store.count_table_match(match)


def _sat(match: Match, doc_match: LeagueMatch) -> None:
    """The document's substitutes on `match` (not saved)."""
    if doc_match.sat:
        match.players_first = list(doc_match.sat[0]) if doc_match.sat[0] else None
        match.players_second = list(doc_match.sat[1]) if doc_match.sat[1] else None


def _vaca_table(match: Match, vaca: Mapping[str, Any], rules: Rules,
                players: tuple[list[str], list[str]]) -> tables.NewTable:
    """A vaca's new table, checked and replayed, to be stored in the match's transaction:
    the rows the tables' import writes, in four INSERTs (`tables.new_table`)."""
    first, second = players
    seats = [name for seat in zip(first, second, strict=True) for name in seat]
    try:
        return tables.new_table(
            {"rules": rules.to_json(), "mano": vaca.get("mano", 0),
             "players": [n[:NAME_MAX] for n in seats], "hands": list(vaca["hands"])},
            via="api",
        )
    except tables.SameNames as error:
        # "Ana" in one pair and "ana" in the other: one person to a table (the document
        # compares names letter for letter), refused as its table would be, nothing kept.
        raise CompetitionError(
            _("Partida %(n)s: %(why)s.") % {"n": match.number, "why": error.page_message()}
        ) from None


def _refuse_order(groups: int, number: int) -> CompetitionError:
    return CompetitionError(
        _("Este documento no es una competición de %(groups)s grupos con su sorteo: la "
          "partida %(n)s no es la que toca.") % {"groups": groups, "n": number})


def _same(match: Match, doc_match: LeagueMatch) -> bool:
    return (match.first is not None and match.second is not None
            and (match.round.number, match.first.index, match.second.index)
            == (doc_match.round, *doc_match.pairs))


# ------------------------------------------------------------------------- the worker


def of(competition_id: int) -> LeagueImport | None:
    """The import of a competition, while it is being made."""
    return LeagueImport.objects.filter(competition_id=competition_id,
                                       finished_at__isnull=True).first()


def catch_up(budget: float | None = RUN_SECONDS) -> int:
    """Write the waiting imports, oldest first, for about `budget` seconds (None: until
    none waits; 0: each one's pairs and frame only); the worker's job (tests call it).
    Returns how many matches were written."""
    written = 0
    until = time.monotonic() + budget if budget is not None else float("inf")
    for pk in (LeagueImport.objects.filter(finished_at__isnull=True, competition__isnull=False)
               .order_by("pk").values_list("pk", flat=True)):
        written += run(pk, until)
        if time.monotonic() >= until:
            break
    return written


def run(pk: int, until: float) -> int:
    """Carry one import on until `until` (time.monotonic()) or its end; a failure deletes
    its competition whole and keeps why."""
    job = LeagueImport.objects.select_related("competition__club", "created_by").get(pk=pk)
    competition = job.competition
    assert competition is not None
    by: Actor = job.created_by  # type: ignore[assignment]
    begun = job.written
    try:
        text = LeagueImportDocument.objects.values_list("text", flat=True).get(
            league_import=job)
        league = read_checked(json.loads(text), competition_format(competition))
        if not Entry.objects.filter(competition=competition).exists():
            _frame(job, competition, league, by)
        batched, total = written_in_batches(competition, league), len(league.matches)
        frame = Frame(competition) if job.written < total else None

        def going() -> bool:
            # A worker asked to stop hands the rest back after its transaction: the next
            # one carries on from `written`.
            return time.monotonic() < until and not pacing.stopping()

        while job.written < batched and going():
            _batch(job, competition, league, by, batched, frame)
        while batched <= job.written < total and going():
            assert frame is not None
            _knockout(job, competition, league, by, batched, frame)
        if job.written >= total:
            # Where its ratings start, read before the transaction (its matches' audits).
            since = rating_store.first_arrival(competition.pk) if job.rated else None
            with pacing.short_transaction("an import's end"):
                after_change(competition)
                _finish(job, competition)
                # Rated and queued for the rating worker (which places its matches) at
                # once: a worker killed between the two left it rated and never re-rated.
                rating_store.rerate_later(competition.club_id, since)
    except _Taken:
        return 0
    except Exception as error:  # whatever it is, nothing of the import stays
        message = str(error) if isinstance(error, CompetitionError) else _(
            "Error inesperado al escribir la partida %(n)s.") % {"n": job.written + 1}
        logger.exception("league import %s failed at match %s", pk, job.written + 1)
        fail(job, message)
    return job.written - begun


class _Taken(Exception):
    """Another worker carried the import on meanwhile."""


def _frame(job: LeagueImport, competition: Competition, league: League, by: Actor) -> None:
    """The pairs the club lacks, a few at a time (each new one kept on the job, so that a
    failure deletes it), then the competition's entries, draw and rounds at once."""
    pairs: list[Pair] = []
    while len(pairs) < len(league.pairs):
        with pacing.short_transaction("an import's pairs"):
            budget = pacing.Budget(BATCH_SECONDS)
            added: list[int] = []
            for doc_pair in league.pairs[len(pairs):]:
                pair, new = _import_pair(competition.club, doc_pair)
                pairs.append(pair)
                if new:
                    added.append(pair.pk)
                if budget.spent():
                    break
            if added:
                job.new_pairs = [*job.new_pairs, *added]
                LeagueImport.objects.filter(pk=job.pk).update(new_pairs=job.new_pairs)
    with pacing.short_transaction("an import's frame"):
        if Entry.objects.filter(competition=competition).exists():
            raise _Taken
        import_frame(competition.club, league, pairs, by, competition.format,
                     competition.group_count, False, into=competition,
                     ceros=competition.ceros)
        # Still importing: the draw and the frame made it a competition being played.
        Competition.objects.filter(pk=competition.pk).update(
            status=Competition.Status.IMPORTING)
        competition.status = Competition.Status.IMPORTING


def _batch(job: LeagueImport, competition: Competition, league: League, by: Actor,
           batched: int, frame: Frame | None = None) -> None:
    first = job.written
    if _alone(league.matches[first]):
        frame = frame if frame is not None else Frame(competition)
        _vaca(job, league, by, frame, _vaca_match(competition, league, first, frame))
        return
    if frame is not None and competition.format == Competition.Format.GROUPS:
        frame.planned(competition, first)  # read before the transaction
    # Each batch its own transaction, then a pause on SQLite (muscore.leagues.pacing): the
    # benchmark's import back to back kept another writer waiting 52 s.
    with pacing.short_transaction("an import's matches"):
        n = import_matches(competition, league, by, first, batched,
                           budget=pacing.Budget(BATCH_SECONDS), frame=frame)
        if not LeagueImport.objects.filter(pk=job.pk, written=first).update(written=n):
            raise _Taken
    job.written = n


def _knockout(job: LeagueImport, competition: Competition, league: League, by: Actor,
              batched: int, frame: Frame) -> None:
    """A groups competition's knockout match: the bracket filled from the results before
    it (its first round from the groups' standings), worked out before and written in a
    transaction of its own when it changes anything; then the match, in a transaction of
    its own (a vaca's in two, `_vaca`). All of them in the import's end held SQLite's lock
    4.2 s at load 4-9 (60 pairs in 4 groups); each match with the fill after it up to 380
    ms at load 9-11, most of it the fill reading the whole competition and its standings.
    A worker killed between the two: the next run works the fill out again (written,
    nothing changes) and writes the match."""
    n = job.written
    fill = bracket.planned(competition)
    if fill.conflicts:  # played between other pairs: as the request's import refuses
        raise KnockoutConflict([m.number for m in fill.conflicts])
    if fill.writes():
        with pacing.short_transaction("an import's bracket"):
            if not LeagueImport.objects.filter(pk=job.pk, written=n).exists():
                raise _Taken
            bracket.write_fill(fill)
    match = _next_knockout(competition, league, batched, n)
    if _alone(league.matches[n]):
        _vaca(job, league, by, frame, match, "an import's knockout")
        return
    with pacing.short_transaction("an import's knockout"):
        _import_result(match, league.matches[n], league, by, frame)
        if not LeagueImport.objects.filter(pk=job.pk, written=n).update(written=n + 1):
            raise _Taken
    job.written = n + 1


def _vaca(job: LeagueImport, league: League, by: Actor, frame: Frame, match: Match,
          what: str = "an import's vaca result") -> None:
    """A vaca's match in two short transactions: its table (its rows made and its hands
    replayed before, then inserted: `tables.new_table`, five statements with the match;
    through the tables' write path, 20 with the replay inside, it held 200-2,500 ms at
    load 10-12) with the match that points at it, saved without its result; then its
    result (`what` names that transaction), written as any match's, and its hands'
    counts. Together they held SQLite's lock 200-700 ms at load 8-19 (issue 40). What
    they need is read before each (the pairs' players, the table's rows, the stored hands' counts).

    A worker killed between the two leaves that match with its table and no result: the
    next run finds it (`_vaca_match`, `_next_knockout`) and writes only its result, so
    nothing is written twice and nothing lost; a failed import deletes it with the rest.
    Meanwhile a reader sees none of it: the competition is "importing" (on no list and no
    page, out of the ratings and leaders), the job's count of matches written has not
    moved, and the new table is known only by its id, which nothing shows."""
    n = job.written
    doc_match = league.matches[n]
    result, vaca = doc_match.result, doc_match.vaca
    assert result is not None and vaca is not None
    if match.table_id is None:
        _sat(match, doc_match)
        check_result(match, result, league.rules)
        table = _vaca_table(match, vaca, league.rules, frame.players(match))
        with pacing.short_transaction("an import's vaca table"):
            _save_round(match, frame)
            match.table = table.store()
            match.save()
    assert match.table is not None
    counts = stats_store.table_counts(match.table)
    with pacing.short_transaction(what):
        write(match, result, by=by, action="import")
        stats_store.store_counts(match, counts)
        if not LeagueImport.objects.filter(pk=job.pk, written=n).update(written=n + 1):
            raise _Taken
    job.written = n + 1


def _vaca_match(competition: Competition, league: League, n: int, frame: Frame) -> Match:
    """The match of the document's vaca `n` (0-based): a groups competition's planned
    one, the one an earlier run saved with its table, or a new one (not saved)."""
    if competition.format == Competition.Format.GROUPS:
        match = (competition.matches.filter(tie__isnull=True)
                 .select_related("round", "first", "second", "table").order_by("number")[n])
        if not _same(match, league.matches[n]):
            raise _refuse_order(competition.groups.count(), n + 1)
        return match
    earlier = (competition.matches.filter(number=n + 1)
               .select_related("round", "first", "second", "table").first())
    if earlier is not None:
        return earlier
    return _new_match(competition, league, n, frame)


def _finish(job: LeagueImport, competition: Competition) -> None:
    # after_change set its status from its matches: no longer importing.
    LeagueImport.objects.filter(pk=job.pk).update(finished_at=timezone.now(),
                                                  written=job.total)
    if job.rated:
        Competition.objects.filter(pk=competition.pk).update(rated=True)


def fail(job: LeagueImport, message: str) -> None:
    """Delete the import's competition whole (its matches and their tables in short
    batches, then the rest) and the pairs it added; the row keeps `message`."""
    LeagueImport.objects.filter(pk=job.pk).update(error=message, finished_at=timezone.now())
    competition_id = job.competition_id
    assert competition_id is not None
    while True:
        with pacing.short_transaction("a failed import's matches deleted"):
            rows = list(Match.objects.filter(competition_id=competition_id)
                        .values_list("pk", "table_id")[:500])
            if not rows:
                break
            Match.objects.filter(pk__in=[pk for pk, _t in rows]).delete()
            Table.objects.filter(pk__in=[t for _pk, t in rows if t is not None]).delete()
    with transaction.atomic():
        # A knockout's ties filled by an earlier transaction point at the entries (PROTECT).
        Tie.objects.filter(competition_id=competition_id).delete()
        Competition.objects.filter(pk=competition_id).delete()
        Pair.objects.filter(pk__in=job.new_pairs).exclude(
            pk__in=Entry.objects.values("pair_id")).delete()


def failed(club_id: int) -> list[LeagueImport]:
    """The club's imports that failed in the last day, newest first (the import page)."""
    since = timezone.now() - timedelta(days=1)
    return list(LeagueImport.objects.filter(club_id=club_id, created_at__gte=since)
                .exclude(error="").order_by("-pk"))
