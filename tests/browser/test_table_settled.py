"""A league table at phone size (issue 17 item 6): the board names its competition and
match and shows the league's result; once an organiser settles it, the table's undo is
refused with the competition named and nothing changes."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import competitions, results
from muscore.tables import services as tables
from muscore.tables.models import Hand
from tests.leagues.factory import liguilla
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_league_table_names_its_match_and_refuses_an_undo_once_final(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    page = phone
    competition, user = liguilla(2)
    match = competition.matches.get()
    table = competitions.open_table(match, by=user)
    for record in (PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table"  # the result is stored from the table

    board_url = f"/t/{table.id}/k/{table.edit_key}/"
    assert_page_ok(page, board_url, screenshot="league-table-board")
    owner = page.locator("[data-owner]")
    expect(owner).to_contain_text("Liga de los jueves")
    expect(owner).to_contain_text("Jornada 1 · partida 1")
    expect(owner.locator("[data-owner-result]")).to_contain_text("3–1")
    back = page.get_by_role("link", name="Volver a Liga de los jueves")
    expect(back).to_be_visible()
    expect(page.locator('[data-action="otra-vaca"]')).to_have_count(0)

    # The organiser settles it (a correction): the board shows the league's result.
    results.record_result(match, by=user, juegos=[1, 3], reason="acta en papel")
    page.reload()
    expect(page.locator("[data-owner-result]")).to_contain_text("1–3")

    # A board that cannot be undone does not offer "Deshacer" (issue 36 item 1); the undo's
    # own page, opened from a board drawn before the correction, is refused on its button.
    expect(page.get_by_role("button", name="Deshacer la última mano")).to_have_count(0)
    page.goto(f"/t/{table.id}/k/{table.edit_key}/deshacer")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("Sí, deshacer la mano")).click()
    expect(page.get_by_role("alert")).to_contain_text(
        "El resultado ya es definitivo en Liga de los jueves: pide la corrección a sus "
        "organizadores")
    assert Hand.objects.filter(table_id=table.pk).count() == 6
    match.refresh_from_db()
    assert match.outcome.juegos == (1, 3)
