"""A live screen's fragment, what its poll would bring.

A board (the view link's and the edit link's, the screens there are thousands of) is
drawn by the view's own code and template for its live part (``views.live_board``), in the
screen's language, without the middleware a request crosses and with the table read once:
the same HTML and ETag as the poll's answer for less CPU, and the revision of the row it
drew for the stream server's check, which then reads nothing more. Every other screen
(the club's TV, a championship's pages, the organiser's night) is asked through Django's
WSGI handler, in a thread, as a poll would (an htmx request in the screen's language, no
cookie but the language's and, for the night, the watcher's session): the same views,
middleware, ETags and caches. Either is drawn once per screen kind and language for every
phone of that screen on this server. A fragment with forms carries a CSRF token that is
nobody's: static/js/live.js puts the page's own token in its place.
"""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils import translation

from muscore.live import topics

logger = logging.getLogger(__name__)
_handler: WSGIHandler | None = None
#: The screens drawn without the WSGI handler: URL name -> whether it is the edit link's.
BOARDS = {"tables:board": False, "tables:edit_board": True}


@dataclass(frozen=True)
class Drawn:
    """What the view answered: its status, its ETag (empty without one) and its HTML."""

    status: int
    etag: str
    html: str


def draw_with_tokens(screen_topics: tuple[str, ...], url: str, language: str, host: str,
                     scheme: str, session: str = "") -> tuple[dict[str, str], Drawn]:
    """The screen's topics' tokens (muscore.live.topics.tokens) as they were just before
    its drawing, and the drawing: a board's token is the revision of the row it was drawn
    from, read once for both."""
    board = _board(url) if not session else None
    if board is not None:
        revision, drawn = _draw_board(board, url, language, host, scheme)
        if revision is not None:
            return dict.fromkeys(screen_topics, revision), drawn
        return topics.tokens(screen_topics), drawn  # not drawn: the screen is gone anyway
    return topics.tokens(screen_topics), draw(url, language, host, scheme, session)


def draw(url: str, language: str, host: str, scheme: str, session: str = "") -> Drawn:
    """GET ``url`` as the screen's poll does, in ``language``, for ``host``; a personal
    screen (the organiser's night) with the watcher's ``session``."""
    board = _board(url) if not session else None
    if board is not None:
        return _draw_board(board, url, language, host, scheme)[1]
    return draw_by_handler(url, language, host, scheme, session)


def _board(url: str) -> tuple[str, str | None] | None:
    """(table id, edit key or None) when ``url`` is a board's poll, else None."""
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    if match.view_name not in BOARDS:
        return None
    return match.kwargs["table_id"], match.kwargs["key"] if BOARDS[match.view_name] else None


def _draw_board(board: tuple[str, str | None], url: str, language: str, host: str,
                scheme: str) -> tuple[str | None, Drawn]:
    """(the revision of the table's row it was drawn from, None when not drawn; the
    drawing)."""
    from muscore.tables import views  # the pages' layer, loaded once the apps are

    request = WSGIRequest(_environ(url, language, host, scheme, ""))
    try:
        with translation.override(language):
            response, revision = views.live_board(request, *board)
    except Http404:  # no such table, or not its key
        return None, Drawn(404, "", "")
    except DisallowedHost:
        return None, Drawn(400, "", "")
    except Exception:  # what the handler would answer 500 for, logged as it would be
        logger.exception("live: the board %s could not be drawn", board[0])
        return None, Drawn(500, "", "")
    return str(revision), Drawn(response.status_code, str(response.get("ETag", "")),
                                response.content.decode("utf-8", "replace"))


def _environ(url: str, language: str, host: str, scheme: str, session: str) -> dict[str, object]:
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
    return environ


def draw_by_handler(url: str, language: str, host: str, scheme: str,
                    session: str = "") -> Drawn:
    """GET ``url`` through Django's WSGI handler, its middleware and all."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    environ = _environ(url, language, host, scheme, session)
    answer: dict[str, object] = {}

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: object = None, /) -> Callable[[bytes], object]:
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
