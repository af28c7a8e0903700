"""A board's live part drawn for the streams without the WSGI handler (issue 32): the same
status, ETag and HTML as its poll answers through the handler and its middleware, in every
state the board draws (a fresh table, hands, a redo offered, a vaca's end with a league's
result, the new vaca after it), on the view and the edit link, in each language; a wrong
key or an unknown table is a 404 either way. The tokens a drawing gives the stream
server's check are the table's revision as topics.tokens reads it."""

from __future__ import annotations

import re

import pytest

from muscore.leagues import competitions
from muscore.live import render, topics
from muscore.tables import services
from muscore.tables.models import Table
from tests.leagues.factory import liguilla
from tests.leagues.helpers import ORDAGO_A, PLAIN
from tests.tables.factory import make_table

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "testserver"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
LANGUAGES = ("es", "en", "eu", "fr")


def polls(table: Table) -> list[str]:
    return [f"/t/{table.pk}/?live=1", f"/t/{table.pk}/k/{table.edit_key}/?live=1",
            f"/t/{table.pk}/k/{table.edit_key}/?live=1&otra-vaca=1"]


def same_as_the_poll(url: str, language: str) -> render.Drawn:
    fast = render.draw(url, language, HOST, "http")
    slow = render.draw_by_handler(url, language, HOST, "http")
    assert (fast.status, fast.etag) == (slow.status, slow.etag), url
    # Each drawing has a CSRF token of its own (nobody's: live.js puts the page's in). A
    # refusal's page is no fragment: the streams tell the phones "gone".
    if slow.status == 200:
        assert CSRF.sub("T", fast.html) == CSRF.sub("T", slow.html), (url, language)
    return fast


def test_a_board_drawn_for_the_streams_is_its_polls_answer_in_every_state() -> None:
    table = make_table()
    seen = set()
    for step in ("new", "hands", "redo", "tap"):
        if step == "hands":
            for record in (PLAIN, ORDAGO_A, PLAIN):
                services.add_hand(table, record, via="api")
        elif step == "redo":
            services.undo_last(table, via="api")
        elif step == "tap":
            services.add_piedras(table, "B", 3, via="api")
        for url in polls(table):
            for language in LANGUAGES:
                drawn = same_as_the_poll(url, language)
                assert drawn.status == 200 and 'id="board-live"' in drawn.html
                seen.add(drawn.html.count('data-redo'))
    assert seen == {0, 1}  # the redo was offered at one step, on the edit link


def test_a_league_tables_vaca_end_with_its_result_is_its_polls_answer() -> None:
    competition, organiser = liguilla(4)
    match = competition.matches.order_by("number").first()
    assert match is not None
    table = competitions.open_table(match, by=organiser)
    for record in [PLAIN, ORDAGO_A, ORDAGO_A, ORDAGO_A]:  # 3 juegos: the vaca ends
        services.add_hand(table, record, via="edit_link")
    table.refresh_from_db()
    ends = [same_as_the_poll(url, language) for url in polls(table) for language in LANGUAGES]
    assert any('data-action="back"' in drawn.html for drawn in ends)  # the league's way back


def test_a_wrong_key_and_an_unknown_table_are_404_without_a_drawing() -> None:
    table = make_table()
    for url in (f"/t/{table.pk}/k/wrong/?live=1", "/t/nosuchtable/?live=1",
                "/t/nosuchtable/k/x/?live=1"):
        assert same_as_the_poll(url, "es").status == 404


def test_the_tokens_of_a_drawing_are_the_revision_the_check_reads() -> None:
    table = make_table()
    services.add_piedras(table, "A", 2, via="api")
    for url in polls(table):
        screen = topics.for_url(url)
        assert screen is not None
        tokens, drawn = render.draw_with_tokens(screen, url, "es", HOST, "http")
        assert drawn.status == 200 and tokens == topics.tokens(screen) == {
            f"table:{table.pk}": "2"}
