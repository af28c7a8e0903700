"""Which release is running: its tag (or the commit), for the API's answers
(`X-Muscore-Version`), /healthz and the admin's footer, so that an operator (and a bug
report) knows what served a page.

Where it comes from, first found wins:
1. `MUSCORE_VERSION` in the environment (a container or a deploy script sets it: the commit
   it built from);
2. the file `VERSION` beside `manage.py` (`git describe --tags --always --abbrev=12 >
   VERSION` when a release is copied without its `.git`);
3. git itself, asked once at start, when the checkout has its `.git`: the release's tag
   (`v0.2.0`), the tag and the commits since (`v0.2.0-3-g<commit>`), or the commit alone
   before the first tag;
4. the package's version with `+unknown` (`0.1.0+unknown`) when none of those says.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "X-Muscore-Version"


@functools.cache
def current() -> str:
    """The running release's version, worked out once per process."""
    value = os.environ.get("MUSCORE_VERSION", "").strip()
    if value:
        return value
    root = Path(settings.BASE_DIR)
    with_file = root / "VERSION"
    if with_file.is_file():
        value = with_file.read_text().strip()
        if value:
            return value
    if (root / ".git").exists():
        try:
            found = subprocess.run(["git", "-C", str(root), "describe", "--tags", "--always",
                                    "--abbrev=12", "HEAD"],
                                   capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.SubprocessError):
            found = None
        if found is not None and found.returncode == 0 and found.stdout.strip():
            return found.stdout.strip()
    try:
        return f"{metadata.version('muscore')}+unknown"
    except metadata.PackageNotFoundError:
        return "unknown"


def context(request: HttpRequest) -> dict[str, Any]:
    """Context processor: `muscore_version` for the admin's footer."""
    return {"muscore_version": current()}


class VersionHeaderMiddleware:
    """Every answer of the API (`/api/...`) says which release gave it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/api/"):
            response[HEADER] = current()
        return response
