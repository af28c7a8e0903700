"""The championship's long lists come a page at a time: its venues by region and 25 a
page, a venue's entries 25 a page, and a phase's groups on the phase's own page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Value
from django.db.models.functions import Concat
from django.test import Client
from django.urls import reverse

from muscore.championships import pages
from tests.championships.factory import drawn_semifinal, knockout_phase, small_championship

pytestmark = pytest.mark.django_db


def venue_rows(html: str) -> list[str]:
    table = html.split("data-sedes", 1)[1].split("</table>", 1)[0]
    return re.findall(r'<td class="name"><a href="[^"]+">([^<]+)</a>', table)


def test_the_venues_come_25_a_page_and_by_region() -> None:
    bars = [(f"Bar {n:02d}", 2) for n in range(pages.PER_PAGE + 2)]
    championship, _boss, _barmen = small_championship(seats=10, bars=bars)
    home = reverse("championships:detail", args=[championship.pk])
    first = Client().get(home).text
    assert venue_rows(first) == [name for name, _n in bars[:pages.PER_PAGE]]
    assert "Página 1 de 2" in first and 'rel="next"' in first
    second = Client().get(home + "?pagina=2").text
    assert venue_rows(second) == ["Bar 25", "Bar 26"]
    # The factory puts every other bar in Gipuzkoa, the rest in no region.
    region = championship.regions.get()
    page = Client().get(home + f"?region={region.pk}").text
    assert venue_rows(page) == [name for name, _n in bars[::2]]
    assert "data-regions" in page and "Sin región" in page
    assert venue_rows(Client().get(home + "?region=0").text) == [
        name for name, _n in bars[1::2]]
    # A page past the last, or not a number, is the last or the first.
    assert venue_rows(Client().get(home + "?pagina=99").text) == ["Bar 25", "Bar 26"]
    assert Client().get(home + "?pagina=x&region=y").status_code == 200


def test_a_venues_entries_come_25_a_page() -> None:
    championship, _boss, _barmen = small_championship(bars=[("Bar Txoko", 27)])
    sede = championship.sedes.get()
    url = reverse("championships:sede", args=[championship.pk, sede.pk])
    first, second = Client().get(url).text, Client().get(url + "?pagina=2").text
    assert first.count('data-status="entered"') == 25 and "Página 1 de 2" in first
    assert second.count('data-status="entered"') == 2 and "Bar Txoko 27" in second


def test_a_phase_page_shows_its_groups_and_a_knockout_its_bracket() -> None:
    championship, _boss, _barmen, phase = drawn_semifinal()
    page = Client().get(reverse("championships:phase", args=[championship.pk, phase.pk]))
    assert page.status_code == 200 and page.text.count("data-group") == 2
    assert "Sorteo con la semilla «s»" in page.text
    # The factory's users have fixed names: the first championship's are renamed.
    get_user_model().objects.update(username=Concat("username", Value("-1")))
    other, _boss, final = knockout_phase()
    page = Client().get(reverse("championships:phase", args=[other.pk, final.pk]))
    assert page.status_code == 200 and "data-bracket" in page.text
    assert Client().get(reverse("championships:phase", args=[other.pk, phase.pk])
                        ).status_code == 404


def test_a_phase_of_many_groups_is_a_link_on_the_championships_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    championship, _boss, _barmen, phase = drawn_semifinal()
    monkeypatch.setattr(pages, "INLINE_GROUPS", 1)
    monkeypatch.setattr(pages.phase_views, "__kwdefaults__", {"inline": 1})
    cache.clear()  # the page kept before the patch (a new release has a key of its own)
    page = Client().get(reverse("championships:detail", args=[championship.pk])).text
    assert "data-phase-link" in page and "Ver sus 2 grupos" in page and "data-group" not in page
