from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0003_knockout'),
    ]

    operations = [
        migrations.AddField(
            model_name='championship',
            name='revision',
            field=models.PositiveIntegerField(default=1),
        ),
    ]
