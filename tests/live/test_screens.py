"""A stream's screen is the page it shows, not the text of its URL (issue 40).

A stream's screen was its ``u`` with the raw query, so ``u=/t/ID/?live=1&x=N`` five hundred
times (one address could hold 2,000 streams) made one save cost 500 drawings and the
table's real phones heard it 1.5 s late. Now ``u`` is normalised (muscore.live.topics
.screen: the path as the URL conf writes it, the query its view reads, ``live=1``), one
address holds LIVE_MAX_PER_ADDRESS_TOPIC streams of one table, and a server draws at
most LIVE_MAX_SCREENS_PER_TOPIC versions of one topic's pages. Over real HTTP: uvicorn on
a SQLite file, behind a "proxy" (the addresses are X-Forwarded-For's).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from muscore.live import topics
from tests.live.sse import Stream
from tests.live.test_streams import draws, new_table, piedras, view_poll
from tests.multiserver.servers import Server, Uvicorn, running

MADE_UP = 500
ADDRESSES = 10  # 50 streams each: LIVE_MAX_PER_ADDRESS_TOPIC, the most one address holds
HEARD_LIMIT = 0.5


@pytest.fixture
def streams(sqlite_env: dict[str, str], tmp_path: Path) -> Iterator[Server]:
    env = {**sqlite_env, "MUSCORE_BEHIND_PROXY": "true", "LIVE_MAX_SCREENS_PER_TOPIC": "4"}
    with running(Uvicorn(env, tmp_path / "uvicorn")) as (server,):
        yield server


def from_address(n: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"198.51.100.{n}"}


def drawn_as(url: str) -> str:
    found = topics.screen(url)
    assert found is not None, url
    return found.url


def test_a_page_is_one_screen_whatever_else_its_url_carries() -> None:
    assert topics.screen("/t/abc/?live=1&x=17&live=0&utm=1") == topics.screen("/t/abc/")
    assert topics.screen("/t/abc/") == ("/t/abc/?live=1", ("table:abc",), False)
    assert topics.screen("/t/%61bc/?live=1") == topics.screen("/t/abc/?live=1")
    assert drawn_as("/t/abc/?otra-vaca=1&x=2") == "/t/abc/?otra-vaca=1&live=1"
    assert drawn_as("/t/abc/k/KEY/?a=1") == "/t/abc/k/KEY/?live=1"
    assert drawn_as("/club/bar/tv/?liga=07&junk=1") == "/club/bar/tv/?liga=7&live=1"
    assert drawn_as("/club/bar/tv/?liga=x") == "/club/bar/tv/?live=1"
    assert drawn_as("/campeonatos/3/?pagina=2&region=5&z=9") == (
        "/campeonatos/3/?region=5&pagina=2&live=1")
    night = topics.screen("/club/bar/noche/?live=1")
    assert night is not None and night.personal
    assert topics.screen("/t/abc/historial") is None


def test_a_screen_at_a_languages_address_stays_at_it() -> None:
    # muscore.addresses: /en/, /eu/, /fr/ are pages of their own, Spanish's has no prefix;
    # the drawing's links are the polled language's, whatever language drew last.
    assert topics.screen("/en/t/abc/?x=1") == ("/en/t/abc/?live=1", ("table:abc",), False)
    assert drawn_as("/fr/t/abc/k/KEY/") == "/fr/t/abc/k/KEY/?live=1"
    assert drawn_as("/eu/campeonatos/3/?pagina=2") == "/eu/campeonatos/3/?pagina=2&live=1"
    assert drawn_as("/t/abc/") == "/t/abc/?live=1"
    assert topics.screen("/de/t/abc/") is None and topics.screen("/es/t/abc/") is None


def test_five_hundred_made_up_screens_of_one_table_cost_a_save_one_drawing(
    streams: Server,
) -> None:
    table = new_table(streams)
    phone = Stream(streams.url, view_poll(table), headers=from_address(200))
    made_up: list[Stream] = []
    try:
        assert phone.until("change") is not None
        for n in range(MADE_UP):
            made_up.append(Stream(streams.url, f"{view_poll(table)}&x={n}",
                                  headers=from_address(1 + n % ADDRESSES)))
        assert [s.status for s in made_up] == [200] * MADE_UP
        time.sleep(0.6)  # the checks of the revisions find nothing moved
        before = draws(streams)
        piedras(streams, table, 1, "five-hundred")
        saved = time.monotonic()
        event = phone.until("change", timeout=5)
        heard = time.monotonic() - saved
        time.sleep(0.6)
        drawn = draws(streams) - before
        print(f"\n{MADE_UP} made-up screens of one table from {ADDRESSES} addresses: a save drew "
              f"{drawn:g} screen(s) (limit 1); the table's phone heard it in "
              f"{heard * 1000:.0f} ms (limit {HEARD_LIMIT * 1000:.0f})")
        assert event is not None and 'data-revision="2"' in event.json()["html"]
        assert drawn == 1
        assert heard < HEARD_LIMIT
        # Every one of them has the fragment too: one drawing, sent to all.
        assert made_up[-1].until("change", timeout=2) is not None
    finally:
        for stream in [phone, *made_up]:
            stream.close()


def test_one_address_holds_a_bounded_number_of_streams_of_one_table(streams: Server) -> None:
    table, other = new_table(streams), new_table(streams)
    held = [Stream(streams.url, view_poll(table), headers=from_address(7)) for _ in range(50)]
    try:
        assert {s.status for s in held} == {200}
        refused = Stream(streams.url, view_poll(table), headers=from_address(7))
        assert refused.status == 429 and refused.response_headers.get("retry-after")
        refused.close()
        # The same address on another table, another address on this one: admitted.
        for url, address in ((view_poll(other), 7), (view_poll(table), 8)):
            admitted = Stream(streams.url, url, headers=from_address(address))
            assert admitted.status == 200, (url, address)
            admitted.close()
    finally:
        for stream in held:
            stream.close()


def test_a_server_draws_a_bounded_number_of_versions_of_one_tables_pages(
    streams: Server,
) -> None:
    # LIVE_MAX_SCREENS_PER_TOPIC=4 here: the view link and the edit link in two languages.
    table = new_table(streams)
    edit = f"/t/{table['id']}/k/{table['edit_key']}/?live=1"
    held = [Stream(streams.url, url, language=language, headers=from_address(9))
            for url in (view_poll(table), edit) for language in ("es", "en")]
    try:
        assert {s.status for s in held} == {200}
        fifth = Stream(streams.url, view_poll(table), language="fr", headers=from_address(9))
        assert fifth.status == 503  # the page polls instead
        fifth.close()
        # A version already drawn takes more phones, from anywhere.
        again = Stream(streams.url, f"{view_poll(table)}&x=1", language="en",
                       headers=from_address(10))
        assert again.status == 200
        again.close()
    finally:
        for stream in held:
            stream.close()
