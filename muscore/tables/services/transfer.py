"""A table created, exported and imported."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, Hand, Table
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
from muscore.tables.services.rewrite import import_all
from muscore.tables.services.stored import records, store_vacas
from muscore.tables.services.write import Guard, Intent, Plan, write


def create_table(*, players: Any = None, rules: Any = None, mano: Any = None) -> Table:
    """A new table. players: names by seat (None or blank: A1, B1, A2, B2..., in
    individual play A, B, C...); rules: any options of rules.md (defaults filled in; with
    2, 3, 5 or 6 names and no "players" option the table is for that many); mano: a
    seat, None for seat 0, or "random" for the cut."""
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
    first_mano = normalize_mano(mano, count)
    with transaction.atomic():
        table = Table.objects.create(
            players=names, rules=table_rules, first_mano=first_mano, replayed_revision=1
        )
        # Its one vaca, the current: the replay of no hand.
        store_vacas(table, 0, replay_vacas(table_rules, first_mano, []))
    return table


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
    records = [check_record(record) for record in hands]
    with transaction.atomic():
        table = create_table(
            players=data.get("players"), rules=data.get("rules"), mano=data.get("mano")
        )
        if data.get("mano") == "random":
            raise TableError(_("en una mesa exportada la mano es un número de asiento"))
        intent = Intent(Change.Action.IMPORT, via, fingerprint="", status=201)
        write(table, intent, functools.partial(_import_step, records))
    table.refresh_from_db()  # the write bumped the revision of the row it locked
    return table


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
