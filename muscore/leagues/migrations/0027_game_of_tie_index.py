"""A tie's games found by an index on (tie, game) (0024): built CONCURRENTLY, the matches
writable meanwhile."""

from django.db import migrations, models

from muscore.migration_ops import BuildIndexConcurrently


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0026_drop_slot"),
    ]

    operations = [
        BuildIndexConcurrently(
            model_name="match",
            index=models.Index(fields=["tie", "game"], name="match_game_of_tie"),
        ),
    ]
