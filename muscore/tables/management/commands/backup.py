"""Write every app's rows to a JSON file (or standard output), as one snapshot.

    python manage.py backup muscore-backup.json
    python manage.py backup --without-passwords muscore-backup.json
    python manage.py backup - | gzip > muscore-backup.json.gz
    python manage.py restore muscore-backup.json

It holds every row of every app (muscore.tables.backups: the tables, clubs,
competitions, ratings, stats, championships with their venues, entries and phases,
the admin's log, the accounts) but what is made again: the stored vacas (restore
replays them from the hands), a competition's prepared documents and their queue
(restore queues every competition), what migrate makes and the sessions. It is read
in one read transaction while the site goes on, so it is the database at one moment.
Accounts are written by username (Django's natural keys), so a restore matches them
to the accounts already there, with their password hashes, so that everyone logs in
after a restore as before (the file is written readable by its owner alone; keep it as
you keep the database). --without-passwords leaves the hashes out, for a file that
travels further than the database: its restore then says, before it starts, which
accounts will need a new password, and `manage.py password_link USERNAME` gives each
its link.

The file is Django's dumpdata format, so `loaddata` reads it too. It appears under its
name whole or not at all (muscore.tables.backups.AtomicFile).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from muscore.tables import backups


class Command(BaseCommand):
    help = ("Back up every app's rows (tables, clubs, competitions, results, ratings, "
            "championships, audit, accounts) to a JSON file, as one snapshot taken while the "
            "site runs (restore reads it back).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", help="where to write the backup (replaced whole once written); - writes it "
                         "to standard output, and the summary to standard error")
        parser.add_argument(
            "--without-passwords",
            action="store_true",
            help="leave the accounts' password hashes out (kept otherwise): a restore then "
                 "keeps the hash of an account already in the database, and an account it "
                 "makes has none until its owner chooses one (manage.py password_link)",
        )
        # Once needed to keep the hashes, now the default: kept for the scripts that pass it.
        parser.add_argument("--with-passwords", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args: Any, file: str, without_passwords: bool, **options: Any) -> None:
        with_passwords = not without_passwords
        if file == "-":
            self.stdout.ending = ""  # the JSON as written, no newline added to each piece
            counts = backups.write(self.stdout, with_passwords=with_passwords)
            self.stdout.flush()
            self.stderr.write(self.summary(counts, with_passwords, "standard output"))
            return
        target = Path(file).resolve()
        if target.is_dir() or not target.parent.is_dir():
            raise CommandError(f"cannot write {file}: not a file in an existing folder")
        with backups.AtomicFile(target) as out:
            counts = backups.write(out.stream, with_passwords=with_passwords)
            out.commit()
        self.stdout.write(self.summary(counts, with_passwords, str(target)))

    @staticmethod
    def summary(counts: dict[str, int], with_passwords: bool, where: str) -> str:
        return (
            f"Backed up {counts['tables.table']} tables, {counts['tables.hand']} hands, "
            f"{counts['tables.change']} changes, {counts['clubs.club']} clubs, "
            f"{counts['leagues.competition']} competitions, {counts['leagues.match']} matches, "
            f"{counts['championships.championship']} championships "
            f"({counts['championships.sede']} venues, {counts['championships.enrolment']} "
            f"entries) and {counts['auth.user']} accounts"
            f"{' with their passwords' if with_passwords else ' without their passwords'} "
            f"({sum(counts.values())} rows) to {where}"
        )
