"""A gunicorn worker imports muscore.wsgi before its first request: the URLconf (every
view module) and each language's catalogue are read then, not in a player's request (a
large import's request took half a second longer as a worker's first)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_importing_the_wsgi_application_reads_the_urls_and_the_catalogues() -> None:
    script = """
import sys
import muscore.wsgi
from django.urls import get_resolver
from django.utils.translation import trans_real
from django.conf import settings
resolver = get_resolver()
assert "url_patterns" in resolver.__dict__, "the URLconf is read"
assert "muscore.leagues.views" in sys.modules, "the views are imported"
loaded = set(trans_real._translations)
assert {code for code, _ in settings.LANGUAGES} <= loaded, loaded
print("warm")
"""
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "muscore.settings"}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "warm", done.stderr
