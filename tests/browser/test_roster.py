"""On a phone (issue 17): the organiser merges a player entered twice from the merge page,
which fits a 390 px screen and passes the page check; the yes is asked first, then the
second name's pair is the first's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from muscore.clubs.models import Pair, Player
from tests.browser.test_axe import axe_violations
from tests.browser.test_clubs import club_with_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_organiser_merges_two_players_on_a_phone(
    phone: Page, live_server: Any, assert_page_ok: Callable[..., None]
) -> None:
    page = phone
    club_with_pairs(page, live_server, [("Ana", "Bea"), ("Anita", "Carlos")])
    anita = Player.objects.get(name="Anita")
    assert_page_ok(page, f"/club/bar-txoko/jugador/{anita.pk}/fusionar", screenshot="merge")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    assert axe_violations(page) == []
    page.get_by_label("Es la misma persona que").select_option(label="Ana")
    page.get_by_role("button", name="Fusionar").click()
    # The yes is not ticked: the phone does not send it (the server refuses it too).
    expect(page.locator("h1")).to_have_text("Fusionar a Anita")
    assert Player.objects.filter(name="Anita").exists()
    page.get_by_label("Sí, son la misma persona: fusionarlos").check()
    page.get_by_role("button", name="Fusionar").click()
    expect(page.locator("h1")).to_have_text("Ana")
    expect(page.get_by_role("status")).to_contain_text("Anita es ahora Ana")
    assert not Player.objects.filter(name="Anita").exists()
    pair = Pair.objects.get(name__icontains="Carlos")
    assert pair.player_names() == ["Ana", "Carlos"]
    # The club page with its "retirar" buttons: one pair retired, listed apart, no violation.
    page.goto("/club/bar-txoko/")
    page.locator("#parejas li").filter(has_text=pair.name).get_by_role(
        "button", name="retirar").click()
    expect(page.locator("[data-retired-pairs]")).to_contain_text(pair.name)
    assert axe_violations(page) == []
