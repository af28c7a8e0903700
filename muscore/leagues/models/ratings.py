"""The players' ratings (muscore.leagues.rating_store): each match's place in its club's
rating order, each player's rating after each match and after the last, and the clubs
whose ratings wait for the worker.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from muscore.clubs.models import Club
from muscore.leagues.models.match import Match


class RatingMatch(models.Model):
    """A match's place in its club's rating order: `arrived_at`, the time its result first
    arrived (kept when the result is corrected or cleared), then the match's id.

    Every competition of the club is rated as one history, in that order (see
    rating_store for why). A no-show keeps its place here but rates nobody.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="rating_place")
    arrived_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "arrived_at", "match"]
        indexes = [models.Index(fields=["club", "arrived_at", "match"])]

    def __str__(self) -> str:
        return f"{self.match} rated at {self.arrived_at}"


class RatingPoint(models.Model):
    """A player's rating after one match they sat in: openskill's mu and sigma, the nivel
    (mu - 3 sigma) and how many matches they had been rated for by then. The place
    (`arrived_at`, `match`) is the match's RatingMatch's, copied so that a player's
    history and the club's tail read in order from one index."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="rating_points")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_points")
    arrived_at = models.DateTimeField()
    side = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    mu = models.FloatField()
    sigma = models.FloatField()
    nivel = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "arrived_at", "match"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_point_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "arrived_at", "match"]),
            models.Index(fields=["player", "arrived_at", "match"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.match}: {self.nivel:.1f}"


class PlayerRating(models.Model):
    """A player's rating after their last rated match (the last RatingPoint), so that the
    club's ranking and the win probabilities read one row per player."""

    player = models.OneToOneField(
        "clubs.Player", on_delete=models.CASCADE, primary_key=True, related_name="rating")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    nivel = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["club", "-nivel", "player"]
        indexes = [models.Index(fields=["club", "-nivel"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.nivel:.1f}"


class RatingBacklog(models.Model):
    """A club whose ratings wait to be brought up to date outside the request: a
    correction of an early match re-rates the whole history after it (seconds on a large
    club), so the write only records from where (the earliest place still to re-rate)
    and `manage.py rating_worker` catches up (muscore.leagues.rating_store). `version`
    goes up with every write that joins the backlog, so the worker knows whether what it
    re-rated is still all there is to do."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    since_at = models.DateTimeField()
    since_match = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    queued_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"ratings of {self.club_id} from match {self.since_match}"
