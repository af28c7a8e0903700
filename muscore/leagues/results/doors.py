"""The doors of a match's result that a person opens, and what follows every write.

- `record_result(match, *, by, juegos, tantos=None, reset=False, reason="")`,
  `record_no_show(match, *, by, who, ...)`, `clear_result(match, *, by, ...)`: the
  organiser's, on the match page
- `read_result(data, rules)` and `check_result(match, result, rules)`: a result as the
  league document writes it, read and checked as every door checks it (the pairs' links,
  an import)
- `after_change(competition, ...)`: what follows every stored result (the knockout's next
  matches, a ceros tournament's state, the competition's status and revision, its final
  order once finished, then `signals.result_changed`)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from muscore.clubs.permissions import Actor
from muscore.leagues import ceros_rounds
from muscore.leagues.changes import (
    CompetitionError,
    bump,
    competition_rules,
    league_error,
    writable_match,
)
from muscore.leagues.compute.document import (
    Result,
    read_league,
    tantos_bounds,
    tantos_possible,
)
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import bracket, final
from muscore.leagues.results.store import write
from muscore.leagues.signals import result_changed
from muscore.rules import Rules


def after_change(
    competition: Competition, *, by: Actor | None = None, reset: bool = False, reason: str = "",
) -> None:
    """What follows a stored result: a ceros tournament's state; a groups competition's
    knockout filled from the standings and the matches before (KnockoutConflict if a
    played match would change, unless `reset`: then each such match is cleared, logged
    as "reset" by `by` with the `reason` of the change that cleared it); the
    competition's status and revision; its final order once it is finished
    (`final.keep`); then `signals.result_changed`, which only tells (a live page's push):
    what follows is written here, by the owner of the result."""
    if competition.format == Competition.Format.CEROS:
        ceros_rounds.after_change(competition)
    else:
        if competition.format in (Competition.Format.GROUPS, Competition.Format.KNOCKOUT):
            bracket.fill(competition, by=by, reset=reset, reason=reason)
        left = Match.objects.filter(competition=competition).unplayed().exists()
        status = Competition.Status.PLAYING if left else Competition.Status.FINISHED
        Competition.objects.filter(pk=competition.pk).update(status=status)
    bump(competition)
    final.keep(competition)
    # Told to whoever shows it (muscore.live pushes the pages it changed).
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
    write(match, result, by=by, action="manual", reason=reason)
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
    write(match, result, by=by, action="no_show", reason=reason)
    after_change(match.competition, by=by, reset=reset, reason=reason)
    return match


@transaction.atomic
def clear_result(match: Match, *, by: Actor, reset: bool = False, reason: str = "") -> Match:
    """Take a result back (the audit keeps it, with its `reason`, required)."""
    match = writable_match(match, by)
    write(match, None, by=by, action="clear", reason=reason)
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
    if match.tie_id is not None and result.winner is None:
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


