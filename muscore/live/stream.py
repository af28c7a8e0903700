"""One phone's stream: ``GET /events/?u=<poll URL>&lang=<language>&etag=<its copy>``.

A plain ASGI handler, not a Django view: a stream lives for hours, and ten thousand of
them must cost a few kilobytes each, not a request's middleware and thread. It answers
404 for a URL that is not a live screen's (or whose view refuses it: a wrong key),
429 past ``LIVE_MAX_PER_ADDRESS`` streams from one address or
``LIVE_MAX_PER_ADDRESS_TOPIC`` on one table (one topic), 503 past
``LIVE_MAX_CONNECTIONS``, past ``LIVE_MAX_SCREENS_PER_TOPIC`` versions of one topic's
pages (a championship's regions and pages, in four languages) or while shutting down; the
page then polls as before. The screen is the page ``u`` shows, normalised
(muscore.live.topics.screen): whatever else ``u`` carries, one page is drawn once. Once
open: ``retry`` and a ``hello``, the screen's fragment at once when the phone's copy
(its ``etag``, or the ``Last-Event-ID`` of a reconnect) is another, then every change as
it is drawn, and a comment every ``LIVE_HEARTBEAT_SECONDS`` so that no proxy closes an
idle stream.
"""

from __future__ import annotations

import asyncio
import ipaddress
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from a2wsgi.asgi_typing import HTTPScope, Receive, Send
from django.conf import settings

from muscore.live import topics
from muscore.live.hub import Phone, frame, hub

HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-transform"),
    # nginx: pass each event on as it comes (docs/operations.md has the rest).
    (b"x-accel-buffering", b"no"),
    (b"x-robots-tag", b"noindex"),
]
REFUSED = {
    "address": (429, "Too many live screens from this address; the page polls instead."),
    "topic": (429, "Too many live screens of this page from this address; the page polls "
                   "instead."),
    "screens": (503, "This server draws all the versions of this page it can; the page "
                     "polls."),
    "full": (503, "This server has all the live screens it can take; the page polls."),
    "closing": (503, "This server is restarting; the page reconnects elsewhere."),
}


def _first(query: dict[str, list[str]], name: str) -> str:
    return (query.get(name) or [""])[0]


def _address(scope: HTTPScope, headers: dict[str, str]) -> str:
    """The client's address as muscore.ratelimits trusts it: the last hop our own proxy
    wrote, only behind one."""
    client = scope.get("client") or ("0.0.0.0", 0)
    if settings.MUSCORE_BEHIND_PROXY:
        hops = [h.strip() for h in headers.get("x-forwarded-for", "").split(",")]
        if hops and hops[-1]:
            try:
                return str(ipaddress.ip_address(hops[-1]))
            except ValueError:
                pass
    return str(client[0])


def _session(headers: dict[str, str]) -> str:
    """The session cookie's value, for a screen drawn for its watcher alone."""
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except CookieError:
        return ""
    found = cookies.get(settings.SESSION_COOKIE_NAME)
    return found.value if found is not None else ""


async def _refuse(send: Send, status: int, text: str, retry: int = 60) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", str(retry).encode()),
        (b"x-robots-tag", b"noindex")]})
    await send({"type": "http.response.body", "body": text.encode()})


async def serve(scope: HTTPScope, receive: Receive, send: Send) -> None:
    hub.start()
    if scope["method"] not in ("GET", "HEAD"):
        await _refuse(send, 405, "A stream is read with GET.")
        return
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    asked = _first(query, "u")
    found = topics.screen(asked) if len(asked) <= 2000 else None
    if found is None:
        await _refuse(send, 404, "No live screen has that address.")
        return
    url, screen_topics = found.url, found.topics
    language = _first(query, "lang")
    if language not in {code for code, _ in settings.LANGUAGES}:
        language = settings.LANGUAGE_CODE
    address = _address(scope, headers)
    session = _session(headers) if found.personal else ""
    why = hub.admits(address, screen_topics, (url, language, session))
    if why:
        status, text = REFUSED[why]
        await _refuse(send, status, text, retry=5 if why == "closing" else 60)
        return
    scheme = scope.get("scheme", "http")
    if settings.MUSCORE_BEHIND_PROXY and headers.get("x-forwarded-proto") in ("http", "https"):
        scheme = headers["x-forwarded-proto"]
    known = headers.get("last-event-id") or _first(query, "etag")
    phone = Phone(address, known)
    screen = hub.enter(url, language, headers.get("host", "localhost"), scheme,
                       screen_topics, phone, session)
    try:
        await hub.ready(screen, phone)
        if screen.status != 200:
            await _refuse(send, 404 if screen.status in (403, 404, 410) else 503,
                          "No live screen has that address.")
            return
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        hello = b"retry: %d\n" % settings.LIVE_RETRY_MS + frame("hello", {"etag": screen.etag})
        await send({"type": "http.response.body", "body": hello, "more_body": True})
        if scope["method"] == "GET":
            await _pump(phone, receive, send)
        await send({"type": "http.response.body", "body": b""})
    finally:
        hub.leave(screen, phone)


async def _pump(phone: Phone, receive: Receive, send: Send) -> None:
    """Send the phone what it is given, and a heartbeat when idle, until it goes away or
    the server closes its stream."""
    gone = asyncio.Event()

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()
        phone.wake.set()

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        while not gone.is_set():
            try:
                await asyncio.wait_for(phone.wake.wait(), settings.LIVE_HEARTBEAT_SECONDS)
            except TimeoutError:
                await send({"type": "http.response.body", "body": b": \n\n", "more_body": True})
                continue
            phone.wake.clear()
            event, phone.pending = phone.pending, None
            if event and not gone.is_set():
                await send({"type": "http.response.body", "body": event, "more_body": True})
            if phone.closing:
                return
    finally:
        watcher.cancel()
