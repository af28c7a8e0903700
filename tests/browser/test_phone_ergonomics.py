"""The board and the hand entry as a thumb and a dim bar meet them: tap targets of
44 px or more, and a dark theme when the phone asks for one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.tables.factory import make_hands, make_record, make_table

pytestmark = pytest.mark.django_db(transaction=True)

# What a thumb presses: buttons, the segmented choices, the card keys, links styled
# as buttons. Plain text links inside sentences are not tap targets of their own.
TARGETS = "button:visible, .btn:visible, label.seg:visible, .key:visible"


def small_targets(page: Page) -> list[str]:
    boxes = page.locator(TARGETS).evaluate_all(
        """els => els.map(e => {
            const r = e.getBoundingClientRect();
            return {what: (e.textContent || e.getAttribute('aria-label') || e.tagName).trim()
                          .slice(0, 30), w: r.width, h: r.height};
        })"""
    )
    return [f"{b['what']!r} {b['w']:.0f}x{b['h']:.0f}" for b in boxes
            if b["h"] < 44 or b["w"] < 44]


def luminance(css_color: str) -> float:
    """Relative brightness 0..1 of an rgb()/rgba() colour."""
    parts = css_color[css_color.index("(") + 1:css_color.index(")")].split(",")
    r, g, b = (float(p) / 255 for p in parts[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def a_table_with_a_hand() -> Any:
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"])
    make_hands(table, [make_record()])
    return table


def test_every_tap_target_on_the_board_and_the_entry_is_44_px(phone: Page) -> None:
    table = a_table_with_a_hand()
    board = f"/t/{table.id}/k/{table.edit_key}/"
    phone.goto(board)
    assert small_targets(phone) == []
    phone.locator('[data-action="enter-hand"]').click()
    phone.wait_for_load_state()
    assert phone.locator("[data-card-picker]").count() == 1
    assert small_targets(phone) == []


def test_the_board_follows_the_phones_colour_scheme(
    new_phone: Callable[..., Page], screenshots_dir: Path
) -> None:
    """Dark, then light, on the one loaded board (the scheme is a media feature, switched
    as the phone switches it: conftest.check_page's schemes do the same)."""
    table = a_table_with_a_hand()
    page = new_phone(color_scheme="dark")
    page.goto(f"/t/{table.id}/")
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        text = page.evaluate("getComputedStyle(document.body).color")
        if scheme == "dark":
            assert luminance(background) < 0.2 < luminance(text), (scheme, background, text)
        else:
            assert luminance(background) > 0.8 > luminance(text), (scheme, background, text)
        page.screenshot(path=str(screenshots_dir / f"board-{scheme}.png"), full_page=True)
