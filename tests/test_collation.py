"""Names sorted as Spanish does (issue 17.8): not byte-wise (Órdago last, Itziar before
Iñaki), accents and case aside, ñ its own letter after n."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from muscore.clubs.models import Player
from muscore.text import sorted_by_name
from tests.clubs.factory import make_club, make_pair

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize(("names", "expected"), [
    (["Órdago", "Zuri", "Olatz"], ["Olatz", "Órdago", "Zuri"]),
    (["Itziar", "Iñaki"], ["Iñaki", "Itziar"]),
    (["Iñaki", "Inza", "Io"], ["Inza", "Iñaki", "Io"]),
    (["Beñat", "Benito"], ["Benito", "Beñat"]),
    (["álvaro", "Ana", "alberto"], ["alberto", "álvaro", "Ana"]),
    (["Ñaki", "Nuria", "Oier"], ["Nuria", "Ñaki", "Oier"]),
])
def test_spanish_order(names: list[str], expected: list[str]) -> None:
    assert sorted_by_name(names) == expected


@pytest.mark.django_db
def test_the_club_page_lists_players_and_pairs_in_spanish_order() -> None:
    club = make_club()
    for one, two in [("Órdago", "Zuri"), ("Itziar", "Jon"), ("Iñaki", "Koldo"),
                     ("Ana", "Álvaro")]:
        make_pair(club, one, two)
    html = Client().get(f"/club/{club.slug}/").content.decode()
    pairs = re.findall(r'<span class="pair-name">([^<]+)</span>', html)
    assert pairs == ["Ana y Álvaro", "Iñaki y Koldo", "Itziar y Jon", "Órdago y Zuri"]
    names = [p.name for p in Player.objects.all()]
    positions = [html.index(f">{name}<") for name in sorted_by_name(names)]
    assert positions == sorted(positions)
