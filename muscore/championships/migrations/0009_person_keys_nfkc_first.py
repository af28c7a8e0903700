"""The entries' player keys made again: muscore.text.person_key now folds NFKC and case
before it reads the confusables (issue 40), so "𝐈ñaki Etxeberria" (a mathematical capital
I, read "l" by the confusables) is the same person as "Iñaki Etxeberria". The same pass as
0005, in batches of 2,000 outside one long transaction."""

import importlib

from django.db import migrations

rekey = importlib.import_module("muscore.championships.migrations.0005_person_keys").rekey


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("championships", "0008_competition_made"),
    ]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
