"""A stage: a part of something larger that placed a club's competitions (a championship's
venue heat or phase), kept by the league so that its owner of results knows, from its own
rows, what holds a competition (`within`, `name`), which competitions are played side by
side (a stage's competitions: a phase's groups) and what was drawn from a competition's
standings (`sources`, once `drawn_at`): a result there is final for its table, and every
door refuses a change of it while the draw stands (muscore.leagues.results.consequences).

The app above that draws (the championships) writes these rows; the league never asks it.
"""

from __future__ import annotations

from django.db import models

from muscore.clubs.models import NAME_MAX


class Stage(models.Model):
    """What placed its competitions (``Competition.stage``): ``name`` within ``within``
    ("Fase 2" of "Txapelketa 2026", a venue's heat of it), and the competitions whose
    standings its pairs were drawn from, ``drawn_at``."""

    # A copy the championship writes (the league never reads the championships): its name
    # is given once, when it is made, and no door renames it (no form, API or admin). A
    # door that did would write its stages' ``within`` in the same transaction.
    within = models.CharField(max_length=NAME_MAX)
    name = models.CharField(max_length=NAME_MAX)
    sources = models.ManyToManyField("leagues.Competition", related_name="drawn_into",
                                     blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.within} · {self.name}"
