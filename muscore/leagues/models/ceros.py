"""The one-day tournament "a N ceros" (muscore.leagues.ceros_rounds): the next round as
drawn, waiting to be published, and the log of its rounds.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from muscore.leagues.models.competition import Competition, Entry


class CerosDraft(models.Model):
    """The next round of a ceros tournament as drawn, waiting for an organiser to check and
    publish it (then it becomes an ordinary Round with its Matches, and this row goes).

    `tables` lists [table number, first entry pk, second entry pk]; `seed` is the draw's.
    """

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="ceros_draft"
    )
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=32)
    tables = models.JSONField()
    bye = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )

    def __str__(self) -> str:
        return f"draft of round {self.number} of {self.competition}"


class CerosEvent(models.Model):
    """The log of a ceros tournament's rounds: each draw, re-draw, publication and
    discarded draft, who did it, when, and the tables drawn ([table, first, second] entry
    indices) with the pair resting."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="ceros_events"
    )
    number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=10)
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    tables = models.JSONField(default=list)
    bye = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["competition", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of round {self.number} of {self.competition}"
