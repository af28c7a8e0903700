"""Issue 36 point 6 on the championships' side: the knockout hall's screen says the ties
and rounds in play, not "3 grupos en juego"; a refusal about a knockout game that is
locked names the championship, the phase and the game, and says one thing or several
depending on it as each language does."""

from __future__ import annotations

import pytest
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore.championships.models import Phase
from muscore.leagues import confirmations, results
from muscore.leagues.changes import CompetitionError
from muscore.leagues.models import Match, ResultRow
from muscore.leagues.models.knockout import game_title
from muscore.leagues.results import bracket
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
    play_round(phase, 1, boss)  # the quarterfinals
    assert in_play(url, "es") == "Semifinales · 2 eliminatorias en juego"
    play_round(phase, 2, boss)
    assert in_play(url, "es") == "Final, Tercer puesto · 2 eliminatorias en juego"
    games = games_of(phase).unplayed()
    play_all(games.get(tie__order=1), boss)  # the third place
    assert in_play(url, "es") == "Final · 1 eliminatoria en juego"
    assert in_play(url, "en") == "Final · 1 tie in play"
    play_all(games.get(), boss)
    assert in_play(url, "es") == ""  # the champion instead


#: The word of one thing depending on a result, and of several, in each language.
DEPENDS = {"es": ("depende «", "dependen «"), "en": ("depends on", "depend on"),
           "eu": ("mende dago", "mende daude"), "fr": ("dépend", "dépendent")}


def games_of(phase: Phase) -> QuerySet[Match]:
    return Match.objects.filter(competition__phase_group__phase=phase, tie__isnull=False)


def game_match(phase: Phase, round: int) -> Match:
    """The round's first game played (a bye has none)."""
    game = (games_of(phase).filter(tie__round=round).select_related("competition", "tie")
            .order_by("tie__order", "game").first())
    assert game is not None
    return game


def play_round(phase: Phase, round: int, boss: object) -> None:
    for game in games_of(phase).filter(tie__round=round).unplayed().order_by("number"):
        play_all(game, boss)


def refusals(match: Match, boss: object, language: str) -> list[str]:
    """What the organiser's correction and a pair's link say, flipping `match`'s winner."""
    said = []
    assert match.outcome is not None
    flipped = [0, 1] if match.outcome.juegos[0] else [1, 0]
    with translation.override(language):
        try:
            results.record_result(match, by=boss, juegos=flipped, reason="acta")
        except results.CompetitionError as error:
            said.append(str(error))
        try:
            confirmations.claim(match, side=1, juegos=flipped)
        except confirmations.ClaimForbidden as error:
            said.append(str(error))
    assert len(said) == 2, said
    return said


def test_a_locked_knockout_games_refusals_name_the_championship_and_agree_in_number() -> None:
    championship, boss, phase = knockout_phase(third_place=True)
    play_round(phase, 1, boss)
    play_round(phase, 2, boss)
    quarter = game_match(phase, 1)
    before = quarter.outcome
    semifinal = game_match(phase, 2)
    for language, (one, several) in DEPENDS.items():
        for message in refusals(quarter, boss, language):  # its semifinal depends on it
            assert championship.name in message and phase.name in message, message
            assert one in message and several not in message, (language, message)
            with translation.override(language):
                assert game_title(semifinal.competition, semifinal.tie, semifinal.game
                                  ) in message, message
    play_round(phase, 3, boss)  # the final and the third place: both depend on a semifinal
    for language, (_one, several) in DEPENDS.items():
        for message in refusals(semifinal, boss, language):
            assert championship.name in message and several in message, (language, message)
            assert message.count("«") == 2, message
    assert Match.objects.get(pk=quarter.pk).outcome == before


def test_a_correction_that_changes_a_played_games_pairs_names_the_championship() -> None:
    """The knockout's own guard, behind the result's doors: a quarterfinal's winner changed
    under a semifinal already played is refused naming it and its championship."""
    championship, boss, phase = knockout_phase()
    play_round(phase, 1, boss)
    play_round(phase, 2, boss)
    quarter = game_match(phase, 1)
    row = quarter.result
    assert row is not None
    ResultRow.objects.filter(pk=row.pk).update(  # past every door: only the guard is left
        first_juegos=row.second_juegos, second_juegos=row.first_juegos,
        first_tantos=row.second_tantos, second_tantos=row.first_tantos)
    said = {"es": "Este resultado cambia quién juega «Final · Semifinal",
            "en": "This result changes who plays “Final · Semifinal",
            "eu": "txapelketako «Final · ",
            "fr": "Ce résultat change qui joue « Final · Demi-finale"}
    for language, words in said.items():
        with translation.override(language), pytest.raises(CompetitionError) as refused:
            bracket.fill(quarter.competition)
        assert words in str(refused.value), str(refused.value)
        assert championship.name in str(refused.value), str(refused.value)
