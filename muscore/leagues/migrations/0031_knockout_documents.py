"""A knockout alone's export made again: since issue 36 its league document says it is a
knockout (docs/league.md, "A knockout": its format, each game's tie and number), while
the worker's stored copy at its current revision was made in the liguilla's shape before,
and would be served as it until the knockout changes again. Its stored export and
fingerprint go (a small competition's export is made in the request meanwhile) and the
worker is asked to make them again. Nothing else is touched; back: nothing to undo."""

from typing import Any

from django.db import migrations
from django.utils import timezone

# muscore.leagues.prepared's EXPORT and FINGERPRINT (as stored, not imported: a migration
# keeps the names it was written with).
KINDS = ("export", "fingerprint")


def forward(apps: Any, schema_editor: Any) -> None:
    Competition = apps.get_model("leagues", "Competition")
    PreparedPart = apps.get_model("leagues", "PreparedPart")
    DocumentBacklog = apps.get_model("leagues", "DocumentBacklog")
    knockouts = list(Competition.objects.filter(format="knockout").values_list("pk", flat=True))
    PreparedPart.objects.filter(competition_id__in=knockouts, kind__in=KINDS).delete()
    for pk in knockouts:
        DocumentBacklog.objects.get_or_create(competition_id=pk,
                                              defaults={"queued_at": timezone.now()})


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0030_competition_stage_index"),
    ]

    operations = [
        migrations.RunPython(forward, migrations.RunPython.noop, elidable=True),
    ]
