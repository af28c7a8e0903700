"""A large import's document moves out of the row the worker updates after every batch
(SQLite rewrites a whole row on any update: the document's megabytes each time)."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def move_documents(apps: Any, schema_editor: Any) -> None:
    LeagueImport = apps.get_model("leagues", "LeagueImport")
    LeagueImportDocument = apps.get_model("leagues", "LeagueImportDocument")
    for pk, document in LeagueImport.objects.exclude(document="").values_list("pk", "document"):
        LeagueImportDocument.objects.create(league_import_id=pk, text=document)


def move_back(apps: Any, schema_editor: Any) -> None:
    LeagueImport = apps.get_model("leagues", "LeagueImport")
    LeagueImportDocument = apps.get_model("leagues", "LeagueImportDocument")
    for pk, text in LeagueImportDocument.objects.values_list("league_import_id", "text"):
        LeagueImport.objects.filter(pk=pk).update(document=text)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0017_competition_made"),
    ]

    operations = [
        migrations.CreateModel(
            name="LeagueImportDocument",
            fields=[
                ("league_import", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                    related_name="kept_document", serialize=False,
                    to="leagues.leagueimport")),
                ("text", models.TextField()),
            ],
        ),
        migrations.RunPython(move_documents, move_back),
        migrations.RemoveField(
            model_name="leagueimport",
            name="document",
        ),
    ]
