"""A finished competition's final order, kept on it for its revision by the result's write
(muscore.leagues.results.final): until now a championship kept its venues' heats' orders
on its own rows (championships 0016 moves them here)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0031_knockout_documents'),
    ]

    operations = [
        migrations.AddField(
            model_name='competition',
            name='final_order',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='competition',
            name='order_revision',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
