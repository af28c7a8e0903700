"""A knockout is ties and games (issue 36): a `Tie` (its round and place in the bracket, its
two pairs, best of N) and its games, matches that name it (`Match.tie`, numbered by
`Match.game`), beside the cup's `Match.slot` they replace (filled by 0025, dropped by
0026). The key is added to a table with rows, so without an index or a database
constraint (docs/operations.md, "Upgrading"); 0027 indexes it CONCURRENTLY."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0023_left_index_on_result"),
    ]

    operations = [
        migrations.CreateModel(
            name="Tie",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("round", models.PositiveSmallIntegerField()),
                ("order", models.PositiveSmallIntegerField()),
                ("best_of", models.PositiveSmallIntegerField(default=1)),
                ("competition", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="ties",
                    to="leagues.competition")),
                ("first", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                    related_name="+", to="leagues.entry")),
                ("second", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                    related_name="+", to="leagues.entry")),
            ],
            options={
                "ordering": ["competition", "round", "order"],
                "constraints": [models.UniqueConstraint(
                    fields=("competition", "round", "order"), name="tie_place_unique")],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="tie",
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.CASCADE,
                                    related_name="games", to="leagues.tie"),
        ),
        migrations.AddField(
            model_name="match",
            name="game",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
