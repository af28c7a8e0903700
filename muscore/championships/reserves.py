"""A pair withdrawn, and who takes its place: before the entries close the first of its
venue's waiting list; after a phase is drawn the next reserve (of its venue at level 1, of
the group it came from after), in a group not started yet or a knockout it has played no
game of."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from muscore.championships import kept
from muscore.championships.errors import ChampionshipError
from muscore.championships.heats import qualified
from muscore.championships.models import Enrolment, Phase, PhaseGroup
from muscore.championships.pairs import phase_pair
from muscore.championships.venues import require_sede
from muscore.clubs.permissions import Actor
from muscore.leagues import competitions
from muscore.leagues.models import Competition, Entry, Match
from muscore.leagues.models.knockout import game_title
from muscore.leagues.results import final


@transaction.atomic
def withdraw(enrolment: Enrolment, *, by: Actor) -> Enrolment:
    """A pair withdraws. Before the entries close the first of its venue's waiting list
    takes its place; after a phase is drawn its place goes to the next reserve (of its
    venue at level 1, of the group it came from after): in a group that has not started
    (a group that has keeps it: its matches are no-shows), or in a knockout while it has
    played no game there (once it has, the withdrawal is refused: record its no-show)."""
    require_sede(by, enrolment.sede)
    enrolment = Enrolment.objects.select_for_update().select_related(
        "championship__club", "sede").get(pk=enrolment.pk)
    if enrolment.status == Enrolment.Status.WITHDRAWN:
        raise ChampionshipError(_("%(pair)s ya se ha retirado.") % {"pair": enrolment.name})
    was_entered = enrolment.status == Enrolment.Status.ENTERED
    enrolment.status = Enrolment.Status.WITHDRAWN
    enrolment.save(update_fields=["status"])
    kept.touch(enrolment.championship_id)
    championship = enrolment.championship
    if was_entered and championship.entries_closed_at is None:
        waiting = enrolment.sede.enrolments.filter(status=Enrolment.Status.WAITING).first()
        if waiting is not None:
            waiting.status = Enrolment.Status.ENTERED
            waiting.save(update_fields=["status"])
    phase = latest_phase_of(enrolment)
    if phase is not None and phase.knockout:
        _replace_in_bracket(enrolment, phase)
    elif phase is not None:
        _replace_in_group(enrolment, phase)
    return enrolment



def placed_in(phase: Phase) -> set[int]:
    """The enrolments a drawn phase holds (its groups, or its bracket)."""
    draw = phase.draw or {}
    if phase.knockout:
        return {k for k in draw.get("bracket", []) if k is not None}
    return {k for group in draw.get("groups", []) for k in group}



def latest_phase_of(enrolment: Enrolment) -> Phase | None:
    """The last drawn phase that holds the pair, or None."""
    if enrolment.phase_pair_id is None:
        return None
    for phase in (enrolment.championship.phases.exclude(drawn_at=None)
                  .order_by("-level", "-id")):
        if enrolment.pk in placed_in(phase):
            return phase
    return None



def next_reserve(enrolment: Enrolment, phase: Phase) -> Enrolment | None:
    """Who takes a withdrawn pair's place in ``phase``: the first pair not withdrawn and
    not already in the phase in the order it came from (its venue's heat at level 1, its
    group of the level before after that), or None."""
    championship = enrolment.championship
    order: list[Enrolment] = []
    if phase.level == 1:
        heat = qualified(championship).get(enrolment.sede_id)
        order = (heat.qualified + heat.reserves) if heat else []
    else:
        group = (PhaseGroup.objects.filter(
            phase__championship=championship, phase__level=phase.level - 1,
            competition__entries__pair_id=enrolment.phase_pair_id or 0)
            .select_related("competition").first())
        if group is not None and group.competition.status == Competition.Status.FINISHED:
            by_pair = {e.phase_pair_id: e for e in championship.enrolments.filter(
                phase_pair__isnull=False).select_related("sede")}
            pair_of = dict(group.competition.entries.values_list("index", "pair_id"))
            order = [by_pair[pair_of[i]] for i in final.order(group.competition)]
    placed = placed_in(phase)
    return next((e for e in order if e.pk not in placed
                 and e.status != Enrolment.Status.WITHDRAWN), None)



def _record_replacement(phase: Phase, out: Enrolment, into: Enrolment) -> None:
    draw = dict(phase.draw or {})
    if phase.knockout:
        draw["bracket"] = [into.pk if k == out.pk else k for k in draw["bracket"]]
    else:
        draw["groups"] = [[into.pk if k == out.pk else k for k in group]
                          for group in draw["groups"]]
    draw.setdefault("replaced", []).append({"out": out.pk, "in": into.pk})
    phase.draw = draw
    phase.save(update_fields=["draw"])



def _replace_in_group(enrolment: Enrolment, phase: Phase) -> None:
    entry = (Entry.objects.filter(pair_id=enrolment.phase_pair_id or 0,
                                  competition__phase_group__phase=phase)
             .select_related("competition").first())
    if entry is None or entry.competition.matches.played().exists():
        return  # its group has started: it stays, its matches are no-shows
    nxt = next_reserve(enrolment, phase)
    if nxt is None:
        return
    entry.pair = phase_pair(nxt)
    entry.save(update_fields=["pair"])
    _record_replacement(phase, enrolment, nxt)
    competitions.touch_pairs([entry.pair_id])



def _replace_in_bracket(enrolment: Enrolment, phase: Phase) -> None:
    entry = Entry.objects.filter(pair_id=enrolment.phase_pair_id or 0,
                                 competition__phase_group__phase=phase).first()
    if entry is None:
        return
    played = (Match.objects.filter(Q(first=entry) | Q(second=entry)).played()
              .select_related("competition", "tie").order_by("number").first())
    if played is not None:
        raise ChampionshipError(
            _("%(pair)s ya ha jugado en %(phase)s (%(game)s): una reserva no puede ocupar su "
              "sitio. Anota su incomparecencia en su partida.")
            % {"pair": enrolment.name, "phase": phase.name,
               "game": game_title(played.competition, played.tie, played.game)})
    nxt = next_reserve(enrolment, phase)
    if nxt is None:
        return  # no reserve left: its tie stays, the organiser records the no-show
    entry.pair = phase_pair(nxt)  # its ties and games, none played, are the reserve's
    entry.save(update_fields=["pair"])
    _record_replacement(phase, enrolment, nxt)
    competitions.touch_pairs([nxt.phase_pair_id or 0])
