"""An imported table (`services.import_table`: `new_table(...).store()`, issue 40 point 7:
a league import's vaca held SQLite's lock 200-2,500 ms at load 10-12 through the write
path) is stored in four INSERTs, and is the table its hands make when each is written
through the one write path: the same hands and stored vacas, column by column as each
database keeps them, the same state; its audit is one import. What it refuses leaves
nothing stored, in a player's words. Marked postgres: JSON as each database stores it,
and the transaction a refusal leaves empty."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from muscore.errors import MuscoreError
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
    """The state as the API reads it, without its id and revision."""
    text = services.read_state(Table.objects.get(pk=table.pk)).text.replace(table.pk, "ID")
    return re.sub(r'"revision": \d+}$', "}", text)


def hand_by_hand(export: dict[str, Any]) -> Table:
    """The exported table made, then each of its hands written through the write path."""
    table = services.create_table(
        players=export.get("players"), rules=export.get("rules"), mano=export.get("mano"))
    for record in export.get("hands", []):
        services.add_hand(table, record, via="api")
    return table


@pytest.mark.parametrize("name", list(EXPORTS))
def test_an_import_stores_the_rows_its_hands_make_through_the_write_path(name: str) -> None:
    export = EXPORTS[name]
    written = hand_by_hand(export)
    made = services.new_table(export, via="api")
    assert not Table.objects.filter(pk=made.table.pk).exists(), "made, not stored"
    with CaptureQueriesContext(connection) as queries:
        imported = made.store()
    writes = [q["sql"] for q in queries.captured_queries
              if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
    assert len(writes) <= 4 and all(sql.startswith("INSERT") for sql in writes), writes
    hands = export.get("hands", [])
    expected = rows(written)
    expected["table"].update(revision=2, replayed_revision=2)
    expected["changes"] = [{
        "action": "import", "number": len(hands) or None, "before": None,
        "after": {"hands": hands}, "via": "api", "idempotency_key": None, "revision": 2,
    }]
    assert rows(imported) == expected
    assert len(expected["vacas"]) == VACAS[name]
    assert state_text(imported) == state_text(written)
    # Both go on alike through the write path.
    for table in (imported, written):
        services.add_hand(table, make_deje_record("B"), via="edit_link")
    assert rows(imported)["vacas"] == rows(written)["vacas"]
    assert state_text(imported) == state_text(written)


# Each refusal as a player reads it (in English, as outside a request).
REFUSED: dict[str, tuple[Any, str]] = {
    "not an export": (["hands"], "an exported table must be a JSON object"),
    "an unknown key": ({"hands": [], "notes": "x"}, "unknown key 'notes' in the exported table"),
    "another format": ({"format": "otra-cosa"}, "this is not a muscore table export of version 1"),
    "a hand the rules refuse": (
        {"hands": [make_record(), make_bad_record()]},
        "hand 2: Seat 0 has 5 cards (R R R R R), and a hand is four cards."),
    "the cut's mano": ({"mano": "random"}, "mano must be a seat number in an export"),
    "the same name twice": ({"players": ["Ana", "ana", "Bea", "Dora"]},
                            "seats 1 and 2 have the same name («ana»): each seat needs a name "
                            "of its own (Ana M., Ana P.)"),
    "too many hands": ({"hands": [make_record()] * (services.MAX_HANDS + 1)},
                       "this table has 2001 hands and a table holds at most 2000: nothing was "
                       "imported"),
    "unknown rules": ({"rules": {"juegos": "muchos"}},
                      "The option 'juegos' cannot be \"muchos\": it must be a whole number from 1 "
                      "to 5."),
    "an unknown door": ({"hands": [make_record()]}, "unknown way of changing a table: 'telegram'"),
}
DOORS = {"an unknown door": "telegram"}


@pytest.mark.parametrize("name", list(REFUSED))
def test_an_import_refuses_in_a_players_words_storing_nothing(name: str) -> None:
    export, words = REFUSED[name]
    before = {model: model.objects.count() for model in (Table, Hand, Change, VacaCheckpoint)}
    with pytest.raises(MuscoreError) as refused:
        services.import_table(export, via=DOORS.get(name, "api"))
    assert str(refused.value) == words
    assert before == {model: model.objects.count() for model in before}
