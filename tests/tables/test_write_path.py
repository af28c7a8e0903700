"""The one write path of a table (issue 20): every write (add, undo, redo, replace, piedras)
goes through services.write.write, shows the vaca it touches to table_changing before it
changes anything, and answers one typed WriteResult. An import is a brand-new table,
inserted (tests/tables/test_new_table.py): nothing can point at it to be told."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table
from muscore.tables.signals import table_changing
from tests.tables.factory import make_deje_record, make_hands, make_record, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture
def seen() -> Iterator[list[tuple[str, int]]]:
    """The (table id, vaca) of every table_changing sent while the test runs."""
    found: list[tuple[str, int]] = []

    def receiver(sender: Any, table: Table, vaca: int, **kwargs: Any) -> None:
        found.append((table.pk, vaca))

    table_changing.connect(receiver, weak=False, dispatch_uid="test-write-path-seen")
    try:
        yield found
    finally:
        table_changing.disconnect(dispatch_uid="test-write-path-seen")


@pytest.fixture
def refuse_vaca_0() -> Iterator[None]:
    """A receiver that owns what vaca 0 decided, as a final league match does."""

    def receiver(sender: Any, table: Table, vaca: int, **kwargs: Any) -> None:
        if vaca == 0:
            raise services.ResultSettled("final elsewhere")

    table_changing.connect(receiver, weak=False, dispatch_uid="test-write-path-refuse")
    try:
        yield
    finally:
        table_changing.disconnect(dispatch_uid="test-write-path-refuse")


def stored(table: Table) -> tuple[int, list[Any], int]:
    table.refresh_from_db()
    hands = list(Hand.objects.filter(table=table).order_by("number").values_list("record"))
    return table.revision, hands, Change.objects.filter(table=table).count()


def test_every_write_shows_the_vaca_it_touches_to_table_changing(seen) -> None:
    table = make_table()
    make_hands(table, [make_record()] * 2)
    seen.clear()
    services.add_hand(table, make_record(), via="api")
    services.add_piedras(table, "A", 1, via="api")
    services.undo_last(table, via="api")
    services.redo_last(table, via="api")
    services.replace_hand(table, 1, make_deje_record(), via="api")
    services.import_table(services.export_table(table), via="api")
    assert seen == [(table.pk, 0)] * 5


def test_a_guard_that_refuses_stops_every_write_and_nothing_is_stored(refuse_vaca_0) -> None:
    table = make_table()
    before = stored(table)
    writes = [
        lambda: services.add_hand(table, make_record(), via="api"),
        lambda: services.add_piedras(table, "B", 5, via="api"),
    ]
    tables = Table.objects.count()
    for write in writes:
        with pytest.raises(services.ResultSettled):
            write()
    assert stored(table) == before and Table.objects.count() == tables


def test_an_added_hand_answers_what_it_did() -> None:
    table = make_table()
    make_hands(table, [make_record()] * 2)
    result = services.add_hand(table, make_record(), via="api")
    assert isinstance(result, services.WriteResult)
    assert (result.action, result.status, result.number, result.replayed) == ("add", 201, 3, False)
    assert result.revision == Table.objects.get(pk=table.pk).revision
    assert result.changed == (3,) and result.vacas == (0,)
    assert result.text == services.read_state(table).text
    assert result.state == services.table_state(table)


def test_a_summed_up_answer_is_the_api_s_default_read() -> None:
    table = make_table()
    result = services.add_hand(table, make_record(), via="api", finished="summary")
    assert result.text == services.read_state(table, "summary").text


def test_a_retry_answers_the_first_answer_and_says_so() -> None:
    table = make_table()
    first = services.add_hand(table, make_record(), idempotency_key="k", via="api")
    services.add_hand(table, make_deje_record(), via="api")
    before = stored(table)
    again = services.add_hand(table, make_record(), idempotency_key="k", via="api")
    assert again.replayed and not first.replayed
    assert (again.text, again.revision, again.status) == (first.text, first.revision, 201)
    assert again.number is None and again.changed == ()
    assert stored(table) == before


def test_undo_redo_and_replace_say_which_hand_and_what_changed() -> None:
    table = make_table()
    make_hands(table, [make_record(), make_deje_record("B"), make_record()])
    undone = services.undo_last(table, via="api")
    assert (undone.action, undone.status, undone.number, undone.changed) == ("undo", 200, 3, (3,))
    redone = services.redo_last(table, via="api")
    assert (redone.action, redone.number, redone.changed) == ("redo", 3, (3,))
    edited = services.replace_hand(table, 2, make_deje_record("A"), via="api")
    assert (edited.action, edited.number) == ("edit", 2)
    assert edited.changed == (2, 3)
    assert edited.state["changed"] == [2, 3]  # the answer carries it, as the API sends it
    assert edited.revision == Table.objects.get(pk=table.pk).revision


def test_an_import_keeps_its_audit_and_the_state_of_its_hands() -> None:
    table = make_table()
    make_hands(table, [make_record()] * 3)
    imported = services.import_table(services.export_table(table), via="api")
    change = Change.objects.get(table=imported)
    assert (change.action, change.number, change.revision) == ("import", 3, imported.revision)
    assert services.table_state(imported)["current"] == services.table_state(table)["current"]
