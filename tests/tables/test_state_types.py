"""The TypedDicts of muscore/tables/state.py describe the state the services really return.

mypy checks the code against those types; this checks the types against the data, so
an engine or service that adds, drops or renames a key makes the types say so.
"""

from __future__ import annotations

from typing import Any, get_type_hints

import pytest

from muscore.tables import services
from muscore.tables.state import EditedState, ReplayedHand, Score, StoredHand, TableState, Vaca
from tests.tables.factory import make_deje_record, make_hands, make_record, make_table


def keys(typed: Any) -> tuple[set[str], set[str]]:
    """(required keys, all keys) of a TypedDict."""
    hints = set(get_type_hints(typed))
    return set(typed.__required_keys__), hints


def assert_shape(value: Any, typed: Any) -> None:
    required, every = keys(typed)
    assert isinstance(value, dict)
    assert required <= set(value) <= every, (typed.__name__, sorted(value))


def assert_state(state: Any, typed: Any = TableState) -> None:
    assert_shape(state, typed)
    for vaca in [*state["finished"], state["current"]]:
        assert_shape(vaca, Vaca)
        assert_shape(vaca["score"], Score)
        assert_shape(vaca["juegos"], Score)
        for hand in vaca["hands"]:
            assert_shape(hand, ReplayedHand)
            assert_shape(hand["score"], Score)
            assert hand["winner"] in (None, "A", "B")


@pytest.mark.django_db
def test_every_state_the_services_return_has_the_typed_shape() -> None:
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"], rules={"target": 30})
    assert_state(services.table_state(table))
    # A whole vaca won (so a finished vaca and a fresh current one) and then some.
    state = make_hands(table, [make_record(), make_deje_record("B")] * 6)
    assert_state(state)
    assert state["finished"], "the hands should have won a vaca"
    assert_state(services.add_hand(table, make_record(), via="api").state)
    assert_state(services.undo_last(table, via="api").state)
    # Piedras by hand are entries of the same list, replayed like hands.
    assert_state(services.add_piedras(table, "A", 5, via="api").state)
    edited = services.replace_hand(table, 1, make_deje_record("A"), via="api").state
    assert_state(edited, EditedState)
    assert_shape(services.hand_entry(table, 2), StoredHand)


def test_the_shape_check_can_fail() -> None:
    with pytest.raises(AssertionError):
        assert_shape({"A": 1}, Score)
    with pytest.raises(AssertionError):
        assert_shape({"A": 1, "B": 2, "G": 3}, Score)
