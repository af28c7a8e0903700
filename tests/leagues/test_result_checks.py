"""The checks a league result passes whatever door it comes through (issue 17): the
organiser's service and page, a pair's claim, an import. Each fails on the code before
the one result path (tantos were never checked: 3-1 with 50-150 was accepted)."""

from __future__ import annotations

import pytest

from muscore.leagues import confirmations, documents, imports, results
from muscore.leagues.competitions import CompetitionError, competition_rules
from muscore.leagues.compute.document import Result, tantos_bounds, tantos_possible
from muscore.leagues.models import Competition, Correction, Match
from muscore.rules import Rules
from tests.clubs.factory import logged_in, make_user

from .factory import club_with_pairs, liguilla

pytestmark = pytest.mark.django_db


def first_match(competition: Competition) -> Match:
    return competition.matches.select_related("competition").order_by("number")[0]


def test_the_bounds_follow_the_juegos_and_the_target() -> None:
    rules = Rules(target=40, juegos=3)
    assert tantos_bounds(rules, 0) == ((120, 120), (0, 117))
    assert tantos_bounds(rules, 2) == ((120, 198), (80, 197))
    for tantos, possible in [((120, 0), True), ((121, 0), False), ((150, 97), True),
                             ((50, 150), False), ((160, 40), False), ((159, 39), False)]:
        juegos = (3, 0) if tantos in ((120, 0), (121, 0)) else (3, 1)
        result = Result(juegos, tantos, (False, False), "juegos")
        assert tantos_possible(result, rules) is possible, tantos
    # Without tantos, or a no-show of both, there is nothing to check.
    assert tantos_possible(Result((3, 1), None, (False, False), "juegos"), rules)


def test_the_organiser_cannot_enter_tantos_the_juegos_do_not_allow() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    rules = competition_rules(competition)
    won = rules.juegos
    with pytest.raises(CompetitionError) as refused:
        results.record_result(match, by=user, juegos=[won, 1], tantos=[50, 150])
    text = str(refused.value)
    (wlo, whi), (llo, lhi) = tantos_bounds(rules, 1)
    for bound in (wlo, whi, llo, lhi):
        assert str(bound) in text  # both bounds of both pairs, named
    match.refresh_from_db()
    assert match.outcome is None and not Correction.objects.filter(match=match).exists()
    # The loser with more than it can have, the winner too few.
    with pytest.raises(CompetitionError):
        results.record_result(match, by=user, juegos=[1, won], tantos=[300, 100])
    results.record_result(match, by=user, juegos=[won, 1], tantos=[won * rules.target + 20, 60])
    match.refresh_from_db()
    assert match.outcome.source == "manual"


def test_a_pairs_claim_is_checked_the_same() -> None:
    competition, _user = liguilla(4)
    match = first_match(competition)
    won = competition_rules(competition).juegos
    with pytest.raises(confirmations.ClaimError) as refused:
        confirmations.claim(match, side=0, juegos=[won, 0], tantos=[10, 400])
    assert "400" in str(refused.value)
    assert not match.claims.exists()


def test_the_organisers_page_says_which_tantos_are_possible() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    won = competition_rules(competition).juegos
    url = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/{match.number}/resultado"
    answer = logged_in(user).post(url, {"juegos_first": won, "juegos_second": 1,
                                        "tantos_first": 50, "tantos_second": 150})
    assert answer.status_code == 400
    assert "tantos" in answer.content.decode()
    match.refresh_from_db()
    assert match.outcome is None


def test_an_import_with_impossible_tantos_is_refused_whole() -> None:
    competition, user = liguilla(4)
    rules = competition_rules(competition)
    won = rules.juegos
    results.record_result(first_match(competition), by=user, juegos=[won, 0],
                          tantos=[won * rules.target, 30])
    document = documents.league_document(competition, hands=True)
    document["name"] = "Liga importada"
    document["matches"][0]["tantos"] = [10, 400]
    club, other, _pairs = club_with_pairs(0, organiser=make_user("koldo"))
    before = Competition.objects.count()
    with pytest.raises(CompetitionError):
        imports.import_competition(club, document, by=other)
    assert Competition.objects.count() == before


def test_the_correction_form_opens_filled_with_the_current_result() -> None:
    competition, user = liguilla(4)
    match = first_match(competition)
    rules = competition_rules(competition)
    won = rules.juegos
    url = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/{match.number}/"
    empty = logged_in(user).get(url).content.decode()
    assert 'name="juegos_first" value=' not in empty
    results.record_result(match, by=user, juegos=[won, 1], tantos=[won * rules.target + 5, 52])
    page = logged_in(user).get(url).content.decode()
    for name, value in [("juegos_first", won), ("juegos_second", 1),
                        ("tantos_first", won * rules.target + 5), ("tantos_second", 52)]:
        assert f'name="{name}" value="{value}"' in page, name
