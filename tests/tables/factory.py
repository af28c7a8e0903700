"""Plain helpers to make tables and hand records in tests (no fixture framework)."""

from __future__ import annotations

from typing import Any

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Table

# The seed deal of the shared examples: at mano 0, en paso, A collects 2 and B 8.
SEED_CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def make_record(**lances: Any) -> dict[str, Any]:
    """The seed deal with its 16 cards, the given lances (none: everything passed)."""
    record: dict[str, Any] = {"hands": dict(SEED_CARDS)}
    if lances:
        record["lances"] = lances
    return record


def make_deje_record(side: str = "A") -> dict[str, Any]:
    """An envido in grande rejected: `side` collects the deje of 1 at once."""
    return make_record(grande={"bets": [{"side": side, "n": 2}], "end": "no_quiero"})


def make_bad_record() -> dict[str, Any]:
    """Five reyes of one player: the engine refuses it."""
    return {"hands": {**SEED_CARDS, "0": "R R R R R"}}


def make_table(**kwargs: Any) -> Table:
    return services.create_table(**kwargs)


def make_hands(table: Table, records: list[dict[str, Any]]) -> dict[str, Any]:
    state = services.table_state(table)
    for record in records:
        state = services.add_hand(table, record, via="api").state
    return state


def vaca_replay(table_rules: dict[str, Any], mano: int, records: list[dict[str, Any]]) -> Any:
    """What muscore.rules says a vaca of these records is (the check for every state)."""
    return rules.replay({"rules": table_rules, "mano": mano, "hands": records})


def strip_labels(vaca: dict[str, Any]) -> dict[str, Any]:
    """A stored vaca without the table's own labels, comparable with rules.replay output."""
    return {k: v for k, v in vaca.items() if k not in ("first_hand", "mano")}
