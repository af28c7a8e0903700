"""A cup's knockout match names its tie (0024, filled by 0025): its slot goes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0025_slots_to_ties"),
    ]

    operations = [
        migrations.RemoveField(model_name="match", name="slot"),
    ]
