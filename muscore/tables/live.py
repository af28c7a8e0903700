"""The live board's version tag: what a phone's poll compares to know nothing changed.

A board's HTML depends on the table's revision, the language it is shown in,
whether it is the whole page or the htmx scoreboard partial, and the code and
templates that drew it. The ETag carries all four, so a 304 is never wrong:
`muscore.tables.middleware.NotModifiedMiddleware` computes the same tag from one
indexed query and answers an unchanged poll before sessions, CSRF, locale,
templates or the replay ever run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

# The partial and the page share a URL, and language comes from the cookie or the
# Accept-Language header: caches must keep them apart.
VARY = ("HX-Request", "Accept-Language", "Cookie")
# Stored, but asked about every time: the phone sends If-None-Match on each poll.
CACHE_CONTROL = "private, no-cache"


def _release() -> str:
    """A short fingerprint of what draws a board (templates, static, code, catalogues).

    Computed once per process from sizes and modification times, so a deploy changes
    every board's ETag and no phone keeps the old HTML; every worker of one checkout
    computes the same value.
    """
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for folder in ("templates", "static", "locale", "muscore"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode()
                )
    return digest.hexdigest()[:10]


RELEASE = _release()


def is_partial(request: HttpRequest) -> bool:
    # The same test django-htmx's request.htmx makes; the middleware runs before it.
    return request.headers.get("HX-Request") == "true"


def board_etag(revision: int, language: str, partial: bool) -> str:
    return f'"b{revision}-{language}-{"p" if partial else "f"}-{RELEASE}"'


def mark_board(response: HttpResponse, etag: str) -> HttpResponse:
    """The headers of a board response, full or 304: the same on both paths."""
    response["ETag"] = etag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, VARY)
    return response
