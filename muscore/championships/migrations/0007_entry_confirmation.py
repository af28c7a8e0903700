"""An entry from the public form waits for its confirmation (issue 28 point 3): two new
statuses (a change of choices only: nothing in the database, so no AlterField runs there)
and when it was confirmed (a nullable column: no rewrite, no index)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0006_phase_clock_paused_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="enrolment",
            name="confirmed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="enrolment",
                    name="status",
                    field=models.CharField(choices=[
                        ("entered", "entered"), ("waiting", "waiting list"),
                        ("withdrawn", "withdrawn"), ("pending", "waiting for its confirmation"),
                        ("rejected", "rejected")], default="entered", max_length=10),
                ),
            ],
            database_operations=[],
        ),
    ]
