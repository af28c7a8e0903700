"""Read a `backup` file back into the database, all or nothing.

    python manage.py restore muscore-backup.json
    python manage.py restore --replace muscore-backup.json
    python manage.py backup - | ssh other python manage.py restore -

A backup of the whole database (every app's rows: tables, clubs, competitions,
championships, accounts; muscore.tables.backups says what is left out and why)
restores into a database that holds none of them, or, with --replace, deletes them
all first; either way everything comes back linked as it was (a league match to its
table, a rating to its match, a venue to its club and its heat, an account to its
clubs). Accounts are matched by username: one already in the database is kept (with
its own password when the backup carries none), one that is not is made, without a
usable password when the backup carries none (its owner sets one through "forgot
password"). --replace never deletes an account.

A backup of the tables alone (written before backups held the clubs) replaces the
tables only, and a league match whose table comes back is linked to it again.

Every restored table gets a new epoch, so no worker's cache serves a state from
before the restore; a table, competition or championship that was in the database
already (--replace) also gets a revision above both its old one and the backup's, so
every phone's ETag is stale and its next poll gets the restored state. The cached
standings and documents are dropped and every competition queued for the worker. The
stored vacas are replayed again from the hand records (a backup does not carry them).
Anything the restore cannot take whole (an unknown kind of object, a broken link, a
hand that breaks the rules) refuses the whole file and leaves the database as it was.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, transaction
from django.db.models import Model

from muscore.tables import backups, services
from muscore.tables.models import Change, Hand, Table, new_epoch

# Models whose rows carry a revision every page's ETag is made from.
REVISIONED = ("leagues.Competition", "championships.Championship")


class Command(BaseCommand):
    help = ("Restore every app's rows (tables, clubs, competitions, championships, accounts) "
            "from a file written by `backup`, into an empty database or with --replace.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", help="a file written by `manage.py backup`; - reads it from standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete every row the backup would bring back first (tables, clubs, "
                 "competitions, championships; accounts are kept and matched by username); "
                 "without it the database must hold none of them",
        )

    def handle(self, *args: Any, file: str, replace: bool, **options: Any) -> None:
        data = self.check_file(file)
        whole = any(not item["model"].startswith("tables.") for item in data)
        models = backups.restored_models() if whole else [
            model for model in backups.restored_models() if model._meta.app_label == "tables"]
        Match = apps.get_model("leagues", "Match")
        with transaction.atomic():
            if connection.vendor == "postgresql":
                # Links are checked at the commit, whatever the order of the file's rows
                # (Django's foreign keys are DEFERRABLE; a caller may have made them immediate).
                with connection.cursor() as cursor:
                    cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            held = [(model, model._default_manager.count()) for model in models]
            held = [(model, count) for model, count in held if count]
            if held and not replace:
                words = ", ".join(f"{count} {model._meta.verbose_name_plural}"
                                  for model, count in held)
                raise CommandError(
                    f"the database already holds {words}: restore into an empty "
                    "database, or add --replace to delete them first")
            before = dict(Table.objects.values_list("id", "revision"))
            revisions = {label: dict(apps.get_model(label).objects.values_list("pk", "revision"))
                         for label in REVISIONED} if whole else {}
            # A tables-only backup leaves the clubs alone: their matches find their tables again.
            links = {} if whole else dict(
                Match.objects.filter(table__isnull=False).values_list("id", "table_id"))
            if not whole:
                Match.objects.filter(table__isnull=False).update(table=None)
            delete_all(model for model, _ in held)
            self.load(data)
            for match_id, table_id in links.items():
                if table_id in before and Table.objects.filter(pk=table_id).exists():
                    Match.objects.filter(pk=match_id).update(table_id=table_id)
            self.replay(before)
            for label, old in revisions.items():
                for row in apps.get_model(label).objects.filter(pk__in=list(old)):
                    row.revision = max(row.revision, old[row.pk]) + 1
                    row.save(update_fields=["revision"])
            # Their exports and cards are made again by the worker (muscore.leagues.prepared).
            Competition = apps.get_model("leagues", "Competition")
            apps.get_model("leagues", "DocumentBacklog").add(
                list(Competition.objects.values_list("pk", flat=True)))
        # Standings and documents are cached by competition and revision: none from before
        # the restore may answer for what it brought back.
        cache.clear()
        self.stdout.write(self.summary(whole, "standard input" if file == "-" else file))

    def replay(self, before: dict[str, int]) -> None:
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

    def summary(self, whole: bool, source: str) -> str:
        text = (f"Restored {Table.objects.count()} tables, {Hand.objects.count()} hands and "
                f"{Change.objects.count()} changes")
        if whole:
            counts = {label: apps.get_model(label).objects.count() for label in (
                "clubs.Club", "leagues.Competition", "championships.Championship",
                "championships.Sede", "championships.Enrolment")}
            text += (f", {counts['clubs.Club']} clubs, {counts['leagues.Competition']} "
                     f"competitions, {counts['championships.Championship']} championships "
                     f"({counts['championships.Sede']} venues, "
                     f"{counts['championships.Enrolment']} entries)")
        return f"{text} from {source}"

    def load(self, data: list[dict[str, Any]]) -> None:
        items = []
        User = get_user_model()
        for item in data:
            if item["model"] in backups.DERIVED:
                continue  # made again after loading
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

    def check_file(self, file: str) -> list[dict[str, Any]]:
        name = "standard input" if file == "-" else file
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
            data = json.loads(text)
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
        except ValueError as exc:
            raise CommandError(f"{name} is not a JSON backup: {exc}") from exc
        known = {model._meta.label_lower for model in backups.backed_up_models()}
        known.add("tables.vacacheckpoint")  # the oldest backups carried the stored vacas
        if not isinstance(data, list) or not all(
            isinstance(item, dict) and item.get("model") in known for item in data
        ) or not any(item["model"] not in backups.ACCOUNTS for item in data):
            raise CommandError(
                f"{name} is not a muscore backup (a list of the objects `manage.py backup` "
                "writes: tables.*, clubs.*, leagues.*, championships.*, auth.user...)")
        return data


def delete_all(models: Iterable[type[Model]]) -> None:
    """Every row of these models, by plain DELETE statements inside the restore's
    transaction: the foreign keys are checked at its commit (Django makes them DEFERRABLE
    INITIALLY DEFERRED on both databases), so no protected link refuses the order, and
    the load that follows leaves no row pointing at one deleted."""
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
