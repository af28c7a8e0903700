"""A pair a championship's draw placed says so itself (championships 0015 fills it)."""


from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0004_retired'),
    ]

    operations = [
        migrations.AddField(
            model_name='pair',
            name='placed_by',
            field=models.CharField(blank=True, default='', max_length=60),
        ),
    ]
