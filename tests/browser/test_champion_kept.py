"""Issue 27 item 1 in a phone's browser: a best-of-3 championship knockout played on its
tables to the champion, then the undo of a semifinal game's table, from its board: refused
with the message naming the final, and the champion still on the championship's page, in
the API and on the hall's TV."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.championships import knockout
from muscore.leagues.models import Competition, Match
from muscore.tables.models import Hand
from tests.championships.test_consequences import knockout_final_played

pytestmark = pytest.mark.django_db(transaction=True)

TV_SIZE = {"width": 1920, "height": 1080}


def test_the_undo_of_a_semifinal_game_s_table_after_the_final_keeps_the_champion(
    phone: Page, new_phone: Callable[..., Page], assert_page_ok: Callable[..., None],
) -> None:
    case = knockout_final_played()  # every game of the knockout won at its table
    match = Match.objects.get(pk=case.match.pk)
    phase = Competition.objects.get(pk=match.competition_id).phase_group.phase
    state = knockout.bracket(phase)
    assert state is not None and state.champion is not None
    champion = state.enrolments[state.champion].name
    championship = phase.championship_id
    hands = Hand.objects.filter(table_id=case.table.pk).count()

    page = phone
    assert_page_ok(page, f"/t/{case.table.id}/k/{case.table.edit_key}/")
    # Final for its table: the board offers no "Deshacer"; the undo's page (a link kept
    # from before) is refused on its button.
    expect(page.get_by_role("button", name="Deshacer la última mano")).to_have_count(0)
    page.goto(f"/t/{case.table.id}/k/{case.table.edit_key}/deshacer")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("Sí, deshacer la mano")).click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("El resultado ya es definitivo en")
    expect(alert).to_contain_text("de él dependen")
    expect(alert).to_contain_text("Final · partida 1")
    assert Hand.objects.filter(table_id=case.table.pk).count() == hands
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0

    page.goto(f"/campeonatos/{championship}/")
    expect(page.locator("[data-bracket-champion]")).to_contain_text(f"Campeones: {champion}")
    document = page.request.get(f"/api/v1/championships/{championship}")
    assert document.ok and document.json()["champion"] is not None
    assert document.json()["champion"] == state.champion  # the enrolment's id
    tv = new_phone()
    tv.set_viewport_size(TV_SIZE)
    tv.goto(f"/campeonatos/{championship}/fases/{phase.pk}/tv/")
    expect(tv.locator("[data-bracket-champion]")).to_contain_text(f"Campeones: {champion}")
