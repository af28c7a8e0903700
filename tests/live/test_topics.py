"""What a write publishes and which screens listen (issue 32), in process.

Every live screen's poll URL has its topics; nothing else has a stream. A table's write,
a league result and a championship's change publish their topics once committed, and a
rolled-back write publishes nothing. The revisions the stream servers check move with
every write, so a lost publish is caught up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import transaction
from django.test import Client

from muscore import bus
from muscore.championships import kept
from muscore.leagues import results
from muscore.live import topics
from muscore.tables import services
from tests.championships.factory import knockout_phase
from tests.leagues.factory import liguilla
from tests.tables.factory import make_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def heard() -> Iterator[list[str]]:
    found: list[str] = []

    def listener(published: list[str], at: float) -> None:
        found.extend(published)

    bus.listen(listener)
    try:
        yield found
    finally:
        bus.unlisten(listener)


def test_a_held_block_tells_the_others_when_it_ends_after_its_answer_is_drawn(
    heard: list[str], client: Client,
) -> None:
    """Issue 38.4: the board drawn for the phone that saved comes before the other phones
    are told; inside bus.held() the commit's topics wait for the block's end."""
    table = make_table()
    with bus.held():
        services.add_piedras(table, "A", 2, via="api")
        assert heard == []  # committed, not yet told
    assert heard == [f"table:{table.pk}"]
    heard.clear()
    with pytest.raises(RuntimeError), bus.held():
        services.add_piedras(table, "B", 1, via="api")
        raise RuntimeError("the answer could not be drawn")
    assert heard == [f"table:{table.pk}"]  # told all the same: the write stands
    # The hand page's save, through the view: the board answered, the others told once
    # its page says it shows it (Muscore-Shown, static/js/muscore.js), not before.
    heard.clear()
    cards = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
    answer = client.post(f"/t/{table.id}/k/{table.edit_key}/mano", {**cards, "act": "save"},
                         headers={"HX-Request": "true"})
    assert answer.status_code == 200 and answer["Muscore-Saved"] == "1"
    assert heard == []  # the answer closed, its page not drawn yet
    assert client.post(answer["Muscore-Shown"]).status_code == 204
    assert heard == [f"table:{table.pk}"]
    assert client.post(answer["Muscore-Shown"]).status_code == 204  # a second word: nothing
    assert client.post("/mostrado/forged").status_code == 204
    assert heard == [f"table:{table.pk}"]
    assert client.get(answer["Muscore-Shown"]).status_code == 405
    # Held for a response: kept when it is closed (sent by the WSGI server), told when
    # its page shows it.
    heard.clear()

    class Answer:
        closed = False

        def close(self) -> None:
            self.closed = True

    sent = Answer()
    with bus.held() as told:
        services.add_piedras(table, "A", 1, via="api")
        token = told.after(sent)
    assert heard == [] and not sent.closed
    sent.close()
    assert heard == [] and sent.closed
    assert bus.shown(token) and heard == [f"table:{table.pk}"]
    assert not bus.shown(token) and heard == [f"table:{table.pk}"]


def test_a_save_whose_page_never_says_it_shows_it_is_told_after_shown_wait(
    heard: list[str], client: Client, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A saver's page that never says it shows its board (closed, its script dead) holds
    the other phones bus.SHOWN_WAIT after its answer, no longer; its word after that
    sends nothing again."""
    monkeypatch.setattr(bus, "SHOWN_WAIT", 0.3)
    table = make_table()
    cards = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
    answer = client.post(f"/t/{table.id}/k/{table.edit_key}/mano", {**cards, "act": "save"},
                         headers={"HX-Request": "true"})
    assert answer.status_code == 200 and heard == []
    for _ in range(50):
        if heard:
            break
        time.sleep(0.05)
    assert heard == [f"table:{table.pk}"]
    client.post(answer["Muscore-Shown"])
    time.sleep(0.4)
    assert heard == [f"table:{table.pk}"]


def test_the_savers_word_heard_by_another_server_is_claimed_once_through_the_cache(
    heard: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Several page servers share a Redis cache: the saver's word may reach a server
    that did not save. It sends the topics kept in the cache, and the saving server's
    timer, finding them claimed, sends nothing (the cache's delete is the claim)."""
    monkeypatch.setattr(bus, "SHOWN_WAIT", 0.2)
    monkeypatch.setattr(bus, "_shared_cache", lambda: True)
    table = make_table()

    class Answer:
        def close(self) -> None:
            pass

    sent = Answer()
    with bus.held() as told:
        services.add_piedras(table, "A", 1, via="api")
        token = told.after(sent)
    sent.close()
    with bus._pending_lock:
        bus._pending.pop(token)  # this server's own memory of it: on the other server
    assert heard == []
    assert bus.shown(token) and heard == [f"table:{table.pk}"]
    bus._pending[token] = [[f"table:{table.pk}"]]  # the saving server's timer, later
    bus._overdue(token)
    assert heard == [f"table:{table.pk}"] and token not in bus._pending


def test_every_live_screen_has_its_topics_and_nothing_else_has_a_stream() -> None:
    assert topics.for_url("/t/abc/?live=1") == ("table:abc",)
    assert topics.for_url("/t/abc/k/key/?live=1") == ("table:abc",)
    assert topics.for_url("/club/bar/tv/?liga=7&live=1") == ("competition:7",)
    assert topics.for_url("/club/bar/tv/?live=1") == ()
    assert topics.for_url("/campeonatos/3/") == ("championship:3",)
    assert topics.for_url("/campeonatos/3/fases/4/tv/") == ("championship:3",)
    for url in ("/", "/clubs/", "/api/v1/tables/abc", "/t/abc/k/key/mano", "//evil.example/t/a/",
                "https://evil.example/t/a/", "t/abc/", "/campeonatos/3/jugador/"):
        assert topics.for_url(url) is None, url


def test_a_table_write_publishes_its_topic_once_committed(heard: list[str]) -> None:
    table = make_table()
    with transaction.atomic():
        services.add_piedras(table, "A", 2, via="api")
        assert heard == []  # not before the commit
    assert heard == [f"table:{table.pk}"]


def test_a_rolled_back_write_publishes_nothing(heard: list[str]) -> None:
    table = make_table()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.add_piedras(table, "A", 2, via="api")
        raise RuntimeError("the request failed after the write")
    assert heard == []


def test_a_league_result_publishes_its_competition(heard: list[str]) -> None:
    competition, user = liguilla(4)
    match = competition.matches.order_by("number").first()
    assert match is not None
    before = topics.tokens([f"competition:{competition.pk}"])
    results.record_result(match, by=user, juegos=[3, 1])
    assert f"competition:{competition.pk}" in heard
    assert topics.tokens([f"competition:{competition.pk}"]) != before


def test_a_championship_game_and_a_championship_change_publish_the_championship(
    heard: list[str],
) -> None:
    championship, boss, phase = knockout_phase()
    topic = f"championship:{championship.pk}"
    assert topic in heard  # drawn: its revision moved
    heard.clear()
    game = (phase.groups.order_by("id").first())
    assert game is not None
    match = game.competition.matches.filter(first__isnull=False).order_by("number").first()
    assert match is not None
    before = topics.tokens([topic])
    results.record_result(match, by=boss, juegos=[1, 0])
    assert topic in heard
    assert topics.tokens([topic]) != before
    heard.clear()
    kept.touch(championship.pk)
    assert heard == [topic]


def test_the_revisions_checked_are_the_tables_own() -> None:
    table = make_table()
    topic = f"table:{table.pk}"
    assert topics.tokens([topic, "table:nosuch"]) == {topic: str(table.revision)}
    services.add_piedras(table, "B", 1, via="api")
    table.refresh_from_db()
    assert topics.tokens([topic]) == {topic: str(table.revision)}


def test_the_organisers_night_is_drawn_for_the_watchers_session_alone() -> None:
    from django.test import Client

    from muscore.live import render
    from muscore.live.stream import _session
    from tests.clubs.factory import make_club, make_user

    user = make_user("noche")
    club = make_club("Bar Noche", organiser=user)
    url = f"/club/{club.slug}/noche/?live=1"
    assert topics.for_url(url) == (f"club:{club.slug}",) and topics.is_personal(url)
    assert not topics.is_personal("/t/abc/?live=1")
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    assert _session({"cookie": f"csrftoken=x; sessionid={session}"}) == session
    drawn = render.draw(url, "es", "testserver", "http", session)
    assert drawn.status == 200 and drawn.etag and 'id="night-live"' in drawn.html
    assert render.draw(url, "es", "testserver", "http").status in (302, 403)  # nobody's
    assert render.draw(url, "en", "testserver", "http", session).etag != drawn.etag


def test_a_league_result_publishes_its_clubs_night(heard: list[str]) -> None:
    competition, user = liguilla(4)
    match = competition.matches.order_by("number").first()
    assert match is not None
    results.record_result(match, by=user, juegos=[3, 0])
    assert f"club:{competition.club.slug}" in heard
