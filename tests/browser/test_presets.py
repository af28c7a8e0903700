"""Table presets on a phone (issue 19): one tap fills the options the regions play
with, which stay editable, on /nueva and on the calculator."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from muscore.tables.models import Table
from tests.browser.test_hand_entry import settle

pytestmark = pytest.mark.django_db(transaction=True)


def checked(page: Page, name: str) -> str:
    return str(page.locator(f'input[name="{name}"]:checked').get_attribute("value"))


def test_a_preset_fills_the_new_tables_options_and_they_stay_editable(phone: Page) -> None:
    page = phone
    page.goto("/nueva")
    page.locator('[data-preset="cuatro-reyes-y-real"]').click()
    assert (checked(page, "reyes"), checked(page, "target"), checked(page, "real31")) == (
        "4", "40", "rey")
    # A toggle button, chosen (issue 30.6): the one the options match, named by what it
    # shows, its words apart (issue 38.7 and 38.9: named "...real: Navarra" on a button
    # reading "...realNavarra").
    chosen = page.locator('[data-preset="cuatro-reyes-y-real"]')
    expect(chosen).to_have_accessible_name("Cuatro reyes y real Navarra, Gipuzkoa, La Rioja")
    assert " ".join(chosen.text_content().split()) == (  # type: ignore[union-attr]
        "Cuatro reyes y real Navarra, Gipuzkoa, La Rioja")
    # Drawn as the page's own choice, not a grey native button.
    assert chosen.evaluate("b => getComputedStyle(b).backgroundColor") in (
        "rgba(0, 0, 0, 0)", "transparent")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-preset="a-30"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator("fieldset.presets legend")).to_have_text("Según dónde se juega")
    # Still editable: this table plays to 35.
    page.locator("label.seg", has=page.locator('input[name="target"][value="35"]')).click()
    expect(chosen).to_have_attribute("aria-pressed", "false")
    with page.expect_navigation():
        page.locator("form.setup button.btn-primary").click()
    rules = Table.objects.get().rules
    assert (rules["reyes"], rules["target"], rules["real31"]) == (4, 35, "rey")


def test_a_preset_on_the_calculator_recounts_with_its_options(phone: Page) -> None:
    page = phone
    page.goto("/calculadora/")
    page.locator('[data-preset="a-30"]').click()
    settle(page)
    expect(page.locator("#id_target")).to_have_value("30")
    assert checked(page, "reyes") == "8" and checked(page, "real31") == "no"
    page.locator('[data-preset="cuatro-reyes-y-real"]').click()
    settle(page)
    expect(page.locator("#id_target")).to_have_value("40")
    assert checked(page, "reyes") == "4" and checked(page, "real31") == "rey"
