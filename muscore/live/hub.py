"""One stream server's screens and phones, on its event loop.

A :class:`Screen` is one poll URL in one language, with the phones (:class:`Phone`)
that watch it on this server. When a topic of a screen is published (Redis pub/sub, or
this process's own writes), or its token moves at the periodic check (the safety net:
a publish lost with Redis down, or a site without Redis), the screen is drawn again, once
whatever the number of phones, and every phone whose copy is older gets the event. Only
the newest fragment matters, so a phone keeps one pending event, never a queue.

A move the check sees is drawn only once it has stood HELD_GRACE undrawn: a save's
publish is held until the answer of the phone that saved is sent (muscore.bus.held), and
the check, reading the revision between the commit and that answer, told the other
phones first (issue 38.4: the saver later than a watcher in 3 saves of 20).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from django.conf import settings
from django.db import close_old_connections
from prometheus_client import Counter

from muscore import bus
from muscore.live import render, topics

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

K = TypeVar("K")
T = TypeVar("T")

logger = logging.getLogger(__name__)

#: Screens drawn by this stream server (each for all its phones): /metrics.
DRAWS = Counter("muscore_live_draws", "Live screens drawn by this stream server, each once "
                "for all its phones.")


#: The hub pings its subscription this often (seconds), and gives it up when Redis has said
#: nothing (no message, no pong) for BUS_SILENCE seconds: a hung Redis.
BUS_PING = 1.0
BUS_SILENCE = 1.5
#: How long the subscription's own calls wait (seconds): longer than a request's
#: REDIS_TIMEOUT, since no request waits on them and a busy loop must not drop the bus.
BUS_TIMEOUT = 0.5
#: How long a move the check sees waits for its publish before the check draws it itself
#: (seconds): longer than a saver's answer takes on a busy box (its p95 was 0.6 s at load
#: 24), short beside a publish lost (every LIVE_SAFETY_SECONDS, 2 s, with Redis).
HELD_GRACE = 1.0


def frame(event: str, data: Mapping[str, object], event_id: str = "") -> bytes:
    """One server-sent event: an id line when given, its name, its JSON data."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class Phone:
    """One open stream: the newest event it has not been sent yet, the tag of the copy
    it holds, and its wake-up."""

    __slots__ = ("address", "pending", "known", "wake", "closing")

    def __init__(self, address: str, known: str = "") -> None:
        self.address = address
        self.pending: bytes | None = None
        self.known = known
        self.wake = asyncio.Event()
        self.closing = False

    def give(self, event: bytes, etag: str = "", closing: bool = False) -> None:
        """Send ``event`` next (it replaces one not sent yet), unless the phone holds
        that copy already."""
        if etag and etag == self.known and not closing:
            return
        self.pending = event
        self.known = etag or self.known
        self.closing = self.closing or closing
        self.wake.set()


class Screen:
    """One poll URL in one language, drawn once for all its phones on this server."""

    def __init__(self, url: str, language: str, host: str, scheme: str,
                 screen_topics: tuple[str, ...], session: str = "") -> None:
        self.url = url
        self.language = language
        self.session = session
        self.host = host
        self.scheme = scheme
        self.topics = screen_topics
        self.phones: set[Phone] = set()
        self.etag = ""
        self.event: bytes | None = None
        self.status = 0
        self.drawing: asyncio.Task[None] | None = None
        self.again = False
        self.published = 0.0
        #: The topics' tokens read just before its last drawing: what it shows.
        self.tokens: dict[str, str] = {}
        #: The check's drawing of a move it saw, waiting HELD_GRACE for the move's publish.
        self.overdue: asyncio.TimerHandle | None = None


class Hub:
    """The screens of this process; started once by the ASGI app's first request."""

    def __init__(self) -> None:
        self.screens: dict[tuple[str, str, str], Screen] = {}
        self.by_topic: dict[str, set[Screen]] = {}
        self.phones = 0
        self.per_address: dict[str, int] = {}
        #: Streams by (address, topic): one address's phones on one table, one TV...
        self.per_topic: dict[tuple[str, str], int] = {}
        self.closing = False
        self.redis_up = False
        self.started = False
        self.draws = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.executor = ThreadPoolExecutor(max_workers=settings.LIVE_RENDER_THREADS,
                                           thread_name_prefix="live-draw")
        self.tasks: list[asyncio.Task[None]] = []

    # -------------------------------------------------------------- the hub's life

    def start(self) -> None:
        if self.started:
            return
        self.started = True
        self.loop = asyncio.get_running_loop()
        if bus.redis_url():
            self.tasks.append(self.loop.create_task(self._subscribe()))
        else:
            bus.listen(self._heard_here)
        self.tasks.append(self.loop.create_task(self._check()))

    def _heard_here(self, published: list[str], at: float) -> None:
        # From any thread of this process (a page's write in the thread pool).
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.heard, published, at)

    def close(self, retry_ms: int) -> None:
        """Shutting down: every phone is told to come back in ``retry_ms`` (to another
        server behind the proxy) and its stream ends."""
        self.closing = True
        bye = f"retry: {retry_ms}\n".encode() + frame("bye", {"retry": retry_ms})
        for screen in self.screens.values():
            for phone in screen.phones:
                phone.give(bye, closing=True)

    # ------------------------------------------------------------------ the phones

    def admits(self, address: str, screen_topics: tuple[str, ...],
               key: tuple[str, str, str]) -> str:
        """"" when a new stream from ``address`` on the screen ``key`` (its normalised URL,
        language and session) is admitted, else why not."""
        if self.closing:
            return "closing"
        if self.phones >= settings.LIVE_MAX_CONNECTIONS:
            return "full"
        if self.per_address.get(address, 0) >= settings.LIVE_MAX_PER_ADDRESS:
            return "address"
        if any(self.per_topic.get((address, topic), 0) >= settings.LIVE_MAX_PER_ADDRESS_TOPIC
               for topic in screen_topics):
            return "topic"
        if key not in self.screens and any(
                len(self.by_topic.get(topic, ())) >= settings.LIVE_MAX_SCREENS_PER_TOPIC
                for topic in screen_topics):
            return "screens"
        return ""

    def enter(self, url: str, language: str, host: str, scheme: str,
              screen_topics: tuple[str, ...], phone: Phone, session: str = "") -> Screen:
        """Add ``phone`` to its screen, which is drawn when it is new here; then
        :meth:`ready` waits for that drawing. :meth:`leave` undoes it, whatever happens
        in between. A personal screen (``session``) is drawn for that session alone."""
        key = (url, language, session)
        screen = self.screens.get(key)
        if screen is None:
            assert self.loop is not None
            screen = Screen(url, language, host, scheme, screen_topics, session)
            self.screens[key] = screen
            for topic in screen_topics:
                self.by_topic.setdefault(topic, set()).add(screen)
            screen.drawing = self.loop.create_task(self._draw_and_send(screen))
        screen.phones.add(phone)
        self.phones += 1
        self.per_address[phone.address] = self.per_address.get(phone.address, 0) + 1
        for topic in screen_topics:
            pair = (phone.address, topic)
            self.per_topic[pair] = self.per_topic.get(pair, 0) + 1
        return screen

    async def ready(self, screen: Screen, phone: Phone) -> None:
        """The screen is drawn; ``phone`` has its fragment coming when its copy is another."""
        if screen.drawing is not None:
            # It gets what the drawing under way draws, given to it at its end.
            await asyncio.shield(screen.drawing)
        elif screen.event is not None:
            phone.give(screen.event, screen.etag)

    def leave(self, screen: Screen, phone: Phone) -> None:
        if phone in screen.phones:
            screen.phones.discard(phone)
            self.phones -= 1
            _less(self.per_address, phone.address)
            for topic in screen.topics:
                _less(self.per_topic, (phone.address, topic))
        if not screen.phones and screen.drawing is None:
            self._forget(screen)

    def _forget(self, screen: Screen) -> None:
        _cancel_overdue(screen)
        key = (screen.url, screen.language, screen.session)
        if self.screens.get(key) is screen:
            del self.screens[key]
        for topic in screen.topics:
            found = self.by_topic.get(topic)
            if found is not None:
                found.discard(screen)
                if not found:
                    del self.by_topic[topic]

    # ------------------------------------------------------------- hearing a change

    def heard(self, published: list[str], at: float) -> None:
        """Topics changed (published at ``at``): their screens are drawn again."""
        for topic in published:
            for screen in list(self.by_topic.get(topic, ())):
                screen.published = max(screen.published, at)
                self._redraw(screen)

    def _redraw(self, screen: Screen) -> None:
        if screen.drawing is not None:
            screen.again = True  # drawn again once this drawing ends: nothing is missed
            return
        assert self.loop is not None
        screen.drawing = self.loop.create_task(self._draw_and_send(screen))

    async def _draw_and_send(self, screen: Screen) -> None:
        try:
            while True:
                screen.again = False
                await self._draw(screen)
                if screen.status != 200:
                    gone = frame("gone", {"status": screen.status})
                    for phone in list(screen.phones):
                        phone.give(b"retry: 60000\n" + gone, closing=True)
                elif screen.event is not None:
                    for phone in screen.phones:
                        phone.give(screen.event, screen.etag)
                if not screen.again:
                    break
        finally:
            screen.drawing = None
            if not screen.phones:
                self._forget(screen)

    async def _draw(self, screen: Screen) -> None:
        assert self.loop is not None
        # This drawing reads the tokens afresh: a move the check saw is drawn by it.
        _cancel_overdue(screen)
        # The screen's tokens are read just before its drawing, in the same thread: the
        # check compares each screen with what it was drawn at, so it does not draw again
        # a change this drawing shows (it did: every save was drawn twice, by its publish
        # and again at the next check). A change made between the two reads is drawn now
        # or seen moving at the next check, never lost.
        now, drawn = await self.loop.run_in_executor(
            self.executor, _tokens_and_draw, screen.topics, screen.url, screen.language,
            screen.host, screen.scheme, screen.session)
        screen.tokens = {t: now.get(t, "") for t in screen.topics}
        self.draws += 1
        DRAWS.inc()
        screen.status = drawn.status
        if drawn.status == 200 and drawn.etag != screen.etag:
            screen.etag = drawn.etag
            screen.event = frame("change", {
                "etag": drawn.etag, "html": drawn.html,
                "published": screen.published, "drawn": time.time(),
            }, event_id=drawn.etag)

    # ------------------------------------------------------------ where news comes from

    async def _subscribe(self) -> None:
        """Redis pub/sub: every write of every server, as it commits. A Redis that hangs
        (stopped, not dead) keeps a subscription's socket open and silent: the hub pings
        it every second, and one that has said nothing for BUS_SILENCE seconds is given up
        (the check then reads the revisions every LIVE_CHECK_SECONDS) and tried again."""
        import redis.asyncio as aioredis

        delay = 0.5
        while not self.closing:
            client = aioredis.Redis.from_url(bus.redis_url(),
                                             socket_connect_timeout=BUS_TIMEOUT)
            try:
                async with client.pubsub() as pubsub:
                    await asyncio.wait_for(pubsub.subscribe(bus.channel()), BUS_TIMEOUT)
                    await self._listen(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.warning("live: Redis pub/sub lost (%s: %s); checking revisions "
                               "meanwhile", type(error).__name__, error)
                if self.redis_up:  # it had worked: try again soon
                    delay = 0.5
            finally:
                self.redis_up = False
                await client.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    async def _listen(self, pubsub: PubSub) -> None:
        assert self.loop is not None
        heard = pinged = self.loop.time()
        while not self.closing:
            message = await pubsub.get_message(timeout=BUS_PING / 4)
            now = self.loop.time()
            if message is not None:
                heard = now
                self.redis_up = True  # its answer to the subscription, a pong, a message
                if message.get("type") == "message":
                    self._read(message.get("data"))
            elif now - heard > BUS_SILENCE:
                raise TimeoutError(f"Redis said nothing for {BUS_SILENCE:g} s")
            if now - pinged >= BUS_PING:
                pinged = now
                await asyncio.wait_for(pubsub.ping(), BUS_TIMEOUT)

    def _read(self, data: str | bytes) -> None:
        try:
            message = json.loads(data)
            published = [str(t) for t in message["topics"]]
            at = float(message["at"])
        except (ValueError, KeyError, TypeError):
            logger.warning("live: a bus message that is not ours: %r", data)
            return
        self.heard(published, at)

    async def _check(self) -> None:
        """The revisions of the watched topics, every few seconds with Redis (a publish
        lost while it was down) and every half second without it."""
        while not self.closing:
            every = (settings.LIVE_SAFETY_SECONDS if self.redis_up
                     else settings.LIVE_CHECK_SECONDS)
            await asyncio.sleep(every)
            await self.check_once()

    async def check_once(self) -> None:
        """One look at the watched revisions: a screen whose tokens moved since its drawing
        is drawn HELD_GRACE later, unless a drawing (its publish's) came meanwhile."""
        assert self.loop is not None
        watched = list(self.by_topic)
        if not watched:
            return
        try:
            now = await self.loop.run_in_executor(self.executor, _tokens, watched)
        except Exception:
            logger.exception("live: the revisions could not be read")
            return
        for screen in list(self.screens.values()):
            if screen.drawing is None and screen.overdue is None and any(
                    now.get(t, "") != screen.tokens.get(t, "") for t in screen.topics):
                screen.overdue = self.loop.call_later(HELD_GRACE, self._overdue, screen)

    def _overdue(self, screen: Screen) -> None:
        """A move the check saw and no publish drew within HELD_GRACE: drawn now."""
        screen.overdue = None
        if self.screens.get((screen.url, screen.language, screen.session)) is screen:
            screen.published = max(screen.published, time.time())
            self._redraw(screen)


def _cancel_overdue(screen: Screen) -> None:
    if screen.overdue is not None:
        screen.overdue.cancel()
        screen.overdue = None


def _less(counts: dict[K, int], key: K) -> None:
    left = counts.get(key, 1) - 1
    if left:
        counts[key] = left
    else:
        counts.pop(key, None)


def _in_thread(work: Callable[..., T], *args: object) -> T:
    # A thread of the pool is a request of its own for the database's connections.
    close_old_connections()
    try:
        return work(*args)
    finally:
        close_old_connections()


def _tokens_and_draw(screen_topics: tuple[str, ...], url: str, language: str, host: str,
                     scheme: str, session: str) -> tuple[dict[str, str], render.Drawn]:
    return _in_thread(render.draw_with_tokens, screen_topics, url, language, host, scheme,
                      session)


def _tokens(watched: list[str]) -> dict[str, str]:
    return _in_thread(topics.tokens, watched)


#: This process's hub.
hub = Hub()
