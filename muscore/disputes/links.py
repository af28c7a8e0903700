"""Permalinks into the calculator from elsewhere: a hand of a table's history.

The stored record lacks what the table knows (rules, mano, score before the
hand); the replayed state has it, so the link carries the hand exactly as it was
scored on the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from muscore.disputes import permalink


def permalink_url(record: Mapping[str, Any], names: list[str] | None = None) -> str:
    """/calculadora/?h=<code>[&n=Ana,Bruno,...]#result: the whole hand in the address."""
    query = {"h": permalink.encode(dict(record))}
    if names:
        query["n"] = ",".join(name.replace(",", " ") for name in names)
    # Opened at the recuento, not at the top of the form 3,000 px above it.
    return f"{reverse('disputes:calculator')}?{urlencode(query)}#result"


def table_hand_records(
    state: Mapping[str, Any], records: Mapping[int, Mapping[str, Any]]
) -> dict[int, dict[str, Any]]:
    """{hand number: full record (rules, mano, score before + the stored record)}.

    `state` is the table state (muscore.tables.services.table_state); `records`
    the stored records by table-wide hand number.
    """
    out: dict[int, dict[str, Any]] = {}
    for vaca in [*state["finished"], state["current"]]:
        before = {"A": 0, "B": 0}
        for i, hand in enumerate(vaca["hands"]):
            number = vaca["first_hand"] + i
            stored = records.get(number)
            if stored is not None:
                out[number] = {
                    **stored, "rules": dict(state["rules"]), "mano": hand["mano"],
                    "score": dict(before),
                }
            before = {"A": 0, "B": 0} if hand.get("winner") else dict(hand["score"])
    return out


def table_hand_links(table: Any, state: Mapping[str, Any]) -> dict[int, str]:
    """{hand number: calculator permalink} for every hand of a table."""
    records = dict(table.hands.values_list("number", "record"))
    names = list(state["players"])
    return {
        number: permalink_url(record, names)
        for number, record in table_hand_records(state, records).items()
    }
