"""The ASGI application: the streams, and the pages in a thread pool.

``uvicorn muscore.asgi:application`` serves both: ``LIVE_STREAM_PATH`` by
:mod:`muscore.live.stream` on the event loop, everything else by Django's WSGI handler
in ``LIVE_PAGE_THREADS`` threads (a2wsgi), as gunicorn's sync workers would. Behind
nginx, the site may instead send only the streams here and the pages to gunicorn.

On SIGTERM or SIGINT every stream is told ``bye`` with a random retry (so that ten
thousand phones do not all come back in the same second) and ends, before uvicorn waits
for its connections: the phones reconnect to another server behind the proxy.
"""

from __future__ import annotations

import asyncio
import random
import signal
from types import FrameType

from a2wsgi import WSGIMiddleware
from a2wsgi.asgi_typing import ASGIApp, Receive, Scope, Send
from django.conf import settings
from django.core.wsgi import get_wsgi_application

from muscore.live import stream
from muscore.live.hub import hub


def _tell_phones_on_exit() -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)

        def handler(signum: int, frame: FrameType | None, previous: object = previous) -> None:
            loop.call_soon_threadsafe(hub.close, random.randint(500, 3000))
            if callable(previous):
                previous(signum, frame)

        signal.signal(sig, handler)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            hub.start()
            _tell_phones_on_exit()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            hub.close(1000)
            await send({"type": "lifespan.shutdown.complete"})
            return


def make_application() -> ASGIApp:
    pages = WSGIMiddleware(get_wsgi_application(),  # type: ignore[arg-type]
                           workers=settings.LIVE_PAGE_THREADS)

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
        elif scope["type"] == "http" and scope["path"] == settings.LIVE_STREAM_PATH:
            await stream.serve(scope, receive, send)
        else:
            await pages(scope, receive, send)

    return application
