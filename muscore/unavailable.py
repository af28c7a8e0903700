"""The site's 500 (settings' handler500, muscore/urls.py): a database out of reach is a 503.

When PostgreSQL restarts, a request that meets the lost connection (opening one while the
server is down or starting up, or one cut under a query: "terminating connection due to
administrator command") is no fault of the site: it answers 503 with Retry-After, the
API's problem details or a page saying to try again, and nothing was half-saved (each
write is one transaction). Any other error is Django's 500. A 503 is still logged with
its traceback (django.request), so an operator sees every one.

The page is drawn from 503.html alone, as Django draws 500.html: no context processor,
no session, nothing that would ask the database again.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template import loader
from django.views import defaults

from muscore import problems

RETRY_AFTER_SECONDS = 5


def connection_lost(error: BaseException | None) -> bool:
    """True when `error` is a database connection lost or never made: an InterfaceError
    (a closed connection used), or an OperationalError after which a connection of this
    request has none left or holds a broken one. A "database is locked" or a missing
    table leaves SQLite's connection as it was: not this."""
    if isinstance(error, InterfaceError):
        return True
    if not isinstance(error, OperationalError):
        return False
    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if raw is None or getattr(raw, "closed", False) or getattr(raw, "broken", False):
            return True
    return False


def server_error(request: HttpRequest) -> HttpResponseBase:
    if not connection_lost(sys.exc_info()[1]):
        return defaults.server_error(request)
    if request.path_info.startswith("/api/"):
        response: HttpResponse = problems.problem(
            503, "api", "database_unavailable",
            "the database cannot be reached right now (a restart?): nothing was saved by this "
            f"request; try again in {RETRY_AFTER_SECONDS} seconds",
            retry_after=RETRY_AFTER_SECONDS)
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
