"""What the worker makes and writes outside the requests: the competitions whose export and
cards wait (muscore.leagues.prepared), the pieces it made, and the large imports it
writes (muscore.leagues.imports).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from muscore import bus
from muscore.clubs.models import Club
from muscore.leagues.models.competition import Competition


class DocumentBacklog(models.Model):
    """A competition whose export and cards wait to be made again outside the request
    (muscore.leagues.prepared): every change of its revision adds it (once), and the
    worker (`manage.py rating_worker`) takes it off before it makes them, so a change that
    arrives meanwhile adds it again."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE,
                                       primary_key=True, related_name="+")
    queued_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"documents of {self.competition_id}"

    @staticmethod
    def add(competition_ids: list[int]) -> None:
        """Queue these competitions (those already queued stay as they are): one statement.
        Every change of a competition's revision comes here, so here its live screens (the
        club's TV) are told of it too, once the change commits."""
        DocumentBacklog.objects.bulk_create(
            [DocumentBacklog(competition_id=pk) for pk in competition_ids],
            ignore_conflicts=True)
        bus.publish_many(f"competition:{pk}" for pk in competition_ids)


class PreparedPart(models.Model):
    """One piece of a document the worker made for one revision of a competition: the
    export (in pieces of about a megabyte, streamed one query per piece) or a card's night
    in one language. Piece 0 is written last and says how many there are: a revision
    without it is not finished and is never served."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)
    revision = models.PositiveIntegerField()
    part = models.PositiveIntegerField()
    body = models.BinaryField()
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competition", "kind", "revision", "part"],
                                    name="prepared_part_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.competition_id} at {self.revision} ({self.part})"


class LeagueImport(models.Model):
    """A large import the worker writes in short transactions (muscore.leagues.imports):
    the checked document, how far it got, and why it failed (its competition then deleted
    whole, this row kept so that the organiser reads why)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    competition = models.OneToOneField(Competition, on_delete=models.SET_NULL, null=True,
                                       blank=True, related_name="+")
    name = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    rated = models.BooleanField(default=False)
    # The pairs the import added to the club: deleted with the competition if it fails.
    new_pairs = models.JSONField(default=list)
    total = models.PositiveIntegerField()
    written = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"import of {self.name} ({self.written}/{self.total})"


class LeagueImportDocument(models.Model):
    """A large import's checked document, in a row of its own: the worker updates the
    import's row (how far it got) after every batch of a few matches, and SQLite writes a
    whole row again on any update, the document's megabytes included (2.8 MB a batch for
    the benchmark's league, in the write lock and the WAL: issue 28)."""

    league_import = models.OneToOneField(LeagueImport, on_delete=models.CASCADE,
                                         primary_key=True, related_name="kept_document")
    text = models.TextField()

    def __str__(self) -> str:
        return f"document of {self.league_import_id}"
