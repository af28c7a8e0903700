"""The one write of a match's result, whatever the door: the reason a correction needs, the
guard of what depends on the result, the row stored, the pairs' standings lines, the
ratings and hand stats re-derived, the audit.

A result is a `ResultRow` (muscore.leagues.models.result): never changed, a new result is a
new row. The match points at its row; the audit (`Correction`) keeps the row before and the
row after; a pair's claim confirmed or accepted is stored as its own row.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore.clubs.permissions import Actor, stored_user
from muscore.leagues import ceros_rounds, rating_store, stats_store
from muscore.leagues.changes import CompetitionError
from muscore.leagues.compute.document import Points, Result
from muscore.leagues.compute.standings import match_points
from muscore.leagues.models import REASON_MAX, Competition, Correction, Entry, Match, ResultRow
from muscore.leagues.results import consequences


def set_results(stored: Sequence[tuple[Match, Result]], at: datetime) -> None:
    """Each match's result stored as a new row (one insert for them all) and set on the
    match, not saved: the bulk builders save the matches themselves (then
    `standings.recount_lines`)."""
    rows = ResultRow.objects.bulk_create(
        [ResultRow.of(match.competition_id, result) for match, result in stored],
        batch_size=1000)
    for (match, _result), row in zip(stored, rows, strict=True):
        match.result = row
        match.result_at = at


def new_row(match: Match, result: Result) -> ResultRow:
    """A new row of `result` for `match` (a pair's claim: the match points at it once the
    claim is agreed)."""
    row = ResultRow.of(match.competition_id, result)
    row.save()
    return row


def _line_change(match: Match, sign: int) -> None:
    """Add (sign 1) or take away (-1) a league match's result to its entries' lines."""
    result = match.outcome
    if match.tie_id is not None or result is None or match.first_id is None or (
            match.second_id is None):
        return
    competition = Competition.objects.only(
        "points_win", "points_loss", "points_forfeit").get(pk=match.competition_id)
    gained = match_points(result, Points(**competition.points))
    tantos = result.tantos or (0, 0)
    for side, entry_id in enumerate((match.first_id, match.second_id)):
        deltas = {
            "played": 1, "won": int(result.winner == side), "lost": int(result.winner != side),
            "forfeits": int(result.no_show[side]), "points": gained[side],
            "juegos_for": result.juegos[side], "juegos_against": result.juegos[1 - side],
            "tantos_for": tantos[side], "tantos_against": tantos[1 - side],
        }
        Entry.objects.filter(pk=entry_id).update(
            **{name: F(name) + sign * value for name, value in deltas.items() if value})


def store(match: Match, result: Result | None, at: datetime | None = None,
          row: ResultRow | None = None) -> None:
    """Point `match` at a new row of `result` (or at none) and keep its pairs' standings
    lines, ratings and hand stats in step. `at` is the result's time when it is not now (a
    claim accepted after 24 hours); `row`, the row that already stores `result` (a
    pair's claim)."""
    inserted = match.pk is None  # an import's new match: saved here with its result
    if match.competition.format == Competition.Format.CEROS:
        ceros_rounds.check_change(match, result)
    _line_change(match, -1)
    if result is None:
        match.result = None
        match.result_at = None
    else:
        match.result = row if row is not None else new_row(match, result)
        match.result_at = at or timezone.now()
    match.save()
    _line_change(match, 1)
    rating_store.match_changed(match)  # re-rates the club's players from this match on
    if (result is None or result.source != "table") and not inserted:
        stats_store.drop(match)  # an organiser's result, or none: the hands no longer count


class ReasonRequired(CompetitionError):
    """A person's change to a result already stored (a correction, a no-show over it, a
    result taken back, the matches a reset clears) sent without a reason: refused, whatever
    the door, so the audit always says why a result changed."""

    code = "reason_required"

    def __init__(self) -> None:
        super().__init__(_("Una corrección lleva su motivo: di por qué cambia."))


# The table's own writes: its provisional result follows its hands (an undo at the table
# before the result is final), which is the match being played, not a person correcting it.
# "table_fix": the table changed (or took back) the result it had stored, inside its
# minutes (`table.table_window`): shown as "corrected at the table" with both results.
UNREASONED_ACTIONS = frozenset({"table", "table_fix"})


def check_reason(match: Match, action: str, reason: str) -> str:
    """The reason of a write to `match`, stripped: required (ReasonRequired) when the match
    already has a result and the write is a person's (anything but its table's)."""
    reason = reason.strip()
    if match.played and action not in UNREASONED_ACTIONS and not reason:
        raise ReasonRequired
    return reason


def audit(match: Match, by: Actor | None, action: str, before: ResultRow | None,
          players: list[object], reason: str = "") -> Correction:
    """The audit's row of a change of `match`: its result's row before and after (the
    match's, now), who sat before (`players`) and after, who did it, and why."""
    return Correction.objects.create(
        competition_id=match.competition_id, match=match, by=stored_user(by), action=action,
        before_result=before, after_result=match.result, players_before=players,
        players_after=match.players, reason=reason[:REASON_MAX])


def write(
    match: Match, result: Result | None, *, by: Actor | None, action: str,
    reason: str = "", at: datetime | None = None, row: ResultRow | None = None,
) -> Correction:
    """The one write of a match's result, whatever the door: the reason checked
    (`check_reason`), what depends on it guarded (`check_dependents`), the result stored
    (`store`) and the change audited with its reason. The caller checked the result
    (`doors.check_result`) and calls `doors.after_change`."""
    if match.competition.status == Competition.Status.IMPORTING and action != "import":
        # The worker is writing its results in batches (muscore.leagues.imports).
        raise CompetitionError(_(
            "%(name)s se está importando: sus resultados se podrán cambiar cuando termine.")
            % {"name": match.competition.title})
    reason = check_reason(match, action, reason)
    check_dependents(match, result, action)
    before, players = match.result, match.players
    store(match, result, at, row)
    return audit(match, by, action, before, players, reason)


# The writes that follow what was drawn (a reset clears the knockout matches a changed
# result no longer sends the same pairs to; an import writes a whole competition).
UNCHECKED_ACTIONS = frozenset({"table", "table_fix", "reset", "import"})


class HasDependents(CompetitionError):
    """A person's change of a result that something another app drew or played depends on
    (a championship's later game, a phase drawn from its group or heat): refused, naming
    them; what depends on it is cleared first, latest first."""

    code = "has_dependents"
    status = 409

    def __init__(self, names: Sequence[str], competition: str) -> None:
        self.names = list(names)
        super().__init__(
            ngettext("De este resultado de %(competition)s depende %(dependents)s: no cambia "
                     "mientras eso siga en pie. Borra antes el resultado de lo que depende "
                     "de él.",
                     "De este resultado de %(competition)s dependen %(dependents)s: no "
                     "cambia mientras eso siga en pie. Borra antes el resultado de lo que "
                     "depende de él.", len(self.names))
            % {"dependents": consequences.named(self.names), "competition": competition})


def check_dependents(match: Match, result: Result | None, action: str) -> None:
    """A change of `match`'s result by a person is refused (HasDependents) while something
    a stage drew or a knockout alone played from it stands
    (`consequences.drawn_or_played`). The league's own consequences have their finer
    rules: the knockout's (`bracket.fill`: refused unless reset with it) and a ceros
    round's (who lost)."""
    current = match.outcome
    if action in UNCHECKED_ACTIONS or current is None:
        return
    if result is not None and (result.juegos, result.tantos, result.no_show) == (
            current.juegos, current.tantos, current.no_show):
        return  # the same figures: the table's result confirmed on paper changes nothing
    found = consequences.drawn_or_played(match)
    if found:
        raise HasDependents(found, consequences.full_title(match.competition))
