"""A stage (a championship's venue heat or phase, championships 0014) in the league's rows:
what holds a competition, what was drawn from it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0028_knockout_format'),
    ]

    operations = [
        migrations.CreateModel(
            name='Stage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('within', models.CharField(max_length=60)),
                ('name', models.CharField(max_length=60)),
                ('drawn_at', models.DateTimeField(blank=True, null=True)),
                ('sources', models.ManyToManyField(blank=True, related_name='drawn_into', to='leagues.competition')),
            ],
            options={
                'ordering': ['id'],
            },
        ),
        migrations.AddField(
            model_name='competition',
            name='stage',
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='competitions', to='leagues.stage'),
        ),
    ]
