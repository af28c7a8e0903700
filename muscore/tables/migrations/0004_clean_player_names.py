"""Names stored before names were checked (issue 10): a lone surrogate or a control
character made every page of the table a 500, and a name of invisible characters showed
nothing. Such characters become U+FFFD; a name left showing nothing takes the seat's
default name (A1, B1...)."""

import secrets
import unicodedata
from typing import Any

from django.db import migrations
from django.db.migrations.state import StateApps

BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(seat: int, name: Any) -> str:
    default = f"{'AB'[seat % 2]}{seat // 2 + 1}"
    if not isinstance(name, str):
        return default
    kept = "".join(
        "\ufffd"
        if "\ud800" <= ch <= "\udfff" or unicodedata.category(ch) == "Cc"
        else ""
        if ch in BIDI
        else ch
        for ch in name
    ).strip()
    if all(ch in BLANK or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp") for ch in kept):
        return default
    return kept


def clean_players(apps: StateApps, schema_editor: Any) -> None:
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.only("id", "players").iterator():
        players = table.players if isinstance(table.players, list) else []
        cleaned = [clean_name(seat, name) for seat, name in enumerate(players)]
        if cleaned != players:
            # A new epoch: no cache keeps serving the state with the old names.
            Table.objects.filter(pk=table.pk).update(
                players=cleaned, epoch=secrets.token_urlsafe(6)
            )


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_vaca_checkpoints")]

    operations = [migrations.RunPython(clean_players, migrations.RunPython.noop)]
