"""What the hands say (muscore.leagues.stats_store): each side's counts from the hands of
a match's vaca, for its pair and for each player who sat.
"""

from __future__ import annotations

from django.db import models

from muscore.clubs.models import Club, Pair
from muscore.leagues.models.competition import Entry
from muscore.leagues.models.match import Match


class HandCounts(models.Model):
    """One side's counts from the hands of a match's vaca (muscore.leagues.compute.handstats.Counts,
    the same names): stored when the table's result arrives, never replayed on a page view."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    side = models.PositiveSmallIntegerField()
    hands = models.PositiveIntegerField(default=0)
    juegos = models.PositiveIntegerField(default=0)
    juegos_ordago = models.PositiveIntegerField(default=0)
    grande = models.PositiveIntegerField(default=0)
    chica = models.PositiveIntegerField(default=0)
    pares = models.PositiveIntegerField(default=0)
    juego = models.PositiveIntegerField(default=0)
    punto = models.PositiveIntegerField(default=0)
    piedras_grande = models.PositiveIntegerField(default=0)
    piedras_chica = models.PositiveIntegerField(default=0)
    piedras_pares = models.PositiveIntegerField(default=0)
    piedras_juego = models.PositiveIntegerField(default=0)
    piedras_punto = models.PositiveIntegerField(default=0)
    piedras = models.PositiveIntegerField(default=0)
    envites = models.PositiveIntegerField(default=0)
    envites_accepted = models.PositiveIntegerField(default=0)
    ordagos = models.PositiveIntegerField(default=0)
    ordagos_accepted = models.PositiveIntegerField(default=0)
    ordagos_won = models.PositiveIntegerField(default=0)
    dejes_taken = models.PositiveIntegerField(default=0)
    dejes_taken_piedras = models.PositiveIntegerField(default=0)
    dejes_given = models.PositiveIntegerField(default=0)
    dejes_given_piedras = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class PairHandStats(HandCounts):
    """A pair's counts in one match it played on a muscore table (whoever sat for it)."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="hand_stats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="hand_stats")

    class Meta:
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="pair_hand_stats_unique"),
        ]
        indexes = [models.Index(fields=["club", "pair"])]

    def __str__(self) -> str:
        return f"{self.pair_id} in match {self.match_id}"


class PlayerHandStats(HandCounts):
    """A player's counts in one match he sat in: his side's (a hand record names the side
    that bets, never the seat)."""

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="hand_stats")

    class Meta:
        ordering = ["match", "side", "player"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="player_hand_stats_unique"),
        ]
        indexes = [models.Index(fields=["club", "player"])]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}"
