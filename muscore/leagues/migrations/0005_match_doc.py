"""Each match keeps its text in the league document (Match.doc), written for the matches
already stored so the API's first request after the upgrade joins texts too."""

from typing import Any

from django.db import migrations, models

FIELDS = ("round__number", "first__index", "second__index", "source", "juegos_first",
          "juegos_second", "tantos_first", "tantos_second", "no_show_first",
          "no_show_second", "players_first", "players_second")


def write_docs(apps: Any, schema_editor: Any) -> None:
    # The pure formatter of the current code: a function of the row's values only.
    from muscore.leagues.models import document_text

    Match = apps.get_model("leagues", "Match")
    batch = []
    for pk, round_number, first, second, *rest in Match.objects.values_list("pk", *FIELDS):
        doc = "" if first is None or second is None else document_text(
            round_number, first, second, *rest)
        batch.append(Match(pk=pk, doc=doc))
        if len(batch) >= 2000:
            Match.objects.bulk_update(batch, ["doc"])
            batch = []
    Match.objects.bulk_update(batch, ["doc"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0004_player_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="doc",
            field=models.TextField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(write_docs, migrations.RunPython.noop),
    ]
