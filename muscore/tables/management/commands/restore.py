"""Read a `backup` file back into the database, all or nothing.

A backup of the whole database (clubs, competitions, accounts: what `backup` writes
now) restores into a database that holds no table and no club, or, with --replace,
deletes every table and every club first; either way everything comes back linked as
it was (a league match to its table, a rating to its match, an account to its clubs).
Accounts are matched by username: one already in the database is kept (with its own
password when the backup carries none), one that is not is made, without a usable
password when the backup carries none (its owner sets one through "forgot password").

A backup of the tables alone (written before backups held the clubs) replaces the
tables only, and a league match whose table comes back is linked to it again.

Every restored table gets a new epoch, so no worker's cache serves a state from
before the restore; a table or competition that was in the database already
(--replace) also gets a revision above both its old one and the backup's, so every
phone's ETag is stale and its next poll gets the restored state. The cached
standings and documents are dropped. The stored vacas are replayed again from the
hand records (a backup does not carry them). Anything the restore cannot take whole
(an unknown kind of object, a broken link, a hand that breaks the rules) refuses
the whole file and leaves the database as it was.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, transaction

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table, new_epoch

# The apps and models a backup may hold: anything else is not a muscore backup.
APPS = ("tables.", "clubs.", "leagues.")
ACCOUNTS = ("auth.user", "auth.group")
# What --replace deletes of a whole backup, in an order no protected link refuses: a
# match takes its corrections, claims, ratings and stats with it, a competition its
# entries and rounds, a club its players and audit.
DELETE_ORDER = ("leagues.Match", "leagues.Competition", "clubs.PairMember", "clubs.Pair",
                "clubs.Club")


class Command(BaseCommand):
    help = "Restore the tables, clubs, competitions and accounts from a file written by `backup`."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a file written by `manage.py backup`")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete every table and club in the database first (otherwise it must hold "
                 "none)",
        )

    def handle(self, *args: Any, file: str, replace: bool, **options: Any) -> None:
        path = Path(file)
        data = self.check_file(path)
        whole = any(not item["model"].startswith("tables.") for item in data)
        Club = apps.get_model("clubs", "Club")
        Competition = apps.get_model("leagues", "Competition")
        Match = apps.get_model("leagues", "Match")
        with transaction.atomic():
            existing = Table.objects.count()
            clubs = Club.objects.count() if whole else 0
            if (existing or clubs) and not replace:
                held = f"{existing} tables" + (f" and {clubs} clubs" if clubs else "")
                raise CommandError(
                    f"the database already holds {held}: restore into an empty "
                    "database, or add --replace to delete them first"
                )
            before = dict(Table.objects.values_list("id", "revision"))
            competitions_before = dict(Competition.objects.values_list("id", "revision"))
            # A tables-only backup leaves the clubs alone: their matches find their tables again.
            links = {} if whole else dict(
                Match.objects.filter(table__isnull=False).values_list("id", "table_id"))
            if whole:
                # Leaves first: matches and pair members are held by protected links.
                for label in DELETE_ORDER:
                    apps.get_model(label).objects.all().delete()
            Table.objects.all().delete()  # hands, changes and answers go with them
            self.load(data)
            for match_id, table_id in links.items():
                if table_id in before and Table.objects.filter(pk=table_id).exists():
                    Match.objects.filter(pk=match_id).update(table_id=table_id)
            for table in Table.objects.all():
                table.epoch = new_epoch()
                if table.id in before:
                    table.revision = max(table.revision, before[table.id]) + 1
                table.save(update_fields=["epoch", "revision"])
                # The hand records are the truth: a table that no longer replays is refused whole.
                try:
                    services.rebuild_checkpoints(table)
                except ValueError as exc:
                    raise CommandError(f"table {table.id} in the backup is invalid: {exc}") from exc
            for competition in Competition.objects.filter(pk__in=list(competitions_before)):
                competition.revision = max(
                    competition.revision, competitions_before[competition.pk]) + 1
                competition.save(update_fields=["revision"])
            # Their exports and cards are made again by the worker (muscore.leagues.prepared).
            DocumentBacklog = apps.get_model("leagues", "DocumentBacklog")
            DocumentBacklog.add(list(Competition.objects.values_list("pk", flat=True)))
        # Standings and documents are cached by competition and revision: none from before
        # the restore may answer for what it brought back.
        cache.clear()
        self.stdout.write(
            f"Restored {Table.objects.count()} tables, {Hand.objects.count()} hands and "
            f"{Change.objects.count()} changes"
            + (f", {Club.objects.count()} clubs and {Competition.objects.count()} competitions"
               if whole else "")
            + f" from {path}"
        )

    def load(self, data: list[dict[str, Any]]) -> None:
        items = []
        User = get_user_model()
        for item in data:
            if item["model"] == "tables.vacacheckpoint":
                continue  # derived from the hands: replayed again after loading
            if item["model"] == "tables.idempotentwrite":
                body = item.get("fields", {}).get("body")
                if body is not None and not isinstance(body, str):
                    # A backup from before answers were kept as text.
                    item = {**item, "fields": {**item["fields"], "body": json.dumps(body)}}
            if item["model"] == "auth.user" and "password" not in item.get("fields", {}):
                # A backup without password hashes: an account already here keeps its own,
                # a new one gets none that works until its owner sets one.
                fields = item.get("fields", {})
                here = User.objects.filter(username=fields.get("username")).first()
                password = here.password if here is not None else make_password(None)
                item = {**item, "fields": {**fields, "password": password}}
            items.append(item)
        # loaddata reads files only, and knows the format by the file's extension.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "backup.json"
            copy.write_text(json.dumps(items), encoding="utf-8")
            try:
                call_command("loaddata", str(copy), verbosity=0)
            except (DeserializationError, DatabaseError) as exc:
                # A broken link, a missing account, a value a column refuses: nothing is kept.
                raise CommandError(f"the backup cannot be restored whole: {exc}") from exc

    def check_file(self, path: Path) -> list[dict[str, Any]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        except ValueError as exc:
            raise CommandError(f"{path} is not a JSON backup: {exc}") from exc
        if not isinstance(data, list) or not all(
            isinstance(item, dict)
            and isinstance(item.get("model"), str)
            and (item["model"].startswith(APPS) or item["model"] in ACCOUNTS)
            for item in data
        ) or not any(item["model"].startswith(APPS) for item in data):
            raise CommandError(
                f"{path} is not a muscore backup (a list of tables.*, clubs.*, leagues.* "
                "and auth.user objects)")
        return data
