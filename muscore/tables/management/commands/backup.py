"""Write the whole database a club's season lives in to a JSON file.

    python manage.py backup muscore-backup.json
    python manage.py backup --with-passwords muscore-backup.json
    python manage.py restore muscore-backup.json

It holds the tables (hands, audit, idempotent answers), the clubs (members, players,
pairs, their audit), the competitions (rounds, matches, results, corrections, claims,
ceros drafts and events), the ratings and the hand stats, and the accounts that hold
them. Accounts are written by username (Django's natural keys), so a restore matches
them to the accounts already there; their password hashes are left out unless
--with-passwords asks for them (a backup file travels further than the database).
The stored vacas are left out: restore replays them from the hands.

The file is Django's dumpdata format, so `loaddata` reads it too.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.apps import AppConfig, apps
from django.core import serializers
from django.core.management.base import BaseCommand, CommandParser
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model

# What a backup holds: the accounts and groups, and the three apps a season lives in.
ACCOUNTS = ["Group", "User"]
APPS = ["tables", "clubs", "leagues"]
# Derived from the hands and replayed by restore; a competition's prepared export and
# cards (made again by the worker: restore queues every competition).
EXCLUDE = {"tables.vacacheckpoint", "leagues.preparedpart", "leagues.documentbacklog"}


class ExactEncoder(DjangoJSONEncoder):
    """Times to the microsecond: Django's encoder cuts them to the millisecond, and a
    restored result or hand would then read differently (its time on the pages, the
    order of two writes in the same millisecond)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


def objects() -> Iterator[Model]:
    """Every object a backup holds, models in an order loaddata can follow (what is named
    by a natural key before what names it), each by primary key."""
    auth = apps.get_app_config("auth")
    app_list: list[tuple[AppConfig, list[type[Model]] | None]] = [
        (auth, [auth.get_model(name) for name in ACCOUNTS])]
    app_list += [(apps.get_app_config(label), None) for label in APPS]
    for model in serializers.sort_dependencies(app_list, allow_cycles=True):
        if model._meta.label_lower not in EXCLUDE:
            yield from model._default_manager.order_by(model._meta.pk.name).iterator()


class Command(BaseCommand):
    help = ("Back up the tables, clubs, competitions, results, ratings, stats, audit and "
            "accounts to a JSON file (restore reads it back).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup")
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="keep the accounts' password hashes (left out otherwise: a restore then keeps "
                 "the hash of an account already in the database, or leaves it to set anew)",
        )

    def handle(self, *args: Any, file: str, with_passwords: bool, **options: Any) -> None:
        target = Path(file).resolve()
        # Write beside the target and rename: a crash never leaves half a backup under its name.
        fd, temp = tempfile.mkstemp(prefix=".backup-", suffix=".json", dir=target.parent)
        os.close(fd)
        try:
            with open(temp, "w", encoding="utf-8") as stream:
                serializers.serialize(
                    "json", objects(), stream=stream, cls=ExactEncoder,
                    use_natural_foreign_keys=True, use_natural_primary_keys=True)
            data = json.loads(Path(temp).read_text(encoding="utf-8"))
            if not with_passwords:
                for item in data:
                    if item["model"] == "auth.user":
                        item["fields"].pop("password", None)
            Path(temp).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            os.replace(temp, target)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
        counts = Counter(item["model"] for item in data)
        self.stdout.write(
            f"Backed up {counts['tables.table']} tables, {counts['tables.hand']} hands, "
            f"{counts['tables.change']} changes, {counts['clubs.club']} clubs, "
            f"{counts['leagues.competition']} competitions, {counts['leagues.match']} matches "
            f"and {counts['auth.user']} accounts"
            f"{' with their passwords' if with_passwords else ' without their passwords'} "
            f"to {target}"
        )
