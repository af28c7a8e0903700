"""One more revision for every knockout alone (a championship's knockout phase): since
issue 36 its league document says it is a knockout (docs/league.md, "A knockout": its
format, each game's tie and number, its bracket in place of standings) while its revision,
what its ETag and kept bodies are made of (muscore.leagues.changes.bump), stayed the same,
so a copy taken before (a client's, a cache's) would be answered 304 or served on. With
its revision moved, no ETag or kept body of before is this document's, and the API needs
no mark of its own for a knockout. A final order kept for the revision (results.final)
moves with it, since nothing of the order changed; the worker makes its export again, as
after any change. Only the knockouts' rows are written (a few per championship); back:
nothing to undo, a revision never goes back.

A knockout made by championships 0011 after this one ran is new: no copy of it was ever
taken, so this needs nothing from the championships."""

from typing import Any

from django.db import migrations, models
from django.db.models import Case, F, When
from django.utils import timezone


def forward(apps: Any, schema_editor: Any) -> None:
    Competition = apps.get_model("leagues", "Competition")
    DocumentBacklog = apps.get_model("leagues", "DocumentBacklog")
    knockouts = Competition.objects.filter(format="knockout")
    # One statement: each row's order is compared with its revision as it was.
    knockouts.update(revision=F("revision") + 1, order_revision=Case(
        When(order_revision=F("revision"), then=F("order_revision") + 1),
        default=F("order_revision"), output_field=models.PositiveIntegerField()))
    for pk in knockouts.values_list("pk", flat=True):
        DocumentBacklog.objects.get_or_create(competition_id=pk,
                                              defaults={"queued_at": timezone.now()})


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0032_competition_final_order"),
    ]

    operations = [
        migrations.RunPython(forward, migrations.RunPython.noop, elidable=True),
    ]
