"""Which match each knockout game's own competition became in 0011 (OldGame): the
addresses of those competitions, shared and bookmarked before, lead to the match now
(muscore.championships.old_games). 0011 left the pairs in each phase's draw (``games``);
they move here and leave the draw as it was. A database that ran 0011 before it kept them
has no rows: its old addresses stay 404."""

from __future__ import annotations

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def forward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("leagues", "Match")
    OldGame = apps.get_model("championships", "OldGame")
    Phase = apps.get_model("championships", "Phase")
    for phase in Phase.objects.filter(knockout=True).exclude(draw=None):
        if not isinstance(phase.draw, dict) or "games" not in phase.draw:
            continue
        games = {int(old): match for old, match in phase.draw.pop("games").items()}
        kept = set(Match.objects.filter(pk__in=games.values()).values_list("pk", flat=True))
        OldGame.objects.bulk_create([OldGame(competition_id=old, match_id=match)
                                     for old, match in games.items() if match in kept])
        phase.save(update_fields=["draw"])


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0012_phase_group_of_knockout'),
        ('leagues', '0028_knockout_format'),
    ]

    operations = [
        migrations.CreateModel(
            name='OldGame',
            fields=[
                ('competition_id', models.PositiveIntegerField(primary_key=True, serialize=False)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='leagues.match')),
            ],
        ),
        # Backwards: the rows go with the table (the draw does not get its ``games`` back:
        # 0011 cannot be undone but by the backup, docs/operations.md).
        migrations.RunPython(forward, migrations.RunPython.noop),
    ]
