"""A table created, exported and imported; a new table's rows made before they are
stored (`new_table`), for a writer that must hold the lock briefly (a league import)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, Hand, Table, VacaCheckpoint
from muscore.tables.services import checks
from muscore.tables.services.checks import (
    check_record,
    check_text,
    letters_of,
    normalize_mano,
    normalize_players,
    normalize_rules,
)
from muscore.tables.services.errors import TableError
from muscore.tables.services.replay import replay_vacas
from muscore.tables.services.rewrite import import_all, imported_vacas
from muscore.tables.services.stored import records, store_vacas, vaca_rows
from muscore.tables.services.write import Guard, Intent, Plan, write


def create_table(*, players: Any = None, rules: Any = None, mano: Any = None) -> Table:
    """A new table. players: names by seat (None or blank: A1, B1, A2, B2..., in
    individual play A, B, C...); rules: any options of rules.md (defaults filled in; with
    2, 3, 5 or 6 names and no "players" option the table is for that many); mano: a
    seat, None for seat 0, or "random" for the cut."""
    names, table_rules, first_mano = _new_fields(players, rules, mano)
    with transaction.atomic():
        table = Table.objects.create(
            players=names, rules=table_rules, first_mano=first_mano, replayed_revision=1
        )
        # Its one vaca, the current: the replay of no hand.
        store_vacas(table, 0, replay_vacas(table_rules, first_mano, []))
    return table


def _new_fields(players: Any, rules: Any, mano: Any) -> tuple[list[str], dict[str, Any], int]:
    """A new table's names, rules and first mano, checked and filled in (create_table's)."""
    check_text(rules, _("las reglas"))
    raw_rules = {} if rules is None else dict(rules) if isinstance(rules, Mapping) else rules
    if (
        isinstance(raw_rules, dict)
        and "players" not in raw_rules
        and isinstance(players, list | tuple)
        and len(players) in (2, 3, 5, 6)
    ):
        raw_rules["players"] = len(players)
    table_rules = normalize_rules(raw_rules)
    count = table_rules["players"]
    names = normalize_players(players, count, individual=len(letters_of(table_rules)) > 2)
    return names, table_rules, normalize_mano(mano, count)


EXPORT_FORMAT = "muscore-table"
EXPORT_KEYS = {"format", "version", "rules", "mano", "players", "hands"}


def export_table(table: Table) -> dict[str, Any]:
    """The table as the vaca replay contract's input plus the names: import_table reads it."""
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "rules": dict(table.rules),
        "mano": table.first_mano,
        "players": list(table.players),
        "hands": records(table),
    }


def import_table(data: Any, *, via: str) -> Table:
    """A new table identical to the exported one (new id and edit key), or TableError/RuleError.

    At most MAX_HANDS hands."""
    table_records = _export_records(data)
    with transaction.atomic():
        table = create_table(
            players=data.get("players"), rules=data.get("rules"), mano=data.get("mano")
        )
        if data.get("mano") == "random":
            raise TableError(_("en una mesa exportada la mano es un número de asiento"))
        intent = Intent(Change.Action.IMPORT, via, fingerprint="", status=201)
        write(table, intent, functools.partial(_import_step, table_records))
    table.refresh_from_db()  # the write bumped the revision of the row it locked
    return table


def _export_records(data: Any) -> list[dict[str, Any]]:
    """An exported table's hand records, checked, and the export's shape (TableError)."""
    if not isinstance(data, Mapping):
        raise TableError(_("una mesa exportada debe ser un objeto JSON"))
    check_text(data, _("la mesa exportada"))
    unknown = sorted(set(data) - EXPORT_KEYS)
    if unknown:
        raise TableError(_("campo desconocido %(key)s en la mesa exportada"), key=repr(unknown[0]))
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT or data.get("version", 1) != 1:
        raise TableError(_("esto no es una mesa exportada por muscore (versión 1)"))
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise TableError(_("hands debe ser una lista de manos"))
    if len(hands) > checks.MAX_HANDS:
        raise TableError(
            _(
                "esta mesa tiene %(count)s manos y una mesa puede tener como mucho %(max)s: "
                "no se ha importado nada"
            ),
            count=len(hands),
            max=checks.MAX_HANDS,
        )
    return [check_record(record) for record in hands]


def _import_step(table_records: list[dict[str, Any]], table: Table, guard: Guard) -> Plan:
    """The import's change: every record replayed from the table's first mano."""
    guard(0)
    rewrite = import_all(table, table_records)

    def store() -> None:
        Hand.objects.bulk_create(
            Hand(table=table, number=n, record=record) for n, record in enumerate(table_records, 1)
        )

    return Plan(
        number=len(table_records) or None,
        before=None,
        after={"hands": table_records},
        rewrite=rewrite,
        store=store,
    )


# An imported table's revision: made (1), then imported through the one write path (2).
IMPORTED_REVISION = 2


@dataclass(frozen=True)
class NewTable:
    """An imported table's rows, checked and replayed, not stored yet (`new_table`)."""

    table: Table
    hands: list[Hand]
    change: Change
    vacas: list[VacaCheckpoint]

    def store(self) -> Table:
        """Store its rows: four INSERTs (the table, its hands, its audit, its vacas), in
        the caller's transaction."""
        with transaction.atomic():
            self.table.save(force_insert=True)
            Hand.objects.bulk_create(self.hands)
            self.change.save(force_insert=True)
            VacaCheckpoint.objects.bulk_create(self.vacas)
        return self.table


def new_table(data: Any, *, via: str) -> NewTable:
    """`import_table`'s table made outside any transaction and stored by `.store()` in the
    caller's: the same rows, refused for the same reasons (TableError, RuleError), for a
    writer that holds SQLite's one write lock while it stores (a league import's vaca:
    through the one write path, 18 statements with the replay inside the lock).

    What the write path does for a table that exists is left out, as nothing can know a
    table before it is stored: its lock and the check of its stored vacas, a retry's
    answer, the base revision, `table_changing` (a league match pointing at it) and
    `table_changed` (its screens, its match), the state kept in the cache (a read builds
    it from the stored vacas). `tests/tables/test_new_table.py` keeps the rows equal."""
    table_records = _export_records(data)
    names, table_rules, first_mano = _new_fields(
        data.get("players"), data.get("rules"), data.get("mano")
    )
    if data.get("mano") == "random":
        raise TableError(_("en una mesa exportada la mano es un número de asiento"))
    if via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
    table = Table(
        players=names,
        rules=table_rules,
        first_mano=first_mano,
        revision=IMPORTED_REVISION,
        replayed_revision=IMPORTED_REVISION,
    )
    vacas = imported_vacas(table, table_records)
    return NewTable(
        table=table,
        hands=[Hand(table=table, number=n, record=r) for n, r in enumerate(table_records, 1)],
        change=Change(
            table=table,
            action=Change.Action.IMPORT,
            number=len(table_records) or None,
            before=None,
            after={"hands": table_records},
            via=via,
            idempotency_key=None,
            revision=IMPORTED_REVISION,
        ),
        vacas=vaca_rows(table, 0, vacas),
    )
