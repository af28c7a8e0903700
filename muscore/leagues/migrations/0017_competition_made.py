from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0016_work_claim'),
    ]

    operations = [
        migrations.AddField(
            model_name='competition',
            name='made',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
