"""A live screen's fragment, drawn by the same view its poll asks.

The stream server asks the page's own URL through Django's WSGI handler, in a thread, as
a poll would (an htmx request in the screen's language, no cookie but the language's):
the same views, middleware, ETags and caches, so a pushed fragment is byte for byte what
the poll would have brought. It is drawn once per screen kind and language for every
phone of that screen on this server. A fragment with forms carries a CSRF token that is
nobody's: static/js/live.js puts the page's own token in its place.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

_handler: WSGIHandler | None = None


@dataclass(frozen=True)
class Drawn:
    """What the view answered: its status, its ETag (empty without one) and its HTML."""

    status: int
    etag: str
    html: str


def draw(url: str, language: str, host: str, scheme: str, session: str = "") -> Drawn:
    """GET ``url`` as the screen's poll does, in ``language``, for ``host``; a personal
    screen (the organiser's night) with the watcher's ``session``."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    parts = urlsplit(url)
    name, _, port = host.partition(":")
    environ = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote(parts.path),
        "QUERY_STRING": parts.query,
        "SERVER_NAME": name or "localhost",
        "SERVER_PORT": port or ("443" if scheme == "https" else "80"),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": host,
        "HTTP_HX_REQUEST": "true",
        "HTTP_ACCEPT_LANGUAGE": language,
        "HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}={language}" + (
            f"; {settings.SESSION_COOKIE_NAME}={session}" if session else ""),
        "HTTP_X_MUSCORE_LIVE": "1",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scheme,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    answer: dict[str, object] = {}

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None, /) -> Callable[[bytes], object]:
        answer["status"] = int(status.split(" ", 1)[0])
        answer["headers"] = {k.lower(): v for k, v in headers}
        return lambda data: None  # the body comes back as the iterable, never written

    chunks = _handler(environ, start_response)
    try:
        body = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    headers = answer.get("headers") or {}
    assert isinstance(headers, dict)
    status = answer.get("status")
    assert isinstance(status, int)
    return Drawn(status, str(headers.get("etag", "")), body.decode("utf-8", "replace"))
