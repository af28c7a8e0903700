"""A phone over the write limit is told so (muscore/ratelimits.py): the tap that is refused
with 429 shows the page saying why and how long to wait, instead of doing nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect
from pytest_django import Settings

from muscore.tables.models import Hand
from tests.tables.factory import make_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def three_writes(settings: Settings) -> Iterator[None]:
    # A day-long window: the live server's client is always 127.0.0.1, whose window cannot
    # be picked, and a day-long one does not end during the test.
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {"create": [], "import": [], "write": ["3/d"]}
    cache.clear()
    yield
    cache.clear()


def test_a_tap_over_the_write_limit_shows_why_on_the_phone(
    phone: Page, three_writes: None, screenshots_dir: Path
) -> None:
    table = make_table()
    phone.goto(f"/t/{table.id}/k/{table.edit_key}/mano")
    # Every tap in the hand entry is a write (htmx posts the form): three go through...
    for name, value in (("p0", "par"), ("p1", "par"), ("j3", "33")):
        with phone.expect_response(lambda r: r.request.method == "POST") as answer:
            phone.locator(
                "label.seg", has=phone.locator(f'input[name="{name}"][value="{value}"]')
            ).click()
        assert answer.value.status == 200
    # ...and the fourth is refused: the page says so, in the phone's language.
    with phone.expect_response(lambda r: r.request.method == "POST") as answer:
        phone.locator("label.seg", has=phone.locator('input[name="w_grande"][value="A"]')).click()
    assert answer.value.status == 429
    expect(phone.locator("h1")).to_have_text("Un momento")
    expect(phone.locator("main")).to_contain_text(
        "Han llegado demasiadas peticiones desde esta conexión"
    )
    expect(phone.locator("main")).to_contain_text("Esta última no se ha guardado")
    # The wait (hours here) in minutes, not thousands of seconds.
    expect(phone.locator("main")).to_contain_text(re.compile(r"Espera \d+ minutos y vuelve"))
    phone.screenshot(path=screenshots_dir / "rate-limited.png", full_page=True)
    assert Hand.objects.count() == 0
