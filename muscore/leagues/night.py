"""The organiser's night: one look at every competition of the club still on the lists
(tables in play, results waiting for the other pair, disputes, matches of the current round
nobody sat at yet: the no-shows to mark), a championship's heats, groups and games once
under their championship (`grouped`), and the organiser's few acts on a competition:
put it on the TV, archive it (off every list, kept for the record), delete one with no
result yet.

Counted by the database, a fixed number of queries whatever the number of competitions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from muscore.clubs.models import Club
from muscore.clubs.permissions import Actor, require_organiser
from muscore.leagues import part_of
from muscore.leagues.changes import CompetitionError, bump
from muscore.leagues.models import Competition, Match, ResultClaim, Tie, unplayed_q
from muscore.leagues.results import consequences


@dataclass
class CompetitionNight:
    """One competition's counts for the night, and what the organiser does next."""

    competition: Competition
    in_play: int
    waiting: int
    disputed: int
    to_mark: int
    left: int
    round: int | None

    @property
    def next_step(self) -> str:
        """The next thing to do, in words."""
        if self.competition.status == Competition.Status.DRAFT:
            return _("Hacer el sorteo.")
        if self.disputed:
            return _("Decidir los resultados en disputa.")
        if self.to_mark:
            return _("Anotar los resultados (o las incomparecencias) de la jornada %(n)s.") % {
                "n": self.round}
        if self.in_play or self.waiting:
            return _("Esperar a las mesas en juego y a las confirmaciones.")
        if self.left:
            return _("Jugar la jornada %(n)s.") % {"n": self.round}
        return _("Nada: la competición está terminada.")


def listed(club: Club) -> Any:
    """The club's competitions on the lists (the archived ones left off)."""
    return Competition.objects.filter(club=club, archived=False).exclude(
        status=Competition.Status.IMPORTING)


def night(club: Club) -> list[CompetitionNight]:
    """Every listed competition's counts, the ones being played first (three queries)."""
    competitions = list(listed(club).select_related("club").order_by("status", "-created_at"))
    ids = [c.pk for c in competitions]
    # The first round with a match left, per competition: the one the night is playing.
    current: dict[int, int] = {}
    for competition_id, number in (
        Match.objects.filter(competition_id__in=ids).unplayed().exclude(first=None)
        .exclude(second=None).order_by("competition_id", "number")
        .values_list("competition_id", "round__number")
    ):
        current.setdefault(competition_id, number)
    left = unplayed_q() & ~Q(first=None) & ~Q(second=None)
    matches = {
        row["competition_id"]: row for row in
        Match.objects.filter(competition_id__in=ids).order_by().values("competition_id")
        .annotate(in_play=Count("id", filter=left & ~Q(table=None)),
                  left=Count("id", filter=left))
    }
    # Matches of each current round with nobody at a table and no claim: to be marked
    # (the result on paper, or who did not come).
    unmarked: dict[int, int] = {}
    for competition_id, number in current.items():
        unmarked[competition_id] = Match.objects.filter(
            left, competition_id=competition_id, round__number=number, table=None,
        ).exclude(claims__status__in=[ResultClaim.Status.PENDING,
                                       ResultClaim.Status.DISPUTED]).count()
    claims = {
        row["competition_id"]: row for row in
        ResultClaim.objects.filter(competition_id__in=ids).order_by().values("competition_id")
        .annotate(waiting=Count("id", filter=Q(status=ResultClaim.Status.PENDING)),
                  disputed=Count("id", filter=Q(status=ResultClaim.Status.DISPUTED)))
    }
    out = []
    for competition in competitions:
        m: Any = matches.get(competition.pk, {})
        c: Any = claims.get(competition.pk, {})
        out.append(CompetitionNight(
            competition, in_play=m.get("in_play", 0), waiting=c.get("waiting", 0),
            disputed=c.get("disputed", 0), to_mark=unmarked.get(competition.pk, 0),
            left=m.get("left", 0), round=current.get(competition.pk),
        ))
    return out


@dataclass
class WholeNight:
    """A championship (what a club's competitions are part of: muscore.leagues.part_of)
    on the night, once: its parts' counts summed, and the parts with something tonight
    (tables in play, results to confirm, to decide or to mark, the one on the TV)."""

    whole: part_of.Whole
    parts: list[CompetitionNight]

    def total(self, key: str) -> int:
        """The sum of one count (``in_play``, ``waiting``, ``disputed``, ``to_mark``)."""
        return sum(getattr(part, key) for part in self.parts)

    @property
    def in_play(self) -> int:
        return self.total("in_play")

    @property
    def waiting(self) -> int:
        return self.total("waiting")

    @property
    def disputed(self) -> int:
        return self.total("disputed")

    @property
    def to_mark(self) -> int:
        return self.total("to_mark")

    @property
    def tonight(self) -> list[CompetitionNight]:
        """The parts with something for the organiser tonight."""
        return [p for p in self.parts if p.in_play or p.waiting or p.disputed or p.to_mark
                or p.competition.on_tv]

    @property
    def quiet(self) -> int:
        """How many of its parts have nothing tonight (not listed one by one)."""
        return len(self.parts) - len(self.tonight)


def grouped(rows: list[CompetitionNight]) -> tuple[list[CompetitionNight], list[WholeNight]]:
    """The club's own competitions, and each championship its other rows are parts of,
    once, in the order of its first part (one question to the apps above: part_of)."""
    wholes = part_of.wholes([row.competition.pk for row in rows])
    own: list[CompetitionNight] = []
    found: dict[str, WholeNight] = {}
    for row in rows:
        whole = wholes.get(row.competition.pk)
        if whole is None:
            own.append(row)
        else:
            found.setdefault(whole.key, WholeNight(whole, [])).parts.append(row)
    return own, list(found.values())


def set_on_tv(competition: Competition, on: bool, *, by: Actor) -> None:
    """Put a competition on the club's TV (or take it off)."""
    require_organiser(by, competition.club)
    if on and competition.archived:
        raise CompetitionError(_("Una competición archivada no sale en la tele."))
    Competition.objects.filter(pk=competition.pk).update(on_tv=on)
    bump(competition)  # the screen's ETag follows the revision
    competition.on_tv = on


def set_archived(competition: Competition, archived: bool, *, by: Actor) -> None:
    """Archive a competition (off every list and the TV, kept for the record) or bring it
    back."""
    require_organiser(by, competition.club)
    Competition.objects.filter(pk=competition.pk).update(
        archived=archived, on_tv=False if archived else competition.on_tv)
    bump(competition)
    competition.archived = archived


def delete_competition(competition: Competition, *, by: Actor) -> None:
    """Delete a competition with no result yet (a mistake, a test); one with a result is
    archived instead, never deleted, so the record stays. One a championship placed (a
    phase's group or game, a venue's heat: `consequences.holders`) is refused: the draw
    that placed it would list a group the phase no longer has."""
    require_organiser(by, competition.club)
    with transaction.atomic():
        locked = Competition.objects.select_for_update().get(pk=competition.pk)
        placed = consequences.holders(locked)
        if placed:  # a championship's draw placed it: only its own reset moves it
            raise CompetitionError(_(
                "%(name)s es parte de %(holders)s: no se borra desde aquí, lo hace su "
                "campeonato.") % {"name": locked.title,
                                  "holders": consequences.named([str(h) for h in placed])})
        played = Match.objects.filter(competition=locked).played().exists()
        claimed = ResultClaim.objects.filter(competition=locked).exists()
        if played or claimed:
            raise CompetitionError(_(
                "%(name)s ya tiene resultados: no se borra, se archiva (sale de las listas y "
                "queda guardada).") % {"name": locked.title})
        # Matches, rounds and a knockout's ties (a bye's pair is in its tie from the draw)
        # point at the entries with PROTECT (a pair with results is never deleted under
        # them): none has a result here, so they go first, in this one transaction.
        Match.objects.filter(competition=locked).delete()
        Tie.objects.filter(competition=locked).delete()
        locked.rounds.all().delete()
        locked.delete()
