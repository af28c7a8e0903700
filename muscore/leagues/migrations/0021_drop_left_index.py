"""Drop the index of the matches left to play on (competition, source, number) before its
column goes (0022), CONCURRENTLY: the matches stay writable while it is dropped."""

from django.db import migrations

from muscore.migration_ops import DropIndexConcurrently


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("leagues", "0020_move_results"),
    ]

    operations = [
        DropIndexConcurrently(model_name="match", name="match_left_in_order"),
    ]
