"""Small middleware Django 5.2 does not ship."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware import http
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers

from muscore import logs


class ContentSecurityPolicyMiddleware:
    """Adds settings.CONTENT_SECURITY_POLICY to every response that has none yet.

    A view that needs something else (say, an inline SVG with style attributes on a
    page of its own) sets its own Content-Security-Policy header and is left alone.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy: str = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response.headers:
            response.headers["Content-Security-Policy"] = self.policy
        return response


class HeadMiddleware:
    """A HEAD gets the GET's status and headers (its Content-Length, ETag, Last-Modified)
    and no body, whatever the view drew (RFC 9110 9.3.2).

    Django hands the WSGI server a HEAD's body as a GET's and leaves the server to drop it:
    gunicorn does, and logs a warning each time (an uptime monitor's HEAD every 30 s was
    2,880 lines a day); runserver and the test client drop it silently, so only a test
    through gunicorn sees it (tests/ops/test_head_gunicorn.py). Outermost, so that it takes
    the answer as every other middleware left it; a streamed answer's iterator is closed
    unread (a large export is not read from the database for nothing).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method != "HEAD":
            return response
        if response.streaming:
            unread = response.streaming_content  # type: ignore[attr-defined]
            close = getattr(unread, "close", None)
            if close is not None:
                close()
            response.streaming_content = []  # type: ignore[attr-defined]
        else:
            response.content = b""
        return response


class RequestIdMiddleware:
    """Gives each request an id: the proxy's X-Request-ID if it sent a plain one, else a new one.

    The id is on every log line written while the request is answered (muscore.logs),
    in the response's X-Request-ID header, and so in gunicorn's access log
    (`%({x-request-id}o)s`, muscore/gunicorn_conf.py): one id finds a request's
    access line, its traceback and what the player saw. First in MIDDLEWARE, so the
    304 of an unchanged poll carries it too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = logs.incoming_or_new_request_id(request.headers.get(logs.REQUEST_ID_HEADER))
        # Also on the request: Django logs a 404's or a 403's "Not Found"/"Forbidden" line
        # after every middleware has returned (the id is reset by then), with the request.
        request.muscore_request_id = rid  # type: ignore[attr-defined]
        token = logs.request_id.set(rid)
        try:
            response = self.get_response(request)
        finally:
            logs.request_id.reset(token)
        response.headers[logs.REQUEST_ID_HEADER] = rid
        if response.streaming:
            # A streamed body (a large league's export) is read after every middleware has
            # returned: its lines (a piece gone, a worker killed while sending) keep the id.
            response.streaming_content = self._with_id(  # type: ignore[attr-defined]
                response.streaming_content, rid)  # type: ignore[attr-defined]
        return response

    @staticmethod
    def _with_id(content: Iterable[bytes], rid: str) -> Iterator[bytes]:
        token = logs.request_id.set(rid)
        try:
            yield from content
        finally:
            with contextlib.suppress(ValueError):  # closed from another context
                logs.request_id.reset(token)


class PageGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for the pages and their htmx fragments, and for the API's
    JSON and CSV reads (a league's export 56 KB, 4.5 gzipped; openapi.json 64 KB, 7.6).

    Static files come compressed from WhiteNoise, and the cards' PNG are left as they are.
    BREACH (guessing a secret from the compressed size of answers that also echo the
    attacker's input): the CSRF token in a form is masked afresh on every response by
    Django, so its bytes never repeat, and GZipMiddleware pads each answer with random
    bytes (Django's "Heal the BREACH" filename); a table's edit key is in the page's own
    URL, so whoever can ask for the page already holds it. JSON and CSV are compressed
    for GET and HEAD only: the API's reads carry no secret (the one answer with an edit
    key, a new table's 201 to a POST, is left plain).
    """

    DOCUMENTS = ("application/json", "text/csv")

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code == 304:
            return self.not_modified(request, response)
        kind = response.get("Content-Type", "")
        if kind.startswith("text/html") or (
                kind.startswith(self.DOCUMENTS) and request.method in ("GET", "HEAD")):
            return super().process_response(request, response)
        return response

    @staticmethod
    def not_modified(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        """A 304 names the ETag the client's gzipped copy had: GZipMiddleware made it weak
        (W/"..."), as a compressed body is another representation, so the 304 to a client
        that takes gzip says the same (RFC 9110: a 304 repeats the 200's ETag)."""
        etag = response.get("ETag", "")
        if etag and not etag.startswith("W/") and "gzip" in request.headers.get(
                "Accept-Encoding", ""):
            response.headers["ETag"] = f"W/{etag}"
            patch_vary_headers(response, ("Accept-Encoding",))
        return response


# A link that carries a key lets whoever holds it act: never a search result. A table's
# edit link (/t/<id>/k/<key>/...), a pair's link to its match's result, an organiser's
# invitation or new-password link, a championship entry's confirmation link: the same
# patterns the logs mask (muscore.logs).
KEYED_LINKS = (logs.EDIT_KEY_IN_PATH, logs.PAIR_KEY_IN_PATH, logs.PASSWORD_TOKEN_IN_PATH,
               logs.ENTRY_KEY_IN_PATH)


class EditLinkNoIndexMiddleware:
    """Adds X-Robots-Tag: noindex, nofollow to every answer to a link that carries a key,
    and Referrer-Policy: strict-origin (over SECURE_REFERRER_POLICY's same-origin).

    Under same-origin the page's styles, scripts and stream were asked with the whole
    link as their Referer, key and all, for a proxy's log to keep (issue 40.9). Not
    no-referrer: a browser then sends `Origin: null` with a form's POST, which Django's
    CSRF check refuses.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if any(pattern.search(request.path_info) for pattern in KEYED_LINKS):
            response.headers["X-Robots-Tag"] = "noindex, nofollow"
            response.headers["Referrer-Policy"] = "strict-origin"
        return response


class ConditionalGetMiddleware(http.ConditionalGetMiddleware):
    """Django's ConditionalGetMiddleware (an ETag from the body of a GET's answer that has
    none of its own, and the 304 to a client holding it) for the pages a browser keeps: a
    200 of HTML, not an error page; the API's JSON keeps the tags it gives itself.

    A HEAD too: Django's leaves a HEAD alone (its body is gone by then), but here the body
    is still the GET's (HeadMiddleware, outermost, drops it after), so a monitor's HEAD
    gets the GET's ETag and its 304."""

    def needs_etag(self, response: HttpResponseBase) -> bool:
        return (response.status_code == 200
                and response.get("Content-Type", "").startswith("text/html")
                and super().needs_etag(response))

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if request.method != "HEAD":
            return super().process_response(request, response)
        request.method = "GET"  # answered as the GET it mirrors
        try:
            return super().process_response(request, response)
        finally:
            request.method = "HEAD"
