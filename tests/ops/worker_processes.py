"""`manage.py rating_worker` as a process of its own on the test's database: the
environment that points it there (the SQLite file or the PostgreSQL database)."""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent


def worker_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    env.update(DJANGO_SETTINGS_MODULE="muscore.settings", PYTHONPATH=str(ROOT))
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        env["SQLITE_FILE"] = str(database["NAME"])
    else:
        netloc = f"{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:" \
                 f"{database['PORT']}"
        env["DATABASE_URL"] = urllib.parse.urlunsplit(
            ("postgres", netloc, f"/{database['NAME']}", "", ""))
    env.update(extra)
    return env
