"""A cup's knockout (a groups competition's quarterfinals, semifinals, final and third
place: `Match.slot`), filled from the groups' standings and the matches before as each
result is stored."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore.clubs.permissions import Actor
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import KNOCKOUT_ORDER, Competition, Match
from muscore.leagues.results import consequences
from muscore.leagues.results.standings import standings
from muscore.leagues.results.store import write


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
            write(m, None, by=by, action="reset", reason=reason)



def _fill_knockout_once(competition: Competition) -> list[Match]:
    """Fill the unplayed knockout matches; the played ones whose pairs differ from those
    the results send there."""
    matches = list(Match.objects.filter(competition=competition).with_outcome()
                   .select_related("round"))
    group_matches = [m for m in matches if not m.slot]
    slots = {m.slot: m for m in matches if m.slot}
    wanted: dict[str, tuple[int | None, int | None]] = {}
    if all(m.played for m in group_matches):
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
        result = m.outcome if m is not None else None
        if m is None or result is None or result.winner is None or m.first_id is None or (
                m.second_id is None):
            return None
        side = result.winner if winner else 1 - result.winner
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
        if m.played or m.pk in started:
            conflicts.append(m)  # played between other pairs: the organiser decides
            continue
        m.first_id, m.second_id = first_pk, second_pk
        m.table = None  # a table opened for other pairs: a new one is opened for these
        m.save(update_fields=["first", "second", "table"])  # its document text too
    return conflicts


