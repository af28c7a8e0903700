"""What a league result changes in a championship, inside the result's own write
(:data:`muscore.leagues.signals.result_changed`), so that reading a page never writes:

- a knockout game's result makes the games the bracket now waits for (the tie's next
  game, the next round's tie, the third place);
- a venue's heat keeps its final order for its revision (the qualified and reserves
  that the championship's pages read for 250 venues at once).

And what the championship answers the league's owner of results
(:mod:`muscore.leagues.consequences`, registered by the app): what depends on a match's
result (:func:`dependents`), what placed a competition (:func:`holders`).
"""

from __future__ import annotations

from django.db.models import Q

from muscore.championships import knockout
from muscore.championships.models import Championship, Phase, PhaseGroup, Sede
from muscore.championships.services import heat_order
from muscore.clubs.models import Pair
from muscore.clubs.permissions import Actor
from muscore.leagues import names
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Competition, Entry, Match
from muscore.leagues.results import consequences


def on_result(competition: Competition, by: Actor | None = None) -> None:
    """The receiver of ``result_changed``: one query for a competition that is not a
    championship's; a KnockoutError becomes the league's CompetitionError (the result is
    refused whole, with the reason). A person's change under what was drawn from it (a
    phase, a later game) was refused before (the league asks :func:`dependents`)."""
    row = (Competition.objects.filter(pk=competition.pk)
           .values_list("phase_group__phase_id", "phase_group__phase__knockout", "sede__id")
           .first())
    if row is None:
        return
    phase_id, is_knockout, sede_id = row
    if phase_id is not None and is_knockout:  # a group's result moves nothing else here
        phase = Phase.objects.select_related("championship__club").get(pk=phase_id)
        try:
            knockout.sync(phase, by)
        except knockout.KnockoutError as error:
            raise CompetitionError(str(error)) from None
    if sede_id is not None and competition.status == Competition.Status.FINISHED:
        keep_heat_order(sede_id, competition)


def keep_heat_order(sede_id: int, heat: Competition) -> None:
    """Store a finished heat's final order on its venue, for the heat's revision."""
    Sede.objects.filter(pk=sede_id).update(final_order=heat_order(heat),
                                           order_revision=heat.revision)


def _phases_drawn_from(competition_id: int) -> list[str]:
    """The drawn phases that took their pairs from this competition: level 1 from a venue's
    heat (the phases of its region, or of none), level n + 1 from a group of level n."""
    drawn = Phase.objects.exclude(drawn_at=None)
    sede = Sede.objects.filter(heat_id=competition_id).values_list(
        "championship_id", "region_id").first()
    if sede is not None:
        championship_id, region_id = sede
        drawn = drawn.filter(championship_id=championship_id, level=1)
    else:
        group = (PhaseGroup.objects.filter(competition_id=competition_id, phase__knockout=False)
                 .values_list("phase__championship_id", "phase__level", "phase__region_id")
                 .first())
        if group is None:
            return []
        championship_id, level, region_id = group
        drawn = drawn.filter(championship_id=championship_id, level=level + 1)
    if region_id is not None:
        drawn = drawn.filter(Q(region_id=None) | Q(region_id=region_id))
    return list(drawn.order_by("level", "id").values_list("name", flat=True))


def dependents(match: Match) -> list[str]:
    """What a championship drew or played from ``match``'s result: the phases drawn from
    its heat or group; in a knockout, the tie's deciding game and the later ties of its
    pairs, once started (a game not started yet is made again by :func:`knockout.sync`)."""
    found = _phases_drawn_from(match.competition_id)
    game = (PhaseGroup.objects.filter(competition_id=match.competition_id, phase__knockout=True)
            .values_list("phase_id", "round", "order", "game").first())
    if game is None:
        return found
    phase_id, round_, order, number = game
    pairs = list(Entry.objects.filter(pk__in=[match.first_id, match.second_id])
                 .values_list("pair_id", flat=True))
    # Games 1 and 2 of a best of 3 are made together: the third is drawn from both.
    later = (PhaseGroup.objects.filter(phase_id=phase_id)
             .filter(Q(round__gt=round_) | Q(round=round_, order=order, game__gt=max(number, 2)))
             .filter(competition__entries__pair_id__in=pairs).values("competition_id"))
    played = consequences.started(Match.objects.filter(competition_id__in=later))
    return found + [names.title_of(name, made) for name, made in played.order_by(
        "competition_id").values_list("competition__name", "competition__made").distinct()]


def holders(competition: Competition) -> list[consequences.Holder]:
    """The championship's phase a competition is a group or game of (a knockout's game
    says so), or the venue whose heat it is: it is deleted or changed only through the
    championship."""
    phase = (PhaseGroup.objects.filter(competition_id=competition.pk)
             .values_list("phase__championship__name", "phase__name", "phase__knockout")
             .first())
    if phase is not None:
        return [consequences.Holder(*phase)]
    return [consequences.Holder(name, sede) for name, sede in Sede.objects.filter(
        heat_id=competition.pk).values_list("championship__name", "name")]


def siblings(competition: Competition) -> list[int]:
    """The competitions whose rounds are played with this one's: the other groups of its
    phase (round n with round n), or the games of its knockout round with the same number
    (a tie's game 2 with every other tie's game 2)."""
    group = (PhaseGroup.objects.filter(competition_id=competition.pk)
             .values_list("phase_id", "phase__knockout", "round", "game").first())
    if group is None:
        return []
    phase_id, is_knockout, round_, game = group
    alongside = PhaseGroup.objects.filter(phase_id=phase_id)
    if is_knockout:
        alongside = alongside.filter(round=round_, game=game)
    return list(alongside.values_list("competition_id", flat=True))


def pair_holders(pair: Pair) -> list[str]:
    """The championships whose draw placed ``pair`` (an entry's pair in its venue's heat or
    in its phases): the club's doors leave it as its entry made it (muscore.clubs.holders)."""
    return list(Championship.objects.filter(
        Q(enrolments__heat_pair=pair) | Q(enrolments__phase_pair=pair)).order_by("id")
        .values_list("name", flat=True).distinct())
