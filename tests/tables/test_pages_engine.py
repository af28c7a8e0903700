"""The hand entry pages for the engine's rule changes (issue 19: item 4, two players)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from muscore.tables import services
from muscore.tables.models import Hand, Table
from tests.tables.test_pages import edit_url, hand_url, make_table, post_hand, score_of, text_of

pytestmark = pytest.mark.django_db


def table_at_37() -> Table:
    """A table where A has 37: an accepted grande envite of 28 won on the cards."""
    table = make_table()
    services.add_hand(
        table,
        {"hands": {"0": "R R R R", "1": "4 4 5 5", "2": "C C C 7", "3": "5 6 7 1"},
         "lances": {"grande": {"bets": [{"side": "A", "n": 28}], "end": "quiero"}}},
        via="api",
    )
    return table


def test_a_count_that_ends_at_grande_asks_no_later_winner(client: Client) -> None:
    table = table_at_37()
    assert score_of(table)["A"] == 37
    # At 37 an accepted envite of 4 won by A in grande ends the juego at the count:
    # chica and punto cannot count, so the page asks for neither.
    bets = {"b_grande": "A4", "e_grande": "quiero", "w_grande": "A"}
    page = client.post(hand_url(table), {"act": "check", **bets}).content.decode()
    assert 'name="w_chica"' not in page and 'name="w_punto"' not in page
    saved = post_hand(client, table, bets)
    assert saved.status_code == 302
    assert Hand.objects.count() == 2
    hand = services.table_state(table)["current"]["hands"][-1]
    assert hand["winner"] == "A" and hand["result"]["ended_by"] == "recuento"


def test_before_grande_is_won_the_later_lances_are_still_asked(client: Client) -> None:
    table = table_at_37()
    bets = {"b_grande": "A4", "e_grande": "quiero", "w_grande": "B"}
    refused = post_hand(client, table, bets)
    assert refused.status_code == 400
    assert "Chica: falta quién gana" in text_of(refused)
    assert Hand.objects.count() == 1


def test_the_board_offers_the_recuento_read_aloud_line_by_line(client: Client) -> None:
    from muscore.tables import board

    table = make_table()
    services.add_hand(table, {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7",
                                        "3": "S S 7 7"}}, via="api")
    page = client.get(edit_url(table)).content.decode()
    assert "data-cantar hidden>Cantar el recuento</button>" in page  # shown by the script
    hand = services.table_state(table)["current"]["hands"][-1]
    lines = board.recuento_lines(hand["result"], table.players)
    shown = re.search(r'<ol class="recuento">(.*?)</ol>', page, re.S).group(1)  # type: ignore[union-attr]
    assert [html.unescape(line) for line in re.findall(r"<li[^>]*>([^<]*)</li>", shown)] == lines
    # Read aloud: the lines shown, word for word, then the score shown under them (38.1).
    final = re.search(r'<p class="last-score" data-cantar-line>([^<]*)</p>', page)
    assert final is not None and html.unescape(final.group(1)) == "Queda 2–8."
    assert board.spoken_lines(hand["result"], table.players) == [*lines, "Queda 2–8."]
    assert "data-cantar-speech" not in page


@pytest.mark.parametrize("url", ["/nueva", "/calculadora/"])
def test_the_presets_are_offered_with_their_options(client: Client, url: str) -> None:
    page = client.get(url).content.decode()
    assert ('data-preset="cuatro-reyes-y-real" data-preset-reyes="4" data-preset-target="40" '
            'data-preset-real31="rey"') in page
    assert 'data-preset="ocho-reyes" data-preset-reyes="8" data-preset-target="40"' in page
    assert 'data-preset="a-30" data-preset-reyes="8" data-preset-target="30"' in page
    assert "Navarra, Gipuzkoa, La Rioja" in page
