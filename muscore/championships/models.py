"""A championship's storage: the championship, its regions and venues, entries and phases.

A venue (sede) is a club of its own (its organisers are the club's), and its heat is one of
that club's competitions; a phase's groups, or its knockout, are competitions of the
championship's club.
Results therefore go through :mod:`muscore.leagues.results` like any league match.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from muscore.clubs.models import NAME_MAX, Club, Pair
from muscore.leagues.models import Competition, Match, Stage


class Championship(models.Model):
    """A campeonato: its organisers (the club's), table rules, dates and the seats the
    first phase takes from the heats (the quotas' ``seats`` and ``min_per_sede``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="championships")
    name = models.CharField(max_length=NAME_MAX)
    rules = models.JSONField()
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    entries_close_at = models.DateTimeField(null=True, blank=True)
    entries_closed_at = models.DateTimeField(null=True, blank=True)
    seats = models.PositiveIntegerField(default=16)
    min_per_sede = models.PositiveIntegerField(default=1)
    #: compute_quotas' answer with its arithmetic, stored when the entries close.
    quotas = models.JSONField(null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(default=45)
    #: Up by one with every change the championship's services make (entries, venues,
    #: quotas, phases, draws): with its competitions' revisions it is
    #: the stamp its pages and API document are kept by (muscore.championships.kept).
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Region(models.Model):
    """A province or area grouping venues; the draw keeps its pairs apart after venues'."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="regions")
    name = models.CharField(max_length=NAME_MAX)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class Sede(models.Model):
    """A venue: a bar, a sociedad, a town. Its club's organisers run its heat."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                      related_name="sedes")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sedes")
    region = models.ForeignKey(Region, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="sedes")
    name = models.CharField(max_length=NAME_MAX)
    #: The most pairs it takes; more go on its waiting list (None: no limit).
    capacity = models.PositiveIntegerField(null=True, blank=True)
    heat = models.OneToOneField(Competition, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="sede")
    quota = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


#: Enrolment.Status values whose entry holds its name at its venue: confirmed (a seat, the
#: waiting list) or withdrawn; not pending nor rejected.
NAME_HELD = ("entered", "waiting", "withdrawn")


class Enrolment(models.Model):
    """A pair entered at a venue (the contact is for the organisers' eyes only)."""

    class Status(models.TextChoices):
        ENTERED = "entered", "entered"
        WAITING = "waiting", "waiting list"
        WITHDRAWN = "withdrawn", "withdrawn"
        #: From the public form, not confirmed yet by the venue's organiser or the pair's
        #: link: it holds no seat, no place on the waiting list and no player.
        PENDING = "pending", "waiting for its confirmation"
        #: Refused by the venue's organiser (a false or doubled entry).
        REJECTED = "rejected", "rejected"

    #: The statuses whose entry holds its name at its venue (one pair of a name there).
    NAME_HELD = NAME_HELD

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="enrolments")
    sede = models.ForeignKey(Sede, on_delete=models.CASCADE, related_name="enrolments")
    name = models.CharField(max_length=NAME_MAX)
    player_a = models.CharField(max_length=NAME_MAX)
    player_b = models.CharField(max_length=NAME_MAX)
    #: The players' names folded (case, accents, spaces): one person, one pair.
    key_a = models.CharField(max_length=NAME_MAX, db_index=True)
    key_b = models.CharField(max_length=NAME_MAX, db_index=True)
    contact = models.CharField(max_length=200, blank=True, default="")
    paid = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    entered_at = models.DateTimeField(auto_now_add=True)
    #: When it was confirmed (by its venue's organiser, or the pair's link); None for a
    #: pending or rejected entry, and for those entered before confirmations.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    #: Its pair in the venue's club (the heat) and in the championship's club (the phases).
    heat_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+")
    phase_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["id"]
        constraints = [
            # Only an entry that holds its name: a pending or rejected one from the public
            # form does not (muscore.championships.entries.name_taken).
            models.UniqueConstraint(Lower("name"), "sede", name="enrolment_name_held_per_sede",
                                    condition=models.Q(status__in=NAME_HELD)),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> list[str]:
        """The two players' names as entered."""
        return [self.player_a, self.player_b]


class Phase(models.Model):
    """A phase after the heats: groups drawn from the qualified pairs, each a liguilla,
    the best ``advance`` of each going on; ``level`` 1 takes the heats' qualified (of its
    region's venues when it has one), level n the pairs going on from level n - 1."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE,
                                     related_name="phases")
    name = models.CharField(max_length=NAME_MAX)
    level = models.PositiveSmallIntegerField(default=1)
    region = models.ForeignKey(Region, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="phases")
    advance = models.PositiveSmallIntegerField(default=2)
    seed = models.CharField(max_length=100, blank=True, default="")
    #: The draw as made: the pairs in the order given (enrolment ids with their seed rank)
    #: and the groups (enrolment ids), so anyone can make it again.
    draw = models.JSONField(null=True, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    #: The last phase may be a knockout instead of groups: each tie one vaca or the best
    #: of 3 (``best_of``), with a match for third place if asked.
    knockout = models.BooleanField(default=False)
    best_of = models.PositiveSmallIntegerField(default=1)
    third_place = models.BooleanField(default=False)
    #: When the organiser paused the round clock (None: running or not started): the hall
    #: shows the time left frozen, and going on moves each round's start by the pause.
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    #: Its stage in the league's rows: what holds its groups or knockout, and what it was
    #: drawn from (muscore.championships.stages writes it).
    stage = models.ForeignKey(Stage, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="phases", db_index=False, db_constraint=False)

    class Meta:
        ordering = ["level", "id"]

    def __str__(self) -> str:
        return self.name


class PhaseGroup(models.Model):
    """One group of a phase, a liguilla of the championship's club; a knockout phase's one
    competition, its ties and their games (muscore.leagues.models.knockout)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="groups")
    order = models.PositiveSmallIntegerField()
    competition = models.OneToOneField(Competition, on_delete=models.CASCADE,
                                       related_name="phase_group")

    class Meta:
        ordering = ["order"]

    def __str__(self) -> str:
        return f"{self.phase} {self.order + 1}"


class OldGame(models.Model):
    """A knockout game that was a competition of its own until championships 0011 (its
    id, in the addresses a club shared or bookmarked then) and the match it is now, in its
    phase's one knockout competition: the old addresses lead there (muscore.championships
    .old_games)."""

    competition_id = models.PositiveIntegerField(primary_key=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"{self.competition_id} -> {self.match_id}"
