"""On a phone (issue 17, item 2): an organiser ticks three pairs where one player is in
two of them; the new competition's page refuses it naming the player and the pair he is
in, and no competition is made (before, he sat at two tables of round 1)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues.models import Competition
from tests.browser.test_clubs import club_with_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_person_in_two_pairs_is_refused_on_the_new_competition_page(
    phone: Page, live_server: Any
) -> None:
    page = phone
    club_with_pairs(page, live_server, [("Ana", "Bea"), ("Carlos", "Dani"), ("Bea", "Eva")])
    page.get_by_role("link", name="Nueva competición").click()
    page.get_by_label("Nombre", exact=True).fill("Liga de los jueves")
    for pair in ("Ana y Bea", "Carlos y Dani", "Bea y Eva"):  # none ticked to start with
        page.get_by_label(pair, exact=True).check()
    page.get_by_role("button", name="Crear y pasar al sorteo").click()
    error = page.locator(".error, .errorlist, [role=alert]").filter(has_text="Bea")
    expect(error.first).to_contain_text("ya juega en la pareja")
    assert not Competition.objects.exists()
