"""A brand-new table stored without the write path (`services.new_table`, issue 40 point 7:
a league import's vaca held SQLite's lock 200-2,500 ms at load 10-12 through it): the rows
it stores are the ones `import_table` (create_table, then the one write path) stores for
the same export, column by column as each database keeps them, and it refuses what that
refuses with the same words, storing nothing. Marked postgres: JSON as each database
stores it, and the transaction a refusal leaves empty."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from muscore.tables import services
from muscore.tables.models import Change, Hand, IdempotentWrite, Table, VacaCheckpoint
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN
from tests.tables.factory import make_bad_record, make_deje_record, make_record

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ONE_LOST = {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}

EXPORTS: dict[str, dict[str, Any]] = {
    "empty": {"players": ["Ana", "Bea", "Carmen", "Dora"]},
    "a league's vaca": {
        "rules": {"juegos": 3},
        "players": ["Iñaki", "Jon", "Mikel", "Patxi"],
        "hands": [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A],
    },
    "three vacas, the last under way": {
        "rules": {"juegos": 1, "reyes": 4, "target": 30},
        "mano": 3,
        "hands": [ORDAGO_A, ORDAGO_B, make_deje_record(), make_record(grande=ONE_LOST),
                  services.piedras_record("B", 3), make_deje_record("B")],
    },
    "default names, an export's own keys": {
        "format": services.EXPORT_FORMAT,
        "version": 1,
        "mano": 1,
        "hands": [make_record(), services.piedras_record("A", -2), make_deje_record()],
    },
}

VACAS = {"empty": 1, "a league's vaca": 2, "three vacas, the last under way": 3,
         "default names, an export's own keys": 1}


def rows(table: Table) -> dict[str, Any]:
    """Every row the table has, as stored, without what is new to each table (its id, keys
    and epoch, the rows' ids and times)."""
    fresh = Table.objects.filter(pk=table.pk).values(
        "players", "rules", "first_mano", "revision", "replayed_revision").get()
    return {
        "table": fresh,
        "hands": list(Hand.objects.filter(table=table).order_by("number")
                      .values("number", "record", "client_id")),
        "changes": list(Change.objects.filter(table=table).order_by("id").values(
            "action", "number", "before", "after", "via", "idempotency_key", "revision")),
        "vacas": list(VacaCheckpoint.objects.filter(table=table).order_by("index").values(
            "index", "first_hand", "mano", "hand_count", "winner", "result", "summary")),
        "answers": IdempotentWrite.objects.filter(table=table).count(),
    }


def state_text(table: Table) -> str:
    return services.read_state(Table.objects.get(pk=table.pk)).text.replace(table.pk, "ID")


@pytest.mark.parametrize("name", list(EXPORTS))
def test_a_new_table_stores_the_rows_the_write_path_stores(name: str) -> None:
    export = EXPORTS[name]
    through_path = services.import_table(export, via="api")
    made = services.new_table(export, via="api")
    assert not Table.objects.filter(pk=made.table.pk).exists(), "made, not stored"
    with CaptureQueriesContext(connection) as queries:
        stored = made.store()
    writes = [q["sql"] for q in queries.captured_queries
              if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
    assert len(writes) <= 4 and all(sql.startswith("INSERT") for sql in writes), writes
    assert rows(stored) == rows(through_path)
    assert len(rows(stored)["vacas"]) == VACAS[name]
    assert state_text(stored) == state_text(through_path)
    assert stored.revision == through_path.revision
    # Both go on alike through the write path.
    for table in (stored, through_path):
        services.add_hand(table, make_deje_record("B"), via="edit_link")
    assert rows(stored) == rows(through_path)
    assert state_text(stored) == state_text(through_path)


REFUSED: dict[str, Any] = {
    "not an export": ["hands"],
    "an unknown key": {"hands": [], "notes": "x"},
    "another format": {"format": "otra-cosa"},
    "a hand the rules refuse": {"hands": [make_record(), make_bad_record()]},
    "the cut's mano": {"mano": "random"},
    "the same name twice": {"players": ["Ana", "ana", "Bea", "Dora"]},
    "too many hands": {"hands": [make_record()] * (services.MAX_HANDS + 1)},
    "unknown rules": {"rules": {"juegos": "muchos"}},
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_new_table_refuses_what_the_write_path_refuses_storing_nothing(name: str) -> None:
    export = REFUSED[name]
    tables = Table.objects.count()
    with pytest.raises(Exception) as through_path:
        services.import_table(export, via="api")
    with pytest.raises(Exception) as made:
        services.new_table(export, via="api")
    assert type(made.value) is type(through_path.value)
    assert str(made.value) == str(through_path.value)
    assert Table.objects.count() == tables


def test_a_new_table_knows_its_doors() -> None:
    with pytest.raises(services.TableError) as refused:
        services.new_table({"hands": []}, via="telegram")
    assert "telegram" in str(refused.value)
