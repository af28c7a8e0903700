"""A club's competition and what it is made of: its groups, its entries (the pairs, each
with its standings line) and its rounds.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from muscore.clubs.models import Club, Pair
from muscore.leagues import names


class Competition(models.Model):
    """A liguilla (one or two legs), groups + knockout, a ceros tournament or a knockout,
    with its options and its draw.

    `revision` goes up with every change to its matches: the ETag of the league's
    document and the key of its cached standings.
    """

    class Format(models.TextChoices):
        LIGUILLA = "liguilla", "liguilla"
        GROUPS = "groups", "groups + knockout"
        CEROS = "ceros", "a N ceros (one-day tournament)"
        #: A knockout alone (a championship's knockout phase): its ties and their games,
        #: its bracket's places in `draw` (entry indices, None for a bye).
        KNOCKOUT = "knockout", "knockout"

    class Status(models.TextChoices):
        DRAFT = "draft", "waiting for the draw"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        # A large import the worker is writing (muscore.leagues.imports): on no list, no
        # page, no result written to it by any other door until it is done.
        IMPORTING = "importing", "being imported"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.LIGUILLA)
    legs = models.PositiveSmallIntegerField(default=1)
    group_count = models.PositiveSmallIntegerField(default=0)
    # A ceros tournament's N: a pair is out after N lost matches (muscore.leagues.compute.ceros).
    ceros = models.PositiveSmallIntegerField(default=3)
    # Every match's table options, spelled out (muscore.rules.Rules.to_json()).
    rules = models.JSONField()
    points_win = models.IntegerField(default=2)
    points_loss = models.IntegerField(default=0)
    points_forfeit = models.IntegerField(default=0)
    # The public draw: entry indices in the order drawn; null until it is made.
    draw = models.JSONField(null=True, blank=True)
    draw_method = models.CharField(max_length=10, blank=True, default="")
    drawn_at = models.DateTimeField(null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    revision = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The organiser's night (issue 17): an archived competition is off every list but kept
    # for the record; the TV shows the competitions put on it (else the one being played).
    archived = models.BooleanField(default=False)
    on_tv = models.BooleanField(default=False)
    # An imported competition's document's fingerprint (its pairs and matches): the same
    # export imported again into the club it came from is refused as a copy.
    fingerprint = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # Whether its matches count in the club's ratings and leaders: another club's
    # competition imported for the record does not, unless the organiser says so.
    rated = models.BooleanField(default=True)
    # What the app made its name of (a championship's group or knockout game: the phase's
    # name, the group, round, tie and game, no language words), named in the reader's
    # language when shown (muscore.leagues.names); {} for a name as typed.
    made = models.JSONField(default=dict, blank=True)
    # What placed it, when something larger did (a championship's venue heat, phase group or
    # knockout): it is changed or deleted only through that (muscore.leagues.models.stage).
    # (A key without its constraint, its index built CONCURRENTLY: leagues 0029-0030.)
    stage = models.ForeignKey("leagues.Stage", on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="competitions", db_index=False,
                              db_constraint=False)
    # Once finished, its final order (entry indices, the winner first) as of its revision
    # ``order_revision``, kept by the result's write (muscore.leagues.results.final).
    final_order = models.JSONField(null=True, blank=True)
    order_revision = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-created_at", "id"]
        indexes = [
            # A stage's competitions (the others played side by side with one of them).
            models.Index(fields=["stage"], name="competition_stage"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """Its name for the reader: a name the app made, in the active language; a typed
        name as typed."""
        return names.title(self)

    @property
    def points(self) -> dict[str, int]:
        return {"win": self.points_win, "loss": self.points_loss, "forfeit": self.points_forfeit}


class Group(models.Model):
    """A group of a groups + knockout competition: A, B, C, D."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=2)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["competition", "order"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "order"], name="group_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} {self.name}"


class Entry(models.Model):
    """A pair in a competition. `index` is its place in the league document's `pairs`."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="entries"
    )
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="entries")
    index = models.PositiveSmallIntegerField()
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    # Its standings line over the league (or group) matches with a result, kept in step
    # with each match's stored figures in the same transaction (results.store), so the
    # standings read one row per pair whatever the number of matches.
    played = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    forfeits = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    juegos_for = models.IntegerField(default=0)
    juegos_against = models.IntegerField(default=0)
    tantos_for = models.IntegerField(default=0)
    tantos_against = models.IntegerField(default=0)

    class Meta:
        ordering = ["competition", "index"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["competition", "index"], name="entry_index_unique"),
            models.UniqueConstraint(fields=["competition", "pair"], name="entry_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.pair} in {self.competition}"


class Round(models.Model):
    """A round (jornada) of a liguilla or of a group, or a knockout stage.

    `stage` is "league" for a liguilla's or a group's round, else "quarterfinal",
    "semifinal" or "final" (the final's round also holds the third-place match).
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, default="league")
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, null=True, blank=True, related_name="rounds"
    )
    # The pair resting (exenta) this round, when the count is odd.
    bye = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    starts_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "number", "group__order"]

    def __str__(self) -> str:
        return f"{self.competition} round {self.number}"
