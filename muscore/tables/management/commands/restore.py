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
its own password when the backup carries none), one that is not is made with the
backup's password hash (a backup keeps them unless written --without-passwords). Before
anything changes, the restore says which accounts will come back without a usable
password (a backup without them): `manage.py password_link USERNAME` prints the link
where each chooses one. --replace never deletes an account.

The file is read one object at a time (muscore.tables.backups.read), once to check it
and once to load it as loaddata would: its memory does not grow with the file (the
large club's 221 MB backup took 2 GB parsed whole). Standard input is copied to a
temporary file first.

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

import contextlib
import json
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import serializers
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
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
        name = "standard input" if file == "-" else file
        with opened(file) as source:
            survey = self.survey(source, name)
            self.warn(survey)
            source.seek(0)
            self.restore(backups.read(source), survey, name, replace)

    def restore(self, items: Iterator[dict[str, Any]], survey: Survey, name: str,
                replace: bool) -> None:
        whole = survey.whole
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
            self.load(items)
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
        self.stdout.write(self.summary(whole, name))
        if locked := self.locked_out(survey):
            self.stderr.write(locked)

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

    def load(self, items: Iterator[dict[str, Any]]) -> None:
        """Every object of the backup saved as loaddata saves it (raw, links checked at
        the end, the sequences set past the largest id), read one at a time: a restore
        holds one object and the links still to make, never the whole file."""
        models: set[type[Model]] = set()
        later = []
        try:
            with connection.constraint_checks_disabled():
                for found in serializers.deserialize("python", self.prepared(items),
                                                     handle_forward_references=True):
                    models.add(type(found.object))
                    found.save()
                    if found.deferred_fields:  # a link to an object further in the file
                        later.append(found)
                for found in later:
                    found.save_deferred_fields()
            connection.check_constraints(table_names=[m._meta.db_table for m in models])
        except (DeserializationError, DatabaseError, ValueError) as exc:
            # A broken link, a missing account, a value a column refuses: nothing is kept.
            raise CommandError(f"the backup cannot be restored whole: {exc}") from exc
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), list(models)):
                cursor.execute(statement)

    @staticmethod
    def prepared(items: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        User = get_user_model()
        for item in items:
            if item["model"] in backups.DERIVED:
                continue  # made again after loading
            if item["model"] == "tables.idempotentwrite":
                body = item.get("fields", {}).get("body")
                if body is not None and not isinstance(body, str):
                    # A backup from before answers were kept as text.
                    item = {**item, "fields": {**item["fields"], "body": json.dumps(body)}}
            if item["model"] == "auth.user" and "password" not in item.get("fields", {}):
                # A backup without password hashes: an account already here keeps its own,
                # a new one gets none that works until its owner sets one (warn, above).
                fields = item.get("fields", {})
                here = User.objects.filter(username=fields.get("username")).first()
                password = here.password if here is not None else make_password(None)
                item = {**item, "fields": {**fields, "password": password}}
            yield item

    def survey(self, source: IO[str], name: str) -> Survey:
        """What the backup holds, read through once before anything changes: every object
        a kind a backup holds, and the accounts that carry no password."""
        known = {model._meta.label_lower for model in backups.backed_up_models()}
        known.add("tables.vacacheckpoint")  # the oldest backups carried the stored vacas
        survey = Survey()
        try:
            for item in backups.read(source):
                if not isinstance(item, dict) or item.get("model") not in known:
                    raise CommandError(
                        f"{name} is not a muscore backup (a list of the objects `manage.py "
                        "backup` writes: tables.*, clubs.*, leagues.*, championships.*, "
                        "auth.user...)")
                survey.add(item)
        except backups.NotAnArray as exc:
            raise CommandError(f"{name} is not a muscore backup ({exc})") from exc
        except ValueError as exc:  # not JSON (a UnicodeDecodeError too)
            raise CommandError(f"{name} is not a JSON backup: {exc}") from exc
        if not survey.any_but_accounts:
            raise CommandError(
                f"{name} is not a muscore backup (it holds no table, club or competition)")
        return survey

    def warn(self, survey: Survey) -> None:
        """Said before anything is restored: the accounts that will not log in."""
        new = survey.new_without_password()
        if new:
            self.stderr.write(
                f"{len(new)} of the backup's accounts carry no password (a backup written "
                "with --without-passwords, or by muscore before 0.3) and are not in this "
                "database: restored, they cannot log in until each chooses a new password. "
                "After the restore, `python manage.py password_link USERNAME` prints an "
                "account's link to choose one. Accounts: " + _listed(new))

    @staticmethod
    def locked_out(survey: Survey) -> str:
        User = get_user_model()
        left = [name for name in survey.without_password
                if not User.objects.filter(username=name).exclude(
                    password__startswith="!").exists()]
        if not left:
            return ""
        return (f"{len(left)} accounts have no password yet: `python manage.py password_link "
                f"USERNAME` prints the link where each chooses one ({_listed(left)})")


class Survey:
    """What a first reading of the backup found."""

    def __init__(self) -> None:
        self.whole = False
        self.any_but_accounts = False
        self.without_password: list[str] = []

    def add(self, item: dict[str, Any]) -> None:
        model = item["model"]
        self.whole = self.whole or not model.startswith("tables.")
        self.any_but_accounts = self.any_but_accounts or model not in backups.ACCOUNTS
        fields = item.get("fields")
        if model == "auth.user" and isinstance(fields, dict) and "password" not in fields:
            self.without_password.append(str(fields.get("username", "")))

    def new_without_password(self) -> list[str]:
        """Those accounts without a password that the database does not hold already."""
        held = set(get_user_model().objects.filter(
            username__in=self.without_password).values_list("username", flat=True))
        return [name for name in self.without_password if name not in held]


def _listed(names: list[str], most: int = 20) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


@contextlib.contextmanager
def opened(file: str) -> Iterator[IO[str]]:
    """The backup as a text file read twice (the survey, then the restore): standard input
    is copied to a temporary file first, a megabyte at a time."""
    name = "standard input" if file == "-" else file
    with contextlib.ExitStack() as stack:
        try:
            if file == "-":
                source: IO[str] = stack.enter_context(
                    tempfile.TemporaryFile("w+", encoding="utf-8"))
                shutil.copyfileobj(sys.stdin, source, backups.READ_SIZE)
                source.seek(0)
            else:
                source = stack.enter_context(open(file, encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror or exc}") from exc
        yield source


def delete_all(models: Iterable[type[Model]]) -> None:
    """Every row of these models, by plain DELETE statements inside the restore's
    transaction: the foreign keys are checked at its commit (Django makes them DEFERRABLE
    INITIALLY DEFERRED on both databases), so no protected link refuses the order, and
    the load that follows leaves no row pointing at one deleted."""
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
