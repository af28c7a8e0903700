"""A club and its people: organisers (Django users with a membership), players and pairs.

Storage only. Who may change what lives in `muscore.clubs.permissions`; the pages in
`muscore.clubs.views`. A league's competitions (muscore.leagues) point at these models:
a competition belongs to a `Club`, its entries are `Pair`s, a substitute is a `Player`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

NAME_MAX = 60


class Club(models.Model):
    """A club, peña or bar that runs leagues. Its page lives at /club/<slug>/."""

    name = models.CharField(max_length=NAME_MAX)
    slug = models.SlugField(max_length=NAME_MAX, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user who organises a club: only organisers change the club's records.

    `invited_by` is the organiser who invited them (null for whoever created the club).
    `created_account` says this invitation made the user's account: with no email, its
    inviter is the one who can give them a link to set a new password (never for an
    account that existed before, which someone else may own).
    `accepted` is false while an invitation of an existing account waits for that
    account's answer: an account belongs to whoever it is, and nobody makes it organise a
    club it has not agreed to (a pending membership gives no right; muscore.clubs.permissions).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invited_memberships",
    )
    created_account = models.BooleanField(default=False)
    accepted = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} organises {self.club}"


class Player(models.Model):
    """A person who plays in a club's leagues (a pair's member, or a substitute)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=NAME_MAX)
    created_at = models.DateTimeField(auto_now_add=True)
    # Retired (issue 17): off the club's lists and the draw of new competitions, kept in
    # every past result, standings and rating history; an organiser can bring him back.
    retired = models.BooleanField(default=False)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            # Two "Juan" in one club could not be told apart in a standings table.
            models.UniqueConstraint(Lower("name"), "club", name="player_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    """A pareja: two players (three in a 6-player league), in seat order.

    The order of `PairMember.position` is the order the pair sits at a table
    (its first player at seat 0 or 1, the next two seats on).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="pairs")
    name = models.CharField(max_length=NAME_MAX)
    players = models.ManyToManyField(Player, through="PairMember", related_name="pairs")
    created_at = models.DateTimeField(auto_now_add=True)
    # Retired, as a player is: off the lists and new draws, kept in what was played.
    retired = models.BooleanField(default=False)
    # What placed it from outside the club (a championship's draw made it for an entry),
    # by name: its name and players are the entry's, not the club's (muscore.clubs.holders).
    placed_by = models.CharField(max_length=NAME_MAX, blank=True, default="")

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="pair_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    def player_names(self) -> list[str]:
        """The players' names in seat order (uses a prefetched `members` when there is one)."""
        members = sorted(self.members.all(), key=lambda m: m.position)
        return [m.player.name for m in members]


class PairMember(models.Model):
    """One player of a pair, at `position` 0, 1 (, 2)."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pair", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "position"], name="pair_member_position"),
            models.UniqueConstraint(fields=["pair", "player"], name="pair_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.pair}"


class ClubChange(models.Model):
    """The audit of a club's own records: a club renamed, a player or pair added or changed,
    an organiser invited. Nothing entered is lost: the record before and after, who, when."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    what = models.CharField(max_length=20)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["club", "at", "id"]
        indexes = [models.Index(fields=["club", "at"])]

    def __str__(self) -> str:
        return f"{self.what} in {self.club} at {self.at}"
