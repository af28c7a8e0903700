"""Make the upgrade tests' fixtures with an EARLIER commit's code (docs/operations.md, "Upgrading"):

    git worktree add /tmp/old COMMIT           # or: git archive COMMIT | tar -x -C /tmp/old
    cp tests/upgrade/make_fixture.py /tmp/old/
    cd /tmp/old && SQLITE_FILE=/tmp/old.sqlite3 PYTHONPATH=. \\
        /path/to/.venv/bin/python make_fixture.py OUT_DIR COMMIT

It migrates a new SQLite database with that commit's migrations, fills it through that
commit's own code with every kind of row (a club's league with its tables and hands, its
ratings and hand stats, a championship with its heats and phases, a large import the worker
has not written yet, the backlogs), then writes OUT_DIR/db.sqlite3 (the file; the PostgreSQL
test copies its rows into a database at the same migrations) and OUT_DIR/meta.json (the
commit, the migrations applied, the rows of each model). Only the public API of that
commit's code is used, so the script runs on commits from before it existed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from datetime import timedelta
from io import StringIO
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.recorder import MigrationRecorder  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402


def main(out: Path, commit: str) -> None:
    call_command("migrate", "--no-input", verbosity=0)
    call_command("build_large_club", pairs=8, legs=1, hands_share=0.3, templates=4, seed=3,
                 stdout=StringIO())
    call_command("build_large_championship", pairs=40, venues=4, seats=8, seed=5,
                 stdout=StringIO())
    from muscore.clubs.models import Club, Membership
    from muscore.leagues import documents, imports
    from muscore.leagues.models import Competition, DocumentBacklog, RatingBacklog

    league = Competition.objects.filter(club__pairs__isnull=False).order_by("pk").first()
    assert league is not None
    organiser = get_user_model().objects.create_user("organiser-upgrade")
    other = Club.objects.create(name="Peña de la importación", slug="pena-importacion")
    Membership.objects.create(club=other, user=organiser)
    document = documents.league_document(league, hands=True)
    # Larger than a request writes: left "importing" for the worker, which never ran.
    with override_settings(MUSCORE_IMPORT_IN_REQUEST_MAX=1):
        pending = imports.import_competition(other, document, by=organiser,
                                             name="Liga importada", rated=False)
    assert imports.of(pending.pk) is not None, "the import was written in the request"
    RatingBacklog.objects.get_or_create(
        club_id=league.club_id, defaults={"since_at": timezone.now() - timedelta(days=1),
                                          "since_match": league.matches.order_by("pk")[0].pk})
    DocumentBacklog.add([league.pk])
    connection.close()

    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(settings.DATABASES["default"]["NAME"], out / "db.sqlite3")
    applied: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        applied[app] = max(applied.get(app, ""), name)
    rows = {model._meta.label: model._default_manager.count() for model in apps.get_models()
            if model._meta.app_label not in ("contenttypes", "sessions", "admin")
            and model._meta.label != "auth.Permission"}
    (out / "meta.json").write_text(json.dumps(
        {"commit": commit, "migrations": applied, "rows": rows}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
