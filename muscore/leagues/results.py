"""A match's result: the one module that writes it.

- `record_result(match, *, by, juegos, tantos=None, reason="")`,
  `record_no_show(match, *, by, who, reason="")`, `clear_result(match, *, by, reason="")`:
  the organiser's doors
- `on_table_changed(table, state)`: the door of a played table (the first vaca, once won)
- `write(match, result, source, *, by, action, reason="")` and `after_change(competition)`:
  what every door ends in (muscore.leagues.confirmations and .documents call them for the
  pairs' claims and an import): a correction refused without its reason (ReasonRequired),
  the stored figures, the audit, the standings lines, ratings, hand stats, the knockout's
  next matches and a ceros tournament's consequences
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from muscore.clubs.permissions import Actor
from muscore.leagues import ceros_rounds, consequences, rating_store, stats_store
from muscore.leagues.competitions import (
    KNOCKOUT_ORDER,
    LINE_FIELDS,
    CompetitionError,
    audit,
    bump,
    competition_rules,
    league_error,
    side_sums,
    standings,
    writable_match,
)
from muscore.leagues.compute.document import (
    Points,
    Result,
    read_league,
    replay_result,
    tantos_bounds,
    tantos_possible,
)
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.standings import match_points
from muscore.leagues.models import (
    Competition,
    Correction,
    Entry,
    Match,
)
from muscore.leagues.signals import result_changed
from muscore.rules import Rules
from muscore.tables.models import Table
from muscore.tables.services import ResultSettled
from muscore.tables.state import TableState

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------------------ results



def store_figures(match: Match, result: Result, source: str, at: Any) -> None:
    """Set a match's stored figures from `result` (not saved: bulk writers save them)."""
    match.source = source
    match.juegos_first, match.juegos_second = result.juegos
    tantos = result.tantos
    match.tantos_first, match.tantos_second = tantos if tantos is not None else (None, None)
    match.no_show_first, match.no_show_second = result.no_show
    match.winner = result.winner
    match.result_at = at



def _line_change(match: Match, sign: int) -> None:
    """Add (sign 1) or take away (-1) a league match's stored figures to its entries' lines."""
    if match.slot or not match.source or match.first_id is None or match.second_id is None:
        return
    result = match_result(match)
    assert result is not None
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


def recount_lines(competition: Competition) -> None:
    """Set every entry's standings line from the matches' stored figures (the bulk builder
    uses it; also a repair should a line ever drift)."""
    sums: dict[int, dict[str, int]] = {}
    for side in (0, 1):
        for pk, *values in side_sums(competition, side):
            line = sums.setdefault(pk, dict.fromkeys(LINE_FIELDS, 0))
            played, won, forfeits, points, jf, ja, tf, ta = values
            for name, value in (("played", played), ("won", won), ("lost", played - won),
                                ("forfeits", forfeits), ("points", points),
                                ("juegos_for", jf), ("juegos_against", ja),
                                ("tantos_for", tf), ("tantos_against", ta)):
                line[name] += value
    entries = list(competition.entries.all())
    for entry in entries:
        for name, value in sums.get(entry.pk, dict.fromkeys(LINE_FIELDS, 0)).items():
            setattr(entry, name, value)
    Entry.objects.bulk_update(entries, list(LINE_FIELDS), batch_size=500)


def store(
    match: Match, result: Result | None, source: str, at: datetime | None = None
) -> None:
    """Write (or clear, with None) a match's figures and its pairs' standings lines.
    `at` is the result's time when it is not now (a claim accepted after 24 hours)."""
    if match.competition.format == Competition.Format.CEROS:
        ceros_rounds.check_change(match, result)
    _line_change(match, -1)
    if result is None:
        match.source = ""
        match.juegos_first = match.juegos_second = None
        match.tantos_first = match.tantos_second = None
        match.no_show_first = match.no_show_second = False
        match.winner = None
        match.result_at = None
    else:
        store_figures(match, result, source, at or timezone.now())
    match.save()
    _line_change(match, 1)
    rating_store.match_changed(match)  # re-rates the club's players from this match on
    if source != Match.Source.TABLE:
        stats_store.drop(match)  # an organiser's result, or none: the hands no longer count


def match_result(match: Match) -> Result | None:
    """The stored figures of a match as the pure computations take them."""
    if not match.source:
        return None
    tantos = None
    if match.tantos_first is not None and match.tantos_second is not None:
        tantos = (match.tantos_first, match.tantos_second)
    source = {"table": "vaca", "manual": "juegos", "no_show": "forfeit"}[match.source]
    return Result((match.juegos_first or 0, match.juegos_second or 0), tantos,
                  (match.no_show_first, match.no_show_second), source)  # type: ignore[arg-type]


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
# minutes (`table_window`): shown as "corrected at the table" with both results.
UNREASONED_ACTIONS = frozenset({"table", "table_fix"})


def check_reason(match: Match, action: str, reason: str) -> str:
    """The reason of a write to `match`, stripped: required (ReasonRequired) when the match
    already has a result and the write is a person's (anything but its table's)."""
    reason = reason.strip()
    if match.source and action not in UNREASONED_ACTIONS and not reason:
        raise ReasonRequired
    return reason


def write(
    match: Match, result: Result | None, source: str, *, by: Actor | None, action: str,
    reason: str = "", at: datetime | None = None,
) -> Correction:
    """The one write of a match's result, whatever the door: the reason checked
    (`check_reason`), the figures stored (`store`) and the change audited with its
    reason. The caller checked the result (`check_result`) and calls `after_change`."""
    if match.competition.status == Competition.Status.IMPORTING and action != "import":
        # The worker is writing its results in batches (muscore.leagues.imports).
        raise CompetitionError(_(
            "%(name)s se está importando: sus resultados se podrán cambiar cuando termine.")
            % {"name": match.competition.title})
    reason = check_reason(match, action, reason)
    check_dependents(match, result, action)
    before = match.figures()
    store(match, result, source, at)
    return audit(match, by, action, before, reason)


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
    """A change of `match`'s stored figures by a person is refused (HasDependents) while
    something another app drew or played from them stands (`consequences.registered`).
    The league's own consequences have their finer rules: the knockout's
    (`fill_knockout`: refused unless reset with it) and a ceros round's (who lost)."""
    if action in UNCHECKED_ACTIONS or not match.source:
        return
    current = match_result(match)
    if result is not None and current is not None and (
            result.juegos, result.tantos, result.no_show) == (
            current.juegos, current.tantos, current.no_show):
        return  # the same figures: the table's result confirmed on paper changes nothing
    found = consequences.registered(match)
    if found:
        raise HasDependents(found, consequences.full_title(match.competition))


class KnockoutConflict(CompetitionError):
    """A change that would send other pairs to knockout matches already played: refused
    (the whole write rolls back) unless the organiser resets those matches with it."""

    code = "knockout_conflict"
    status = 409

    def __init__(self, numbers: Sequence[int]) -> None:
        self.numbers = list(numbers)
        super().__init__(
            ngettext("Este cambio cambia quién juega la partida %(numbers)s, que ya se jugó. "
                     "Para hacerlo, anula también lo que depende de este resultado: esa "
                     "partida se borra (queda en el registro) y se vuelve a jugar.",
                     "Este cambio cambia quién juega las partidas %(numbers)s, que ya se "
                     "jugaron. Para hacerlo, anula también lo que depende de este resultado: "
                     "esas partidas se borran (quedan en el registro) y se vuelven a jugar.",
                     len(self.numbers))
            % {"numbers": ", ".join(str(n) for n in self.numbers)})


def after_change(
    competition: Competition, *, by: Actor | None = None, reset: bool = False, reason: str = "",
) -> None:
    """What follows a stored result: a ceros tournament's state; a groups competition's
    knockout filled from the standings and the matches before (KnockoutConflict if a
    played match would change, unless `reset`: then each such match is cleared, logged
    as "reset" by `by` with the `reason` of the change that cleared it); the
    competition's status and revision; then `signals.result_changed` (a championship's
    next knockout games, its heat's final order)."""
    if competition.format == Competition.Format.CEROS:
        ceros_rounds.after_change(competition)
    else:
        if competition.format == Competition.Format.GROUPS:
            fill_knockout(competition, by=by, reset=reset, reason=reason)
        left = Match.objects.filter(competition=competition, source="").exists()
        status = Competition.Status.PLAYING if left else Competition.Status.FINISHED
        Competition.objects.filter(pk=competition.pk).update(status=status)
    bump(competition)
    # A championship's knockout makes its next games here, never when a page is read.
    result_changed.send(sender=Competition, competition=competition, by=by)


@transaction.atomic
def record_result(
    match: Match, *, by: Actor, juegos: Sequence[int], tantos: Sequence[int] | None = None,
    reset: bool = False, reason: str = "",
) -> Match:
    """A vaca kept on paper: the juegos of each pair and, if counted, the tantos."""
    match = writable_match(match, by)
    rules = competition_rules(match.competition)
    data: dict[str, Any] = {"pairs": [0, 1], "juegos": list(juegos)}
    if tantos is not None:
        data["tantos"] = list(tantos)
    try:
        result = read_result(data, rules)
    except LeagueError as error:
        raise league_error(error) from None
    check_result(match, result, rules)
    write(match, result, Match.Source.MANUAL, by=by, action="manual", reason=reason)
    after_change(match.competition, by=by, reset=reset, reason=reason)
    return match


@transaction.atomic
def record_no_show(
    match: Match, *, by: Actor, who: int | str, reset: bool = False, reason: str = "",
) -> Match:
    """A no-show: `who` is 0 (the first pair), 1 (the second) or "both"; over a result
    already stored it is a correction, with its `reason`."""
    match = writable_match(match, by)
    rules = competition_rules(match.competition)
    if who not in (0, 1, "0", "1", "both"):
        raise CompetitionError(_("¿Quién no se presentó?"))
    forfeit: int | str = who if who == "both" else int(who)
    data = {"pairs": [0, 1], "forfeit": forfeit}
    result = read_result(data, rules)
    check_result(match, result, rules)
    write(match, result, Match.Source.NO_SHOW, by=by, action="no_show", reason=reason)
    after_change(match.competition, by=by, reset=reset, reason=reason)
    return match


@transaction.atomic
def clear_result(match: Match, *, by: Actor, reset: bool = False, reason: str = "") -> Match:
    """Take a result back (the audit keeps it, with its `reason`, required)."""
    match = writable_match(match, by)
    write(match, None, "", by=by, action="clear", reason=reason)
    after_change(match.competition, by=by, reset=reset, reason=reason)
    return match


def read_result(data: dict[str, Any], rules: Rules) -> Result:
    league = read_league({
        "name": "-", "rules": rules.to_json(),
        "pairs": [{"name": str(i), "players": [f"{i}-{k}" for k in range(rules.players // 2)]}
                  for i in range(2)],
        "matches": [data],
    })
    result = league.matches[0].result
    assert result is not None
    return result


def check_result(match: Match, result: Result, rules: Rules) -> None:
    """The checks every door's result passes, whoever enters it (CompetitionError says
    what is wrong): a knockout match has a winner; the tantos can come from the juegos."""
    if match.slot and result.winner is None:
        raise CompetitionError(_("En una eliminatoria una de las dos parejas tiene que pasar."))
    if not tantos_possible(result, rules):
        assert result.tantos is not None and result.winner is not None
        loser = 1 - result.winner
        (wlo, whi), (llo, lhi) = tantos_bounds(rules, result.juegos[loser])
        raise CompetitionError(
            _("Con %(won)s juegos a %(lost)s, la pareja que gana suma entre %(wlo)s y "
              "%(whi)s tantos y la que pierde entre %(llo)s y %(lhi)s, no %(got_w)s y "
              "%(got_l)s.")
            % {"won": result.juegos[result.winner], "lost": result.juegos[loser],
               "wlo": wlo, "whi": whi, "llo": llo, "lhi": lhi,
               "got_w": result.tantos[result.winner], "got_l": result.tantos[loser]})


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
    if not match.source:
        return None
    knockout = consequences.knockout_game(match)
    if match.source != Match.Source.TABLE:
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
    match = (Match.objects.filter(table_id=table.pk)
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
    match = Match.objects.select_for_update().select_related("competition").get(pk=match_id)
    if match.source not in ("", Match.Source.TABLE):
        return  # an organiser's result (by hand, a no-show) stands until they clear it
    finished = state.get("finished") or []
    result = replay_result(finished[0], Rules.from_json(table.rules)) if finished else None
    current = match_result(match) if match.source else None
    if finished or current is not None:  # what the hands say follows the vaca (an edited bet)
        stats_store.count_match(match, table, finished[0] if finished else None)
    if result == current:
        return
    # A result the table had stored, changed or taken back: never silent (the match page
    # and the organiser's night show it as corrected at the table, with both results).
    fixed = current is not None or Correction.objects.filter(
        match=match, action="table_fix").exists()  # the result after an undo, too
    action = "table_fix" if fixed else "table"
    write(match, result, Match.Source.TABLE, by=None, action=action)
    after_change(match.competition)


# ----------------------------------------------------------------------------- knockout


def fill_knockout(
    competition: Competition, *, by: Actor | None = None, reset: bool = False, reason: str = "",
) -> None:
    """Put in each unplayed knockout match the pairs the standings and the matches before
    send there. A played one whose pairs would change is a KnockoutConflict, or with
    `reset` is cleared (audited with `reason`, required: ReasonRequired) and the knockout
    filled again, until nothing differs."""
    while True:
        conflicts = _fill_knockout_once(competition)
        if not conflicts:
            return
        if not reset:
            raise KnockoutConflict([m.number for m in conflicts])
        for m in conflicts:
            m.table = None  # its table seated other pairs: a new one is opened to replay it
            write(m, None, "", by=by, action="reset", reason=reason)


def _fill_knockout_once(competition: Competition) -> list[Match]:
    """Fill the unplayed knockout matches; the played ones whose pairs differ from those
    the results send there."""
    matches = list(Match.objects.filter(competition=competition).select_related("round"))
    group_matches = [m for m in matches if not m.slot]
    slots = {m.slot: m for m in matches if m.slot}
    wanted: dict[str, tuple[int | None, int | None]] = {}
    if all(m.source for m in group_matches):
        # Never from the cache inside a write: a rolled-back write must leave no trace there.
        table = {g.group.order if g.group else 0: g.rows
                 for g in standings(competition, cached=False) if g.group is not None}
        firsts = [rows[0].pair if rows else None for _, rows in sorted(table.items())]
        seconds = [rows[1].pair if len(rows) > 1 else None for _, rows in sorted(table.items())]
        if competition.group_count == 2:
            wanted["sf1"] = (firsts[0], seconds[1])
            wanted["sf2"] = (firsts[1], seconds[0])
        else:
            wanted["qf1"] = (firsts[0], seconds[1])
            wanted["qf2"] = (firsts[1], seconds[0])
            wanted["qf3"] = (firsts[2], seconds[3])
            wanted["qf4"] = (firsts[3], seconds[2])
    entries = {e.index: e.pk for e in competition.entries.all()}
    by_pk = {pk: index for index, pk in entries.items()}

    def outcome(slot: str, winner: bool) -> int | None:
        m = slots.get(slot)
        if m is None or m.winner is None or m.first_id is None or m.second_id is None:
            return None
        side = m.winner if winner else 1 - m.winner
        return by_pk[m.first_id if side == 0 else m.second_id]

    if competition.group_count == 4:
        wanted["sf1"] = (outcome("qf1", True), outcome("qf3", True))
        wanted["sf2"] = (outcome("qf2", True), outcome("qf4", True))
    wanted["final"] = (outcome("sf1", True), outcome("sf2", True))
    wanted["third"] = (outcome("sf1", False), outcome("sf2", False))
    conflicts: list[Match] = []
    # Being played (a hand at its table) counts as played: those hands are never lost.
    started = set(consequences.started(Match.objects.filter(
        competition=competition).exclude(slot="")).values_list("pk", flat=True))
    for slot in KNOCKOUT_ORDER:
        m = slots.get(slot)
        if m is None:
            continue
        first, second = wanted.get(slot, (None, None))
        first_pk = entries[first] if first is not None else None
        second_pk = entries[second] if second is not None else None
        if (m.first_id, m.second_id) == (first_pk, second_pk):
            continue
        if m.source or m.pk in started:
            conflicts.append(m)  # played between other pairs: the organiser decides
            continue
        m.first_id, m.second_id = first_pk, second_pk
        m.table = None  # a table opened for other pairs: a new one is opened for these
        m.save(update_fields=["first", "second", "table"])  # its document text too
    return conflicts


