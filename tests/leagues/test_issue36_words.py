"""Issue 36 point 6 on the leagues' side: a cup's own page names its champion once its
final is decided, the night's card says a no-show once, not the pair's name twice, and a
correction that would change who played a cup's knockout matches names one or several as
each language does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from muscore.leagues import card, pages, results
from muscore.leagues.models import Match, from_q
from tests.clubs.factory import make_club, make_league
from tests.leagues.helpers import game, slot_of
from tests.leagues.test_services import played_groups

pytestmark = pytest.mark.django_db


def play_cup(competition: object, by: object, *, until: str = "") -> None:
    """Every match with its two pairs known, in order, the first pair winning 3-1; stops
    before the match of slot `until`."""
    while True:
        match = (Match.objects.filter(competition=competition, first__isnull=False,
                                      second__isnull=False)
                 .unplayed().order_by("number").first())
        if match is None or (until and slot_of(match) == until):
            return
        results.record_result(match, by=by, juegos=[3, 1])


def test_the_cups_page_names_its_champion_once_the_final_is_decided() -> None:
    club = make_club()
    cup = make_league(club, 8, format="groups", results=0)
    organiser = club.memberships.get().user
    url = pages.competition_url(cup)
    play_cup(cup, organiser, until="final")
    page = Client().get(url)
    assert page.status_code == 200
    assert "Campeones" not in page.text and "data-champion" not in page.text
    play_cup(cup, organiser)
    final = game(cup, "final")
    assert final.outcome is not None and final.outcome.winner is not None
    winner = (final.first, final.second)[final.outcome.winner].pair.name
    page = Client().get(url)
    assert f"Campeones: {winner}" in page.text and "data-champion" in page.text
    english = Client().get(url, headers={"Accept-Language": "en"})
    assert f"Champions: {winner}" in english.text


def test_the_nights_card_says_a_no_show_once() -> None:
    """The card's line read "Mesa 3: Bea No se presentó Carlos Carlos": the pair that did
    not come is named by its sentence, the two pairs before it."""
    club = make_club()
    league = make_league(club, 6, results=3)  # the third result is a no-show
    absent = Match.objects.select_related("second__pair").filter(from_q("no_show")).get(
        competition=league)
    name = absent.second.pair.name
    date = card.latest_night(league)
    assert date is not None
    night = card.date_night(league, date)
    assert night is not None
    text = card.card_text(night, "https://x/")
    line = next(li for li in text.splitlines() if "No se presentó" in li)
    assert line.count(name) == 2 and f"No se presentó {name} {name}" not in line, line
    assert line.endswith(f": No se presentó {name}"), line
    played = next(li for li in text.splitlines() if "–" in li and li.startswith("Mesa"))
    assert " contra " not in played  # a played match's line as it was: "A 3–1 B"


def test_a_knockout_conflict_says_one_match_or_several() -> None:
    competition, user = played_groups(2, [3, 1, 0, 2, 7, 5, 6, 4])  # its third place played
    sf1 = game(competition, "sf1")
    with pytest.raises(results.KnockoutConflict) as refused:  # the third place alone
        results.record_result(sf1, by=user, juegos=[2, 3], reason="acta")
    assert len(refused.value.numbers) == 1
    assert "quién juega la partida " in refused.value.page_message()
    assert "esa partida se borra" in refused.value.page_message()
    final = game(competition, "final")
    results.record_result(final, by=user, juegos=[3, 1], reason="acta")
    said = {"es": "quién juega las partidas %s, que ya se jugaron",
            "en": "who plays matches %s, which have been played",
            "eu": "%s partidak nork jokatzen dituen",
            "fr": "qui joue les parties %s, qui ont déjà été jouées"}
    for language, words in said.items():
        with translation.override(language), pytest.raises(results.KnockoutConflict) as refused:
            results.record_result(sf1, by=user, juegos=[2, 3], reason="acta")
        numbers = ", ".join(str(n) for n in refused.value.numbers)
        assert words % numbers in refused.value.page_message(), refused.value.page_message()
