"""Issue 38 point 9 on the clubs' and championships' side: "Torneo a 1 cero", the colon as
French writes it ("Journée 1 :", "Champions :", "Réserves :", "Table 1 :"), a
championship's player page without a name has a heading and a search, the club's TV
has a description."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore.leagues import card, pages
from tests.championships.factory import drawn_semifinal
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"


def test_one_cero_is_singular() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    competition.format, competition.ceros = "ceros", 1
    assert pages.format_text(competition) == "Torneo a 1 cero"
    competition.ceros = 3
    assert pages.format_text(competition) == "Torneo a 3 ceros"


def test_the_cards_colons_are_french_in_french() -> None:
    club = make_club()
    league = make_league(club, 4, results=2)
    night = card.round_night(league, 1)
    assert night is not None
    spanish = card.card_text(night, "https://x/")
    assert re.search(r"\nMesa \d+: ", spanish) and f"{NBSP}:" not in spanish
    with translation.override("fr"):
        french = card.card_text(card.round_night(league, 1), "https://x/")  # type: ignore[arg-type]
    tables = re.findall(r"\nTable \d+(.):", french)
    assert tables and set(tables) == {NBSP}, french
    assert not re.search(r"\w:", french.replace("https:", "")), french


def test_the_championships_labels_take_the_french_colon() -> None:
    championship, _boss, _barmen, _phase = drawn_semifinal()
    url = reverse("championships:detail", args=[championship.pk])
    client = Client()
    client.cookies["django_language"] = "fr"
    page = client.get(url).content.decode()
    spanish = Client().get(url).content.decode()
    for word, french in (("Reservas", "Réserves"), ("Campeones", "Champions")):
        if f"{word}:" in spanish:
            assert f"{french}{NBSP}:" in page, french


def test_a_championship_player_page_without_a_name_has_a_heading_and_a_search() -> None:
    championship, _boss, _barmen, _phase = drawn_semifinal()
    page = Client().get(reverse("championships:player", args=[championship.pk])).content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert heading is not None and heading.group(1).strip() == "El camino de un jugador"
    assert 'name="nombre"' in page and "Nadie llamado" not in page


def test_the_club_tv_has_a_description() -> None:
    club = make_club("Bar Txoko")
    make_league(club, 4, results=1)
    page = Client().get(f"/club/{club.slug}/tv/").content.decode()
    description = re.search(r'<meta name="description" content="([^"]*)"', page)
    assert description is not None and "Bar Txoko" in description.group(1)
