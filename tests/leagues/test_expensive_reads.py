"""Reads that cost seconds when nothing is kept (issue 21 point 1): a league's export and
its cards are made once per revision and kept, and they, the CSV files and the cards are
limited per client address (the "export" group: 429 with Retry-After)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from muscore.leagues import card, documents, results
from muscore.leagues.models import Competition, Match
from tests.clubs.factory import make_club, make_league

from .test_tv_card import card_url, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def competition() -> Competition:
    cache.clear()
    made: Competition = make_league(make_club(), pairs=4, groups=1, results=3)
    return made


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Count the calls of owner.name."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def a_new_result(competition: Competition) -> None:
    match = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert match is not None
    results.record_result(match, by=organiser(competition), juegos=[3, 1])


def test_the_export_is_made_once_per_revision(monkeypatch: pytest.MonkeyPatch,
                                              competition: Competition) -> None:
    made = counted(monkeypatch, documents, "league_document")
    url = f"/api/v1/leagues/{competition.pk}/export"
    first = Client().get(url)
    again = Client().get(url)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and len(made) == 1
    a_new_result(competition)
    after = Client().get(url)
    assert len(made) == 2 and after.content != first.content
    assert after.json()["matches"] != first.json()["matches"]


@pytest.mark.parametrize("kind", ["png", "txt", "json"])
def test_a_card_is_drawn_once_per_revision(monkeypatch: pytest.MonkeyPatch,
                                           competition: Competition, kind: str) -> None:
    drawn = counted(monkeypatch, card, "round_night")
    url = card_url(competition, 1, kind)
    first = Client().get(url)
    again = Client().get(url)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and first["Content-Type"] == again["Content-Type"]
    assert first["Content-Disposition"] == again["Content-Disposition"]
    assert len(drawn) == 1
    a_new_result(competition)
    assert Client().get(url).status_code == 200 and len(drawn) == 2
    # Another host is another card (its text carries the competition's address).
    Client().get(url, HTTP_HOST="127.0.0.1")
    assert len(drawn) == 3
    # A round that does not exist is still a 404.
    assert Client().get(card_url(competition, 99, kind)).status_code == 404


def test_expensive_reads_are_limited_per_address(settings: Any,
                                                 competition: Competition) -> None:
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {**settings.MUSCORE_RATE_LIMITS, "export": ["4/h"]}
    cache.clear()
    client = Client()
    ip = "203.0.113.77"
    urls = [f"/api/v1/leagues/{competition.pk}/export",
            f"/api/v1/leagues/{competition.pk}/standings.csv",
            f"/api/v1/leagues/{competition.pk}/matches.csv",
            card_url(competition, 1, "png")]
    assert [client.get(u, REMOTE_ADDR=ip).status_code for u in urls] == [200] * 4
    api = client.get(urls[0], REMOTE_ADDR=ip)
    assert api.status_code == 429 and int(api["Retry-After"]) > 0 and "error" in api.json()
    page = client.get(urls[3], REMOTE_ADDR=ip)
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    # Another address is not held back, nor are the cheap reads (the league's document).
    assert client.get(urls[1], REMOTE_ADDR="203.0.113.78").status_code == 200
    assert client.get(f"/api/v1/leagues/{competition.pk}", REMOTE_ADDR=ip).status_code == 200
    cache.clear()


def test_the_exports_tables_read_in_batches_give_what_one_by_one_gives() -> None:
    from muscore.leagues.documents import table_vaca, table_vacas
    from muscore.tables import services as tables
    from tests.tables.factory import make_hands, make_record, make_table

    from .helpers import ORDAGO_A, ORDAGO_B, PLAIN

    two = make_table(rules={"juegos": 1})  # one-juego vacas: every order a vaca of its own
    make_hands(two, [ORDAGO_A, ORDAGO_B, PLAIN])
    open_one = make_table()  # a vaca not finished yet
    make_hands(open_one, [make_record()])
    empty = make_table()
    won = make_table(mano=2, rules={"juegos": 3})
    make_hands(won, [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A, PLAIN])
    behind = make_table(rules={"juegos": 1})
    make_hands(behind, [ORDAGO_B, PLAIN])
    type(behind).objects.filter(pk=behind.pk).update(replayed_revision=0)  # loaded by hand
    ids = [t.id for t in (two, open_one, empty, won, behind)]
    one_by_one = {t: table_vaca(t) for t in ids}
    assert one_by_one[two.id] is not None and one_by_one[empty.id] is None
    assert table_vacas(ids) == one_by_one
    assert tables.table_state(won)["finished"]
