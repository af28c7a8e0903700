"""A stage's competitions found by an index on Competition.stage (0029): built
CONCURRENTLY, the competitions writable meanwhile."""

from django.db import migrations, models

from muscore.migration_ops import BuildIndexConcurrently


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0029_stage"),
    ]

    operations = [
        BuildIndexConcurrently(
            model_name="competition",
            index=models.Index(fields=["stage"], name="competition_stage"),
        ),
    ]
