"""The hall's round clock of a phase: started, paused and reset by the championship's
organisers (the buttons on the championship's page, the phase's page and the hall's TV).

A round's clock is its ``Round.starts_at`` (the league's own field, which the league's
round page sets too) plus the championship's minutes per match. A pause is the phase's
``clock_paused_at``: the hall shows the time left as of the pause, and going on moves
every current round's start by the pause's length, so the time left is what it was.
Each press tells the championship's live screens (muscore.bus): its halls' clocks move
at once where they hear by push, not at the stream's next safety poll.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from muscore import bus
from muscore.championships.models import Phase
from muscore.clubs.permissions import Actor, require_organiser
from muscore.leagues import competitions
from muscore.leagues.models import Competition, Round


def _current_rounds(phase: Phase) -> list[tuple[Competition, Round]]:
    """Each group's current round (its first round with a match to play); a knockout's
    rounds of the games it waits for (each tie's round and game number its own)."""
    found = []
    for group in phase.groups.select_related("competition__club"):
        rounds: dict[int, Round] = {}
        for match in (group.competition.matches.unplayed().exclude(first=None)
                      .exclude(second=None).select_related("round").order_by("number")):
            rounds.setdefault(match.round_id, match.round)
            if not phase.knockout:
                break
        found += [(group.competition, r) for r in rounds.values()]
    return found


@transaction.atomic
def start(phase: Phase, *, by: Actor, now: datetime | None = None) -> int:
    """Start the clock of each group's current round from now; a paused clock goes on
    where it stopped (each started round's start moved by the pause). Returns how many
    rounds changed."""
    require_organiser(by, phase.championship.club)
    now = now or timezone.now()
    paused = phase.clock_paused_at
    changed = 0
    for competition, round_ in _current_rounds(phase):
        when = now
        if paused is not None and round_.starts_at is not None:
            when = round_.starts_at + (now - paused)
        changed += competitions.schedule_round(competition, round_.number, when,
                                               by=by)
    Phase.objects.filter(pk=phase.pk).update(clock_paused_at=None)
    phase.clock_paused_at = None
    bus.publish(f"championship:{phase.championship_id}")
    return changed


@transaction.atomic
def pause(phase: Phase, *, by: Actor, now: datetime | None = None) -> bool:
    """Stop the clock where it is (nothing to pause when it is not running)."""
    require_organiser(by, phase.championship.club)
    if phase.clock_paused_at is not None or not any(
            r.starts_at for _c, r in _current_rounds(phase)):
        return False
    phase.clock_paused_at = now or timezone.now()
    Phase.objects.filter(pk=phase.pk).update(clock_paused_at=phase.clock_paused_at)
    bus.publish(f"championship:{phase.championship_id}")
    return True


@transaction.atomic
def reset(phase: Phase, *, by: Actor) -> int:
    """The clock back to not started: each current round's start cleared, no pause."""
    require_organiser(by, phase.championship.club)
    changed = 0
    for competition, round_ in _current_rounds(phase):
        changed += competitions.schedule_round(competition, round_.number, None,
                                               by=by)
    Phase.objects.filter(pk=phase.pk).update(clock_paused_at=None)
    phase.clock_paused_at = None
    bus.publish(f"championship:{phase.championship_id}")
    return changed
