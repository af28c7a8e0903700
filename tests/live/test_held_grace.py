"""The check of the revisions waits for a held publish (issue 38.4): a save's publish is
held until the answer of the phone that saved is sent (muscore.bus.held), and the stream
server's check, reading the new revision between the commit and that answer, drew it for
the other phones first (the saver later than a watcher in 3 saves of 20). A move the check
sees is now drawn only once it has stood HELD_GRACE undrawn: drawn once, by its publish,
when the publish comes; by the check when none does (a publish lost).

The hub on its own event loop, its drawing and its reading of the tokens stood in for by
a table's revision in memory (what the drawing shows is the revision it read): the
timing is the hub's, and tests/live/test_streams.py has the same over real HTTP."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest

from muscore.live import hub as hub_module
from muscore.live.render import Drawn

TOPIC = "table:1"
GRACE = 0.3


class Table:
    """The revision the database holds, and every drawing made of it."""

    def __init__(self) -> None:
        self.revision = 1
        self.drawn: list[int] = []

    def tokens(self, watched: list[str]) -> dict[str, str]:
        return {topic: str(self.revision) for topic in watched}

    def draw(self, screen_topics: tuple[str, ...], *_: Any) -> tuple[dict[str, str], Drawn]:
        revision = self.revision
        self.drawn.append(revision)
        return ({t: str(revision) for t in screen_topics},
                Drawn(200, f'"r{revision}"', f'<div data-revision="{revision}"></div>'))


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    memory = Table()
    monkeypatch.setattr(hub_module, "_tokens", memory.tokens)
    monkeypatch.setattr(hub_module, "_tokens_and_draw", memory.draw)
    monkeypatch.setattr(hub_module, "HELD_GRACE", GRACE)
    yield memory


async def watching(table: Table) -> tuple[hub_module.Hub, hub_module.Screen, hub_module.Phone]:
    hub = hub_module.Hub()
    hub.loop = asyncio.get_running_loop()  # not started: no subscription, no check loop
    phone = hub_module.Phone("192.0.2.1")
    screen = hub.enter("/t/1/?live=1", "es", "testserver", "http", (TOPIC,), phone)
    await hub.ready(screen, phone)
    assert table.drawn == [1] and phone.pending is not None
    phone.pending = None
    return hub, screen, phone


async def settled(screen: hub_module.Screen) -> None:
    while screen.drawing is not None:
        await asyncio.sleep(0.01)


def revision_sent(phone: hub_module.Phone) -> int | None:
    if phone.pending is None:
        return None
    data = phone.pending.decode().split("data: ", 1)[1]
    return int(json.loads(data)["html"].split('"')[1])



def in_own_loop(story: Coroutine[object, object, None]) -> None:
    """asyncio.run in a thread of its own: a browser test run before in the same worker
    (Playwright's sync API) leaves an event loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, story).result()


def test_a_held_publish_draws_the_save_and_the_check_does_not(table: Table) -> None:
    async def story() -> None:
        hub, screen, phone = await watching(table)
        table.revision = 2  # the save commits; its publish waits for the saver's answer
        await hub.check_once()  # the check reads revision 2 meanwhile
        await asyncio.sleep(GRACE / 2)
        assert table.drawn == [1] and phone.pending is None  # the watchers not told yet
        hub.heard([TOPIC], 0.0)  # the saver's answer sent: the publish
        await settled(screen)
        assert table.drawn == [1, 2] and revision_sent(phone) == 2
        await asyncio.sleep(GRACE)
        assert table.drawn == [1, 2]  # drawn once: the check's drawing was called off
        assert screen.overdue is None

    in_own_loop(story())


def test_a_move_no_publish_draws_is_drawn_by_the_check_after_the_grace(table: Table) -> None:
    async def story() -> None:
        hub, screen, phone = await watching(table)
        table.revision = 2  # written by a server whose publish was lost
        await hub.check_once()
        await hub.check_once()  # a second look schedules nothing more
        await asyncio.sleep(GRACE / 2)
        assert table.drawn == [1] and phone.pending is None
        await asyncio.sleep(GRACE)
        await settled(screen)
        assert table.drawn == [1, 2] and revision_sent(phone) == 2
        phone.pending = None
        await hub.check_once()  # nothing moved since that drawing
        await asyncio.sleep(GRACE * 1.5)
        assert table.drawn == [1, 2] and phone.pending is None

    in_own_loop(story())


def test_a_screen_left_before_the_grace_is_not_drawn(table: Table) -> None:
    async def story() -> None:
        hub, screen, phone = await watching(table)
        table.revision = 2
        await hub.check_once()
        hub.leave(screen, phone)
        assert screen.overdue is None and not hub.screens
        await asyncio.sleep(GRACE * 1.5)
        assert table.drawn == [1]

    in_own_loop(story())
