"""A table created, exported and imported. An import's rows are made and checked before
anything is stored (`new_table`), then inserted (`NewTable.store`): the import page, the
API's import and a league import's vaca (which holds SQLite's one write lock only for the
inserts) store a table this one way."""

from __future__ import annotations

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
from muscore.tables.services.replay import BadHand, replay_vacas
from muscore.tables.services.stored import records, store_vacas, vaca_rows


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
    """A new table identical to the exported one (new id and edit key), or TableError/RuleError
    storing nothing: `new_table(data, via=via).store()`.

    At most MAX_HANDS hands."""
    return new_table(data, via=via).store()


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


# An imported table's revision: 2, as when an import was a table made (1) and then its
# hands written (2); the revision its answers and ETags show stays what it was.
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
    """An exported table's rows, checked and replayed outside any transaction, stored by
    `.store()` in the caller's; TableError or RuleError, nothing stored, for what an import
    refuses (the export's shape, the names, rules and mano, `via`, then the first hand the
    rules refuse, in that order).

    A brand-new table needs nothing else the write path (`write.write`) does for a table
    that exists: nothing to lock or retry, no base revision, nobody told (no league match
    or screen knows its id yet; `table_changing` and `table_changed` are for those), no
    state cached (a read builds it from the stored vacas)."""
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
    try:
        vacas = replay_vacas(table_rules, first_mano, table_records)
    except BadHand as bad:
        raise TableError(_("mano %(n)s: %(why)s"), n=bad.number, why=bad.error) from None
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
