"""A knockout alone (a championship's knockout phase, championships 0011) is a format of
its own. Only the field's choices change, which the database does not hold: nothing is
written to the table (no lock on its rows)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0027_game_of_tie_index'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.AlterField(
                model_name='competition',
                name='format',
                field=models.CharField(choices=[('liguilla', 'liguilla'), ('groups', 'groups + knockout'), ('ceros', 'a N ceros (one-day tournament)'), ('knockout', 'knockout')], default='liguilla', max_length=10),
            ),
        ]),
    ]
