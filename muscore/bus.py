"""What changed, told to the live screens of every server (issue 32).

A write that changes what a live screen shows publishes a *topic* ("table:<id>",
"competition:<id>", "championship:<id>") once its transaction commits. The streams
(`muscore.live`) of every server hear it and send the screens that show that topic
their new fragment:

- with Redis (``LIVE_REDIS_URL``, by default the ``CACHE_URL`` when it is a Redis), the
  topic goes out on one pub/sub channel that every stream server subscribes to, so a
  phone on server A hears a save made on server B;
- in the same process, the topic also reaches the listeners registered here (a stream
  server that serves the pages too hears its own writes without Redis).

Publishing never fails a write: it runs after the commit, and a Redis that does not
answer costs the screens their push (they still hear it from the streams' own check of
the revisions, and poll when the stream is down), never a saved hand.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from muscore import circuit

logger = logging.getLogger(__name__)

#: What a listener is called with: the topics and when they were published (epoch seconds).
Listener = Callable[[list[str], float], None]

_listeners: list[Listener] = []
# The topics of a `held` block, sent when it ends; None outside one.
_held: ContextVar[list[list[str]] | None] = ContextVar("muscore_bus_held", default=None)
_client_lock = threading.Lock()
_clients: dict[str, object] = {}
#: How long a save's topics wait, once its answer is sent, for the saver's page to say it
#: shows the board (seconds): a page that never says so (closed, its script dead) holds
#: the other phones this long. The saver's page took 40-150 ms from its answer to its
#: board at load 10-17 (docs/benchmarks.md, bench_saver).
SHOWN_WAIT = 1.0
_SHOWN_KEY = "bus:shown:"
_pending_lock = threading.Lock()
# A save's topics waiting for its page's word, by token (this process's saves).
_pending: dict[str, list[list[str]]] = {}


def channel() -> str:
    """The one pub/sub channel of this site (several sites on one Redis keep apart)."""
    return f"{settings.LIVE_CHANNEL_PREFIX}:live"


def listen(listener: Listener) -> None:
    """Call ``listener`` with every topic published in this process (after its commit)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unlisten(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def publish(*topics: str) -> None:
    """Tell the live screens that ``topics`` changed, once the current transaction commits
    (at once outside one). A rolled-back write tells nobody."""
    publish_many(topics)


def publish_many(topics: Iterable[str]) -> None:
    chosen = list(dict.fromkeys(topics))
    if chosen:
        transaction.on_commit(lambda: send(chosen), robust=True)


class Held:
    """The topics a ``held`` block published, sent when it ends or, after ``after``, when
    the response it answered is closed: sent to the phone that asked."""

    def __init__(self) -> None:
        self.topics: list[list[str]] = []
        self.deferred = False

    def after(self, response: Any) -> str:
        """Send the topics once ``response`` is closed and the phone that asked says it
        shows it (``shown`` with the token returned), or SHOWN_WAIT after
        the close without a word: the WSGI server closes a response when its body is
        sent, but the saver's page still takes 40-150 ms to draw it, and a watcher's
        small fragment by push was drawn first (issue 38.4, 3 saves of 20)."""
        self.deferred = True
        close = response.close
        token = secrets.token_urlsafe(16)

        def close_then_tell() -> None:
            try:
                close()
            finally:
                self.wait(token)

        response.close = close_then_tell
        return token

    def wait(self, token: str) -> None:
        """The topics kept under ``token`` until the page's ``shown`` or SHOWN_WAIT."""
        waiting, self.topics = self.topics, []
        if not waiting:
            return
        with _pending_lock:
            _pending[token] = waiting
        # Kept in the cache too, for a ``shown`` heard by another server that shares it.
        cache.set(_SHOWN_KEY + token, waiting, timeout=60)
        timer = threading.Timer(SHOWN_WAIT, _overdue, (token,))
        timer.daemon = True
        timer.start()

    def send(self) -> None:
        waiting, self.topics = self.topics, []
        _send_all(waiting)


def shown(token: str) -> bool:
    """The page that saved shows its answer: the topics its save held go out now, once,
    whichever server hears it (the cache's delete is the claim between servers). False
    when nothing was left to send under ``token`` (sent already, or a token unknown)."""
    with _pending_lock:
        waiting = _pending.pop(token, None)
    key = _SHOWN_KEY + token
    if waiting is None:
        waiting = cache.get(key)
        if not waiting or not cache.delete(key):
            return False
    else:
        cache.delete(key)
    _send_all(waiting)
    return True


def _overdue(token: str) -> None:
    """SHOWN_WAIT after a save's answer, and its page has not said it shows it here: the
    topics go out, unless another server sharing the cache heard the page first. A
    shared cache that does not answer (Redis down) leaves them to the streams' check of
    the revisions, every LIVE_CHECK_SECONDS while Redis is down."""
    with _pending_lock:
        waiting = _pending.pop(token, None)
    if waiting is None:
        return
    if cache.delete(_SHOWN_KEY + token) or not _shared_cache():
        _send_all(waiting)


def _shared_cache() -> bool:
    return not str(settings.CACHES["default"]["BACKEND"]).endswith("LocMemCache")


def _send_all(waiting: list[list[str]]) -> None:
    for topics in waiting:
        send(topics)


@contextmanager
def held() -> Iterator[Held]:
    """The topics published inside the block (after their commit, as ever) go out when it
    ends, whatever happens in it, or when the page given the response of ``Held.after``
    shows it: a save's own answer, the board drawn for the phone that saved, is on its
    screen before the other screens are told (issue 38.4: the saver saw its save last,
    115-523 ms after the phones that heard it by push)."""
    block = Held()
    token = _held.set(block.topics)
    try:
        yield block
    finally:
        _held.reset(token)
        if not block.deferred:
            block.send()


def send(topics: list[str]) -> None:
    """Publish now (what ``publish`` runs after the commit), or at the end of the
    ``held`` block it runs in."""
    waiting = _held.get()
    if waiting is not None:
        waiting.append(topics)
        return
    at = time.time()
    for listener in list(_listeners):
        try:
            listener(topics, at)
        except Exception:  # a listener's fault is its own, never the write's
            logger.exception("live listener failed")
    client = _redis()
    if client is None:
        return
    message = json.dumps({"topics": topics, "at": at})
    # One try: a Redis that fails or hangs opens the circuit of its server (shared with
    # the cache) after one short timeout, and the streams' check of the revisions brings
    # the screens what was not published meanwhile.
    _circuit().call(lambda: client.publish(channel(), message),  # type: ignore[attr-defined]
                    None, circuit.FAILURES)


def redis_url() -> str:
    return str(getattr(settings, "LIVE_REDIS_URL", "") or "")


def _circuit() -> circuit.Circuit:
    return circuit.for_redis(redis_url(), settings.REDIS_TIMEOUT)


def _redis() -> object | None:
    """A client of the bus's Redis, made once per process; None without one."""
    url = redis_url()
    if not url:
        return None
    with _client_lock:
        if url not in _clients:
            # The short timeout of muscore.circuit: a publish given up is a screen told
            # by the streams' check, never a save kept waiting.
            _clients[url] = circuit.client_of(url, settings.REDIS_TIMEOUT)
        return _clients[url]
