"""Results both pairs agree on (muscore.leagues.confirmations): each pair's link to a
match, the result a pair claims from it, and the log of each claim.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from muscore.leagues.compute.document import Result
from muscore.leagues.models.competition import Competition, Entry
from muscore.leagues.models.match import Match
from muscore.leagues.models.result import ResultRow


def new_side_key() -> str:
    # 16 random bytes = 128 bits, as the table's edit link (muscore.tables.models).
    return secrets.token_urlsafe(16)


class SideKey(models.Model):
    """The secret of one pair's link to a match (side 0: `first`, 1: `second`).

    From it the pair enters the match's result, or confirms or disputes the other
    pair's; it is made the first time an organiser is shown the match's links.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="side_keys")
    side = models.PositiveSmallIntegerField()
    # The pair it was made for: a knockout game's pairs can change before it is played,
    # and a link handed to a pair no longer in the match opens nothing.
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64, default=new_side_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="side_key_unique"),
        ]

    def __str__(self) -> str:
        return f"side {self.side} of {self.match}"


class ResultClaim(models.Model):
    """A result entered by one pair from its link: pending until the other pair confirms
    it, an organiser accepts it, or 24 hours pass without a dispute.

    Open claims (pending, disputed) never count in the standings: the match's figures are
    written only when the claim is confirmed or accepted (results.store).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for the other pair"
        CONFIRMED = "confirmed", "confirmed by the other pair"
        ACCEPTED = "accepted", "accepted by an organiser"
        AUTO_ACCEPTED = "auto", "accepted after 24 hours"
        DISPUTED = "disputed", "disputed"
        REJECTED = "rejected", "rejected by an organiser"
        WITHDRAWN = "withdrawn", "withdrawn by its pair"
        SUPERSEDED = "superseded", "the match got its result another way"

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="claims"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="claims")
    side = models.PositiveSmallIntegerField()
    # The match's two entries when it was claimed (a knockout game can change pairs).
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    # The result it claims: the very row the match holds once it is confirmed or accepted.
    # Null only in the schema (a key added to a table with rows, as Match.result): every
    # claim has its row.
    result = models.ForeignKey(ResultRow, on_delete=models.RESTRICT, null=True, blank=True,
                               related_name="+", db_index=False, db_constraint=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    claimed_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    note = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["competition", "claimed_at", "id"]
        constraints = [
            # One open claim per match at a time, whatever two phones do at once.
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(status__in=["pending", "disputed"]),
                name="claim_open_unique",
            ),
        ]
        indexes = [models.Index(fields=["competition", "status", "claimed_at"])]

    def __str__(self) -> str:
        return f"claim {self.result_id} on {self.match}"

    @property
    def claimed(self) -> Result:
        """The result it claims, as a value."""
        assert self.result is not None, "every claim has its row"
        return self.result.value()

    @property
    def open(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.DISPUTED)


class ClaimEvent(models.Model):
    """The log of a claim: who entered it, confirmed, disputed, withdrew it, and the
    organiser's decision with its note. `side` names a pair acting from its link, `by`
    an organiser; neither for the acceptance after 24 hours."""

    claim = models.ForeignKey(ResultClaim, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    action = models.CharField(max_length=12)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    note = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["claim", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of {self.claim}"
