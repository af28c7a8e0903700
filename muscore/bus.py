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
import threading
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: What a listener is called with: the topics and when they were published (epoch seconds).
Listener = Callable[[list[str], float], None]

_listeners: list[Listener] = []
_client_lock = threading.Lock()
_client: object | None = None
_client_failed_at = 0.0
#: After a failure (tried twice), Redis is not asked again for this long: a Redis that is
#: down costs each write at most one wait, and the streams' check of the revisions (every
#: LIVE_SAFETY_SECONDS) brings the screens what was not published meanwhile.
RETRY_SECONDS = 1.0


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


def send(topics: list[str]) -> None:
    """Publish now (what ``publish`` runs after the commit)."""
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
    for attempt in (1, 2):  # a connection Redis closed meanwhile is made again once
        try:
            client.publish(channel(), message)  # type: ignore[attr-defined]
            return
        except Exception as error:
            if attempt == 2:
                _failed(error)


def redis_url() -> str:
    return str(getattr(settings, "LIVE_REDIS_URL", "") or "")


def _redis() -> object | None:
    """A client of the bus's Redis, made once per process; None without one, or for a
    few seconds after it failed."""
    global _client
    url = redis_url()
    if not url or time.monotonic() - _client_failed_at < RETRY_SECONDS:
        return None
    with _client_lock:
        if _client is None:
            import redis  # only a site with a bus needs the client

            # The cache's timeouts (muscore/settings.py): a busy machine's Redis answers late,
            # and a publish given up is a screen told seconds later, by the check.
            _client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        return _client


def _failed(error: Exception) -> None:
    global _client_failed_at
    _client_failed_at = time.monotonic()
    logger.warning("live bus: Redis did not take the change (%s); screens catch up by "
                   "their streams' own check", error)
