"""A championship's public page and phase page are live screens (issue 32): their body in
a live part that polls ``?live=1`` (304 while the championship's stamp has not moved) and
that the streams draw once for every visitor; the organiser's page, with its forms, has
none."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.leagues import results
from muscore.live import topics
from tests.championships.factory import knockout_phase
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.mark.parametrize("which", ["page", "phase"])
def test_the_public_pages_live_part_polls_and_moves_with_a_result(which: str) -> None:
    championship, boss, phase = knockout_phase()
    url = (f"/campeonatos/{championship.pk}/" if which == "page"
           else f"/campeonatos/{championship.pk}/fases/{phase.pk}/")
    visitor = Client()
    page = visitor.get(url).content.decode()
    assert 'id="championship-live"' in page and f'hx-get="{url}?live=1"' in page
    assert topics.for_url(f"{url}?live=1") == (f"championship:{championship.pk}",)
    part = visitor.get(f"{url}?live=1", headers=HX)
    assert part.status_code == 200 and part["ETag"].endswith('-live"')
    html = part.content.decode()
    assert html.lstrip().startswith('<div id="championship-live"') and "<html" not in html
    same = visitor.get(f"{url}?live=1", headers={**HX, "If-None-Match": part["ETag"]})
    assert same.status_code == 304
    game = phase.groups.order_by("id").first()
    assert game is not None
    match = game.competition.matches.filter(first__isnull=False).order_by("number").first()
    assert match is not None
    results.record_result(match, by=boss, juegos=[1, 0])
    moved = visitor.get(f"{url}?live=1", headers={**HX, "If-None-Match": part["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != part["ETag"]


def test_the_organisers_page_has_no_live_part_under_its_forms() -> None:
    championship, boss, _phase = knockout_phase()
    page = logged_in(boss).get(f"/campeonatos/{championship.pk}/").content.decode()
    assert "<form" in page and 'id="championship-live"' not in page
