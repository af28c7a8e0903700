"""Which competitions are a championship's parts, and the one entry a club's lists show
for them (issue 36): a venue's heat (``Sede.heat``) and each phase's groups or games
(``PhaseGroup.competition``) are competitions of a club, listed on the club's pages as
their championship, once, with its state; its phases and games are on its own pages.

:func:`championship_ids` says which championship each part belongs to; which
competitions are parts the league knows from its stages (muscore.championships.stages
writes them), and what they are part of it asks :func:`wholes` through
:mod:`muscore.leagues.part_of` (registered by the app), so it never imports the
championships.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.urls import reverse
from django.utils.translation import gettext as _

from muscore.championships import services
from muscore.championships.models import Championship, Phase, PhaseGroup, Sede
from muscore.leagues.part_of import Whole


def championship_ids(competition_ids: Collection[int]) -> dict[int, int]:
    """Of ``competition_ids``, each one that is a championship's part, with the
    championship's id: a venue's heat, a phase's group or knockout game (two queries)."""
    found = dict(Sede.objects.filter(heat_id__in=competition_ids).values_list(
        "heat_id", "championship_id"))
    found.update(PhaseGroup.objects.filter(competition_id__in=competition_ids).values_list(
        "competition_id", "phase__championship_id"))
    return found


def whole_key(championship_id: int) -> str:
    """The championship as one of the wholes a club's lists show (``Whole.key``)."""
    return f"championship-{championship_id}"


def playing_phases(championship_ids: Iterable[int]) -> dict[int, str]:
    """Each championship's phase being played: the name of its latest drawn one (none
    while the heats are its only games). One query."""
    found: dict[int, str] = {}
    for championship_id, name in (Phase.objects.filter(
            championship_id__in=list(championship_ids), drawn_at__isnull=False)
            .order_by("level", "id").values_list("championship_id", "name")):
        found[championship_id] = name  # the last one wins: the highest level, the newest
    return found


def stage(championship: Championship, *, open: bool, champion: str, phase: str) -> str:
    """A championship's state in a few words: its entries open, its venues' heats, the
    phase in play, or its champion."""
    if champion:
        return _("campeones: %(name)s") % {"name": champion}
    if open:
        return _("inscripciones abiertas")
    if phase:
        return _("en juego: %(phase)s") % {"phase": phase}
    return _("fase previa en las sedes")


def wholes(competition_ids: Collection[int]) -> dict[int, Whole]:
    """The answer to the league's "what are these competitions part of?"
    (:mod:`muscore.leagues.part_of`): each part's championship, with its page and state."""
    owners = championship_ids(competition_ids)
    if not owners:
        return {}
    championships = Championship.objects.in_bulk(set(owners.values()))
    phases = playing_phases(championships)
    made: dict[int, Whole] = {}
    for pk, championship in championships.items():
        champion = services.champion(championship) if pk in phases else None
        made[pk] = Whole(
            key=whole_key(pk), name=championship.name,
            url=reverse("championships:detail", args=[pk]),
            note=stage(championship, open=services.entries_open(championship),
                       champion=champion.name if champion else "", phase=phases.get(pk, "")))
    return {competition: made[owner] for competition, owner in owners.items()}


def club_sedes(club_id: int, championships: list[int]) -> dict[int, list[Sede]]:
    """The venues ``club_id`` hosts in each of ``championships`` (with their heats): a bar
    sees its own heat under the championship's name on its pages. One query."""
    found: dict[int, list[Sede]] = {}
    for sede in (Sede.objects.filter(club_id=club_id, championship_id__in=championships)
                 .select_related("heat__club").order_by("id")):
        found.setdefault(sede.championship_id, []).append(sede)
    return found
