"""The cheap path of the live board: an unchanged poll answered 304 in one query.

Placed first in MIDDLEWARE. For a GET (or HEAD) of a board page (/t/<id>/,
/t/<id>/k/<key>/, or at a language's address, /en/t/<id>/...) or of the API state
(/api/v1/tables/<id>) that carries If-None-Match, it reads the table's revision (and,
under an edit link, its key) with one primary-key query (plain SQL) and, when the phone's
copy is current, answers 304 right here: no session, CSRF, locale, template or replay.
Anything else, an unknown table or a wrong key included, falls through to the views,
which give the full answer (or the 404). The 304 goes through the middleware that add the
security headers (SecurityMiddleware, X-Frame-Options, the Content-Security-Policy),
so it carries the same ones as a 200.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.module_loading import import_string

from muscore import addresses, conditional
from muscore.tables import live
from muscore.tables.models import Table

# A board at Spanish's address or at another language's (/en/t/...: muscore.addresses).
BOARD = re.compile(r"^/(?:(?P<lang>[a-z]{2})/)?t/(?P<id>[A-Za-z0-9_-]{1,32})/"
                   r"(?:k/(?P<key>[A-Za-z0-9_-]{1,64})/)?$")
API_STATE = re.compile(r"^/api/v1/tables/(?P<id>[A-Za-z0-9_-]{1,32})$")


def _column(name: str) -> str:
    field = Table._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column, name
    return field.column


def _sql(*columns: str) -> str:
    # Written once from the model's own names: the ORM would compile this query anew on
    # every poll, which costs more than running it.
    meta = Table._meta
    names = ", ".join(connection.ops.quote_name(_column(c)) for c in columns)
    table = connection.ops.quote_name(meta.db_table)
    pk = connection.ops.quote_name(_column(meta.pk.name if meta.pk else "id"))
    return f"SELECT {names} FROM {table} WHERE {pk} = %s"


def _row(sql: str, table_id: str) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


# The middleware after this one whose only work on a response is to add headers.
HEADER_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "muscore.middleware.ContentSecurityPolicyMiddleware",
)


def _with_headers() -> Callable[[HttpRequest], HttpResponse]:
    """The HEADER_MIDDLEWARE in settings.MIDDLEWARE, chained in their order around a
    view that answers the request's prepared 304."""

    def answer(request: HttpRequest) -> HttpResponse:
        response: HttpResponse = request._muscore_not_modified  # type: ignore[attr-defined]
        return response

    handler: Callable[[HttpRequest], HttpResponse] = answer
    for path in reversed([p for p in settings.MIDDLEWARE if p in HEADER_MIDDLEWARE]):
        handler = import_string(path)(handler)
    return handler


def api_etag(revision: int) -> str:
    # The API's own tag (muscore.api.tables.etag_for): JSON has no language or partial.
    return f'"r{revision}"'


class NotModifiedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # Plain http in production is SecurityMiddleware's to redirect, not ours to answer.
        self.https_only = settings.SECURE_SSL_REDIRECT
        self.board_sql = _sql("revision", "edit_key")
        self.api_sql = _sql("revision")
        self.with_headers = _with_headers()
        self.prefixed = set(addresses.prefixed())

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.META.get("HTTP_IF_NONE_MATCH")
        if (
            header
            and request.method in ("GET", "HEAD")
            and not (self.https_only and not request.is_secure())
        ):
            response = self.not_modified(request, header)
            if response is not None:
                request._muscore_not_modified = response  # type: ignore[attr-defined]
                return self.with_headers(request)
        return self.get_response(request)

    def not_modified(self, request: HttpRequest, header: str) -> HttpResponse | None:
        path = request.path_info
        if (match := BOARD.match(path)) and (match["lang"] is None
                                            or match["lang"] in self.prefixed):
            key = match["key"]
            row = _row(self.board_sql, match["id"])
            if row is None:
                return None
            revision, edit_key = row
            if key is not None and not secrets.compare_digest(key.encode(), edit_key.encode()):
                return None
            language = match["lang"] or translation.get_language_from_request(request)
            etag = live.board_etag(revision, language, live.is_partial(request))
            unchanged = conditional.not_modified(request, etag)
            return None if unchanged is None else live.mark_board(unchanged, etag)
        if match := API_STATE.match(path):
            if request.GET.get("finished", "summary") not in ("summary", "full"):
                return None  # the view answers the 400 the OpenAPI document promises
            row = _row(self.api_sql, match["id"])
            if row is None:
                return None
            revision = row[0]
            etag = api_etag(revision)
            unchanged = conditional.not_modified(request, etag)
            if unchanged is not None:
                unchanged["ETag"] = etag
                unchanged["Cache-Control"] = "no-cache"
            return unchanged
        return None
