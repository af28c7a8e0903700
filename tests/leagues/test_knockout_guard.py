"""A change that would change who goes on in a knockout (issue 17, item 1): refused with
the reason, or, when the organiser says so in the same step, the knockout matches that
depend on it are cleared (each logged) and filled again, so the bracket and the export
stay right (before, a semifinal corrected after the final crowned its loser, and the
export of that cup was refused on import)."""

from __future__ import annotations

from typing import Any

import pytest

from muscore.leagues import documents, imports, results
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Competition, Correction, Match
from tests.clubs.factory import logged_in, make_club
from tests.leagues.helpers import game

from .test_services import played_groups

pytestmark = pytest.mark.django_db


def slot(competition: Competition, name: str) -> Match:
    result: Match = game(competition, name)
    return result


def cup() -> tuple[Competition, Any]:
    competition, user = played_groups(2, [3, 1, 0, 2, 7, 5, 6, 4])
    results.record_result(slot(competition, "final"), by=user, juegos=[3, 1], reason="acta")
    competition.refresh_from_db()
    return competition, user


def test_a_semifinal_flipped_after_the_final_is_refused_naming_the_final() -> None:
    competition, user = cup()
    sf1, final = slot(competition, "sf1"), slot(competition, "final")
    before = (sf1.outcome, final.outcome, final.first_id, final.second_id)
    with pytest.raises(results.KnockoutConflict) as refused:
        results.record_result(sf1, by=user, juegos=[2, 3], reason="acta")
    assert final.number in refused.value.numbers and str(final.number) in str(refused.value)
    sf1, final = slot(competition, "sf1"), slot(competition, "final")
    assert (sf1.outcome, final.outcome, final.first_id, final.second_id) == before


def test_the_organiser_resets_what_depends_on_it_in_one_step_and_the_export_round_trips() -> None:
    competition, user = cup()
    sf1 = slot(competition, "sf1")
    new_winner = sf1.second_id
    results.record_result(sf1, by=user, juegos=[2, 3], reset=True, reason="acta")
    final, third = slot(competition, "final"), slot(competition, "third")
    assert final.outcome is None and third.outcome is None  # both took sf1's pairs
    assert final.first_id == new_winner and third.first_id == sf1.first_id
    reset = Correction.objects.filter(competition=competition, action="reset")
    assert sorted(c.match_id for c in reset) == sorted([final.pk, third.pk])
    assert all(c.by == user for c in reset)
    assert all(c.before_result is not None for c in reset)  # what was cleared stays in the log
    # The bracket goes on from there (the other semifinal corrected too, so that the
    # final is no rematch of a group match, which one leg forbids), and the cup's export
    # is imported as it is.
    results.record_result(slot(competition, "sf2"), by=user, juegos=[0, 3], reset=True,
        reason="acta")
    final, third = slot(competition, "final"), slot(competition, "third")
    results.record_result(final, by=user, juegos=[3, 0], reason="acta")
    results.record_result(third, by=user, juegos=[3, 2], reason="acta")
    competition.refresh_from_db()
    exported = documents.league_document(competition, hands=True)
    # (Into another club of the organiser: into its own it would be a copy, refused.)
    copy = imports.import_competition(make_club("Otro club", organiser=user), exported,
                                       by=user, format="groups", groups=2)
    assert documents.league_document(copy, hands=True) == exported


def test_a_group_result_taken_back_after_the_semifinals_is_refused() -> None:
    competition, user = cup()
    group_match = competition.matches.filter(tie__isnull=True).played().first()
    assert group_match is not None
    with pytest.raises(CompetitionError):
        results.clear_result(group_match, by=user, reason="un error")
    group_match.refresh_from_db()
    assert group_match.played
    assert slot(competition, "sf1").played


def test_the_page_offers_the_reset_and_does_it_when_ticked() -> None:
    competition, user = cup()
    sf1 = slot(competition, "sf1")
    url = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/{sf1.number}/resultado"
    client = logged_in(user)
    refused = client.post(url, {"juegos_first": 2, "juegos_second": 3, "reason": "Acta"})
    page = refused.content.decode()
    assert refused.status_code == 400 and 'name="reset"' in page
    assert str(slot(competition, "final").number) in page
    done = client.post(url, {"juegos_first": 2, "juegos_second": 3, "reset": "on",
                             "reason": "Acta"})
    assert done.status_code == 302
    assert slot(competition, "final").outcome is None
    assert slot(competition, "sf1").outcome.winner == 1
