"""The door of a played table, and when a result is final for it.

- `on_table_changed(table, state)`: the listener of `muscore.tables.signals.table_changed`
  (the first vaca's result stored once won, taken back when an undo un-wins it)
- `settled(match)`, `is_final(match)`: why a result is final for its table (the rule of
  docs/league.md, "When a result is final")
- `check_table_write(table, vaca)`: the receiver of `table_changing`, refusing a change a
  final result forbids
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext_lazy

from muscore.leagues import stats_store
from muscore.leagues.changes import lock_match
from muscore.leagues.compute.document import replay_result
from muscore.leagues.models import Correction, Match
from muscore.leagues.results import consequences
from muscore.leagues.results.doors import after_change
from muscore.leagues.results.store import write
from muscore.rules import Rules
from muscore.tables.models import Table
from muscore.tables.services import ResultSettled
from muscore.tables.state import TableState

logger = logging.getLogger(__name__)


def on_table_changed(table: Table, state: TableState) -> None:
    """The listener of `muscore.tables.signals.table_changed` (inside the table's write).

    Stores the result of the table's first vaca in its league match once won, and takes
    it back when an undo or edit un-wins it. A failure here never blocks the table: it
    is logged, and the next write to the table checks again.
    """
    match_id = Match.objects.filter(table_id=table.pk).values_list("pk", flat=True).first()
    if match_id is None:
        return
    try:
        with transaction.atomic():
            _sync(match_id, table, state)
    except Exception:  # the table's hand is saved whatever happens to the league
        logger.exception("league match %s: the result of table %s was not stored",
                         match_id, table.pk)


def table_window() -> timedelta:
    """How long a table may still change the result it stored (an undo, a corrected hand):
    `MUSCORE_TABLE_CORRECTION_MINUTES`, 15 unless set. After that the result is the
    organiser's."""
    return timedelta(minutes=settings.MUSCORE_TABLE_CORRECTION_MINUTES)


def is_final(match: Match, now: datetime | None = None) -> bool:
    """Whether a match's stored result is final, so its table can no longer change it
    (`settled`)."""
    return settled(match, now) is not None


@dataclass(frozen=True)
class Settled:
    """Why a stored result is final for its table: what was drawn or played from it
    (`dependents`, names for people; empty when nothing is, or when it is not asked), and
    whether the match is a knockout's game (`knockout`: its table then takes nothing more)."""

    dependents: list[str]
    knockout: bool


def settled(match: Match, now: datetime | None = None) -> Settled | None:
    """None while the table may still change the match's result; else why it is final.

    The rule (docs/league.md, "When a result is final"): a result played on a table is
    the table's own for `table_window()` (15 minutes), in which an undo or a corrected
    hand changes it; a knockout's game is final as soon as it is won (what is won in a
    knockout is won: the tie, the next round, the champion follow from it); any result
    something was drawn or played from is final at once; an organiser's (or both pairs'
    confirmed) result is final as it is stored. Once final only the organiser changes it,
    and a knockout game's table takes no more hands."""
    result = match.outcome
    if result is None:
        return None
    knockout = match.tie_id is not None  # a knockout's game (a cup's, a championship's)
    if result.source != "table":
        return Settled([], knockout)  # entered, confirmed, accepted or corrected
    if knockout:
        return Settled(consequences.dependents(match), True)
    if match.result_at is not None and match.result_at + table_window() <= (
            now or timezone.now()):
        return Settled([], False)
    found = consequences.dependents(match)
    return Settled(found, False) if found else None


def check_table_write(table: Table, vaca: int, now: datetime | None = None) -> None:
    """The receiver of `muscore.tables.signals.table_changing`: any write that touches a
    league table's first vaca (the match's result: an undo, a correction, a redo or a hand
    or piedras added to it), or any write at all at a knockout game's table, is refused
    once the result is final (ResultSettled, a 409 naming the competition and its
    championship, what depends on the result, and whom to ask)."""
    match = (Match.objects.filter(table_id=table.pk).with_outcome()
             .select_related("competition", "round").first())
    if match is None:
        return
    because = settled(match, now)
    if because is None or (vaca != 0 and not because.knockout):
        return  # later vacas of a league match are the pairs' own
    raise settled_error(match, because)


def settled_error(match: Match, because: Settled) -> ResultSettled:
    """The refusal of a change at the table of a match whose result is final."""
    # Lazy: the API says it in English (str()), a page in its own language (page_message).
    competition = consequences.full_title(match.competition)
    if because.dependents:
        return ResultSettled(
            ngettext_lazy(
                "El resultado ya es definitivo en %(competition)s: de él depende "
                "%(dependents)s. Pide la corrección a sus organizadores",
                "El resultado ya es definitivo en %(competition)s: de él dependen "
                "%(dependents)s. Pide la corrección a sus organizadores",
                len(because.dependents)),
            competition=competition, dependents=consequences.named(because.dependents))
    if because.knockout:
        return ResultSettled(
            gettext_lazy("El resultado ya es definitivo en %(competition)s: una partida de "
                         "eliminatoria ganada ya no cambia en la mesa. Pide la corrección a "
                         "sus organizadores"), competition=competition)
    return ResultSettled(
        gettext_lazy("El resultado ya es definitivo en %(competition)s: pide la corrección "
                     "a sus organizadores"), competition=competition)


def _sync(match_id: int, table: Table, state: TableState) -> None:
    match = lock_match(Match(pk=match_id))
    current = match.outcome
    if current is not None and current.source != "table":
        return  # an organiser's result (by hand, a no-show) stands until they clear it
    finished = state.get("finished") or []
    result = replay_result(finished[0], Rules.from_json(table.rules)) if finished else None
    if finished or current is not None:  # what the hands say follows the vaca (an edited bet)
        stats_store.count_match(match, table, finished[0] if finished else None)
    if result == current:
        return
    # A result the table had stored, changed or taken back: never silent (the match page
    # and the organiser's night show it as corrected at the table, with both results).
    fixed = current is not None or Correction.objects.filter(
        match=match, action="table_fix").exists()  # the result after an undo, too
    action = "table_fix" if fixed else "table"
    write(match, result, by=None, action=action)
    after_change(match.competition)


