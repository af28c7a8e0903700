"""A match's result stored once (issue 36): a `ResultRow` that the match, a pair's claim
and the audit's before and after share, beside the columns they had (moved by 0020, then
dropped by 0022). The keys to it are added to tables with rows, so without an index or a
database constraint (docs/operations.md, "Upgrading": a key's index under lock); the
match's is indexed CONCURRENTLY by 0023."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0018_league_import_document"),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultRow",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("source", models.CharField(choices=[("table", "muscore table"),
                                                     ("manual", "entered by hand"),
                                                     ("no_show", "no-show")], max_length=8)),
                ("first_juegos", models.PositiveSmallIntegerField()),
                ("second_juegos", models.PositiveSmallIntegerField()),
                ("first_tantos", models.PositiveIntegerField(blank=True, null=True)),
                ("second_tantos", models.PositiveIntegerField(blank=True, null=True)),
                ("first_absent", models.BooleanField(default=False)),
                ("second_absent", models.BooleanField(default=False)),
                ("competition", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="+",
                    to="leagues.competition")),
            ],
        ),
        migrations.AddField(
            model_name="match",
            name="result",
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.RESTRICT,
                                    related_name="+", to="leagues.resultrow"),
        ),
        migrations.AddField(
            model_name="resultclaim",
            name="result",
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.RESTRICT,
                                    related_name="+", to="leagues.resultrow"),
        ),
        migrations.AddField(
            model_name="correction",
            name="before_result",
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.RESTRICT,
                                    related_name="+", to="leagues.resultrow"),
        ),
        migrations.AddField(
            model_name="correction",
            name="after_result",
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, null=True,
                                    on_delete=django.db.models.deletion.RESTRICT,
                                    related_name="+", to="leagues.resultrow"),
        ),
        migrations.AddField(
            model_name="correction",
            name="players_before",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="correction",
            name="players_after",
            field=models.JSONField(default=list),
        ),
    ]
