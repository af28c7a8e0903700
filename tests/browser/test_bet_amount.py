"""A typed bet amount (issue 38.5 and 38.9): one request, the button's; a wrong amount
said by the server in the table's words, not by the browser's bubble alone; each lance's
"otra cantidad" field of its own name; the names of the bet buttons start with what they
show (WCAG 2.5.3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, expect

from muscore.tables import services
from muscore.tables.models import Hand
from tests.browser.test_hand_entry import NAMES, entry_path, settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_typed_amount_is_one_request_and_a_wrong_one_is_said(phone: Page) -> None:
    table = services.create_table(players=NAMES)
    page = phone
    page.goto(entry_path(table))
    settle(page)
    posts: list[Request] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    for wrong in ("0", "-2", "100", "1000"):
        posts.clear()
        page.locator("#a_grande").fill(wrong)
        page.locator('button[value="bet:grande:A:amt"]').click()
        settle(page)
        expect(page.locator("#entry")).to_contain_text(
            "Grande: un envite es un número de piedras del 1 al 99.")
        assert len(posts) == 1, [p.post_data for p in posts]
    posts.clear()
    page.locator("#a_grande").fill("5")
    page.locator('button[value="bet:grande:A:amt"]').click()
    settle(page)
    expect(page.locator('[data-lance="grande"] .bets')).to_contain_text("envido 5")
    # One request: the field's own change asked nothing (hx-sync cut it off, bodiless,
    # and Django logged it as a CSRF failure).
    assert len(posts) == 1, [p.post_data for p in posts]
    assert "act=bet%3Agrande%3AA%3Aamt" in (posts[0].post_data or "")
    assert posts[0].headers.get("x-csrftoken")
    assert not Hand.objects.exists()


def test_each_lances_amount_field_has_a_name_of_its_own(phone: Page) -> None:
    table = services.create_table(players=NAMES)
    page = phone
    page.goto(entry_path(table))
    settle(page)
    for lance in ("grande", "chica"):
        field = page.get_by_role("spinbutton", name=f"Otra cantidad a la {lance}", exact=True)
        expect(field).to_have_count(1)
    # The side's button shows the side's names: its name starts with them.
    amount = page.locator('button[value="bet:grande:A:amt"]')
    expect(amount).to_have_accessible_name("Ana·Carla: otra cantidad a la grande")
    expect(amount).to_have_text("Ana·Carla")
