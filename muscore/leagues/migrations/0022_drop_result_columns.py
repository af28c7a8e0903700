"""The result's columns on Match, ResultClaim and Correction go: its row (0019, filled by
0020) is the one place a result is stored, and a match's winner is derived from it."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0021_drop_left_index"),
    ]

    operations = [
        migrations.RemoveField(model_name="match", name="source"),
        migrations.RemoveField(model_name="match", name="juegos_first"),
        migrations.RemoveField(model_name="match", name="juegos_second"),
        migrations.RemoveField(model_name="match", name="tantos_first"),
        migrations.RemoveField(model_name="match", name="tantos_second"),
        migrations.RemoveField(model_name="match", name="no_show_first"),
        migrations.RemoveField(model_name="match", name="no_show_second"),
        migrations.RemoveField(model_name="match", name="winner"),
        migrations.RemoveField(model_name="resultclaim", name="juegos_first"),
        migrations.RemoveField(model_name="resultclaim", name="juegos_second"),
        migrations.RemoveField(model_name="resultclaim", name="tantos_first"),
        migrations.RemoveField(model_name="resultclaim", name="tantos_second"),
        migrations.RemoveField(model_name="correction", name="before"),
        migrations.RemoveField(model_name="correction", name="after"),
    ]
