"""Issue 36 point 6 on the championships' side: the knockout hall's screen says the ties
and rounds in play, not "3 grupos en juego", in each language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from muscore.leagues.models import Competition
from tests.championships.factory import knockout_phase, play_all

pytestmark = pytest.mark.django_db

#: What the hall says of the quarterfinals' two ties (6 pairs: the 2 best seeds' byes).
QUARTERFINALS = {
    "es": "Cuartos de final · 2 eliminatorias en juego",
    "en": "Quarterfinals · 2 ties in play",
    "eu": "Final-laurdenak · 2 kanporaketa jokoan",
    "fr": "Quarts de finale · 2 rencontres en jeu",
}


def in_play(url: str, language: str) -> str:
    page = Client().get(url, headers={"Accept-Language": language})
    assert page.status_code == 200
    assert "grupos en juego" not in page.text and "grupo en juego" not in page.text
    head = page.text.split("data-in-play>", 1)
    return head[1].split("</p>", 1)[0] if len(head) == 2 else ""


def test_the_knockout_hall_says_the_ties_in_play_not_groups() -> None:
    championship, boss, phase = knockout_phase(third_place=True)
    url = reverse("championships:tv", args=[championship.pk, phase.pk])
    for language, said in QUARTERFINALS.items():
        assert in_play(url, language) == said, language
    for game in list(phase.groups.select_related("competition")):
        play_all(game.competition, boss)  # the quarterfinals
    assert in_play(url, "es") == "Semifinales · 2 eliminatorias en juego"
    for game in phase.groups.filter(round=2).select_related("competition"):
        play_all(game.competition, boss)
    assert in_play(url, "es") == "Final, Tercer puesto · 2 eliminatorias en juego"
    games = phase.groups.exclude(competition__status=Competition.Status.FINISHED)
    play_all(games.get(order=1).competition, boss)  # the third place
    assert in_play(url, "es") == "Final · 1 eliminatoria en juego"
    assert in_play(url, "en") == "Final · 1 tie in play"
    play_all(games.get().competition, boss)
    assert in_play(url, "es") == ""  # the champion instead
