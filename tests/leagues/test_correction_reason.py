"""A correction carries its reason in the service (issue 17): whatever the door (the
organiser's result, no-show or clear forms, a reset of the knockout matches that depend on
it), a change to a result already stored is refused without a reason that is not blank,
with the coded error `reason_required` worded in each language; nothing is half-saved; the
audit stores the reason and the match page shows it. A first result needs none, nor a
table's own provisional result, nor an import (its matches are new)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from muscore.leagues import documents, imports, pages, results
from muscore.leagues.models import Competition, Correction, Match
from tests.clubs.factory import logged_in, make_club

from .factory import liguilla
from .test_knockout_guard import cup, slot

pytestmark = pytest.mark.django_db


def first_match(competition: Competition) -> Match:
    return competition.matches.select_related("competition").order_by("number")[0]


def played() -> tuple[Competition, Any, Match]:
    competition, user = liguilla(4)
    match = first_match(competition)
    results.record_result(match, by=user, juegos=[3, 1])  # a first result: no reason asked
    return competition, user, first_match(competition)


@pytest.mark.parametrize("door", ["result", "no_show", "clear"])
@pytest.mark.parametrize("reason", ["", "   \t"])
def test_every_organiser_door_refuses_a_correction_without_a_reason(door: str, reason: str) -> None:
    competition, user, match = played()
    before = (match.outcome, match.players)
    audits = Correction.objects.count()
    with pytest.raises(results.ReasonRequired) as refused:
        if door == "result":
            results.record_result(match, by=user, juegos=[1, 3], reason=reason)
        elif door == "no_show":
            results.record_no_show(match, by=user, who=0, reason=reason)
        else:
            results.clear_result(match, by=user, reason=reason)
    assert refused.value.code == "reason_required"
    assert (first_match(competition).outcome, first_match(competition).players) == before
    assert Correction.objects.count() == audits


@pytest.mark.parametrize("door", ["result", "no_show", "clear"])
def test_a_correction_with_its_reason_is_stored_and_audited_with_it(door: str) -> None:
    competition, user, match = played()
    if door == "result":
        results.record_result(match, by=user, juegos=[1, 3], reason="  el acta decía 1-3 ")
    elif door == "no_show":
        results.record_no_show(match, by=user, who=0, reason="el acta decía 1-3")
    else:
        results.clear_result(match, by=user, reason="el acta decía 1-3")
    last = Correction.objects.filter(match=match).latest("id")
    assert last.reason == "el acta decía 1-3" and last.by == user
    assert pages.audit_rows(first_match(competition))[0]["reason"] == "el acta decía 1-3"


@pytest.mark.parametrize(("language", "words"), [
    ("es", "Una corrección lleva su motivo"),
    ("en", "A correction carries its reason"),
    ("eu", "Zuzenketa batek bere arrazoia darama"),
    ("fr", "Une correction porte sa raison"),
])
def test_the_refusal_is_worded_in_each_language(language: str, words: str) -> None:
    _, user, match = played()
    with translation.override(language), pytest.raises(results.ReasonRequired) as refused:
        results.clear_result(match, by=user)
    assert words in str(refused.value)


def test_a_reset_of_the_knockout_needs_the_reason_and_logs_it_on_each_cleared_match() -> None:
    competition, user = cup()
    sf1 = slot(competition, "sf1")
    with pytest.raises(results.ReasonRequired):
        results.record_result(sf1, by=user, juegos=[2, 3], reset=True)
    assert slot(competition, "final").played  # nothing cleared
    results.record_result(sf1, by=user, juegos=[2, 3], reset=True, reason="se anotó al revés")
    reset = Correction.objects.filter(competition=competition, action="reset")
    assert reset.count() == 2
    assert {c.reason for c in reset} == {"se anotó al revés"}


def test_an_import_writes_new_results_without_a_reason_through_the_same_path() -> None:
    competition, user, _ = played()
    copy = imports.import_competition(make_club("Otro club", organiser=user),
                                        documents.league_document(competition), by=user)
    imported = Correction.objects.filter(competition=copy)
    assert [c.action for c in imported] == ["import"]
    assert imported[0].reason == "" and imported[0].after_result.value().juegos == (3, 1)


# ------------------------------------------------------------------------ the pages


def post(user: Any, match: Match, name: str, data: dict[str, Any]) -> Any:
    url = pages.competition_url(match.competition, name, match.number)
    return logged_in(user).post(url, data, HTTP_ACCEPT_LANGUAGE="es")


@pytest.mark.parametrize(("name", "data"), [
    ("result", {"juegos_first": 1, "juegos_second": 3}),
    ("no_show", {"who": "0"}),
    ("clear", {}),
])
def test_each_form_refuses_a_correction_without_a_reason_in_spanish(
    name: str, data: dict[str, Any]
) -> None:
    competition, user, match = played()
    before = (match.outcome, match.players)
    response = post(user, match, name, {**data, "reason": " "})
    assert response.status_code == 400
    assert "Una corrección lleva su motivo" in response.content.decode()
    assert (first_match(competition).outcome, first_match(competition).players) == before


@pytest.mark.parametrize(("name", "data"), [
    ("result", {"juegos_first": 1, "juegos_second": 3}),
    ("no_show", {"who": "0"}),
    ("clear", {}),
])
def test_each_form_stores_the_reason_and_the_page_shows_it(name: str, data: dict[str, Any]) -> None:
    competition, user, match = played()
    response = post(user, match, name, {**data, "reason": "el acta decía otra cosa"})
    assert response.status_code == 302
    page = logged_in(user).get(pages.match_url(match), HTTP_ACCEPT_LANGUAGE="es")
    assert "motivo: el acta decía otra cosa" in page.content.decode()
