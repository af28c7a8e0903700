from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0005_person_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="phase",
            name="clock_paused_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
