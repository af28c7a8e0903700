"""Every page at 390x844, light and dark (issue 9): each passes the harness's checks
(no outside request, no CSP break, no script error, no sideways scroll at 360 px) and
leaves test-artifacts/screenshots/<page>-<scheme>.png for a person to look at."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from muscore.tables import services

pytestmark = pytest.mark.django_db(transaction=True)

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
NOBODY = {str(seat): {"pares": "no", "juego": "no"} for seat in range(4)}


def big(side: str) -> dict[str, Any]:
    return {"jugadas": NOBODY, "winners": {"grande": side, "chica": "B", "punto": "B"},
            "lances": {"grande": {"bets": [{"side": side, "n": 40}], "end": "quiero"}}}


def tour() -> dict[str, str]:
    """The pages of the tour, by name: a table with a vaca won 2-0 (the end-of-vaca page),
    then a hand and a tap in the next one, and the pages that need no table. Also the
    pages tests/browser/test_axe.py checks in every language."""
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    for record in (big("A"), {"hands": SEED}, big("A"), {"hands": SEED}):
        services.add_hand(table, record, via="api")
    services.add_piedras(table, "B", 5, via="api")
    services.replace_hand(table, 2, {"hands": SEED, "lances": {
        "grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}}}, via="edit_link")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    return {
        "home": "/",
        "nueva": "/nueva",
        "board": edit,
        "board-view": f"/t/{table.id}/",
        "history": edit + "historial",
        "vaca-end": edit + "vaca/1",
        "hand-entry": edit + "mano",
        "hand-correct": edit + "mano/4",
        "undo-confirm": edit + "deshacer",
        "calculator": "/calculadora/",
        "lector": "/lector/",
        "rules": "/reglas/",
        "api": "/api/",
    }


def test_every_page_light_and_dark(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    # Each page loaded once and checked and saved in both schemes (check_page's schemes).
    for name, url in tour().items():
        assert_page_ok(phone, url, screenshot=name, schemes=("light", "dark"))
