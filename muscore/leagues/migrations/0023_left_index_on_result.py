"""The matches left to play, in order, found again by an index on (competition, result,
number) now that a match's result is a key (0019): built CONCURRENTLY, the matches
writable meanwhile."""

from django.db import migrations, models

from muscore.migration_ops import BuildIndexConcurrently


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0022_drop_result_columns"),
    ]

    operations = [
        BuildIndexConcurrently(
            model_name="match",
            index=models.Index(fields=["competition", "result", "number"],
                               name="match_left_in_order"),
        ),
    ]
