"""A table's stored hands and vacas (Hand, VacaCheckpoint), and its write lock.

Each vaca's replay is stored in the same transaction as the change, so a write replays
only from the start of the vaca it touches, and a read replays nothing. `lock_table`
takes the table's write lock and makes its stored vacas current (a table from before
them, or loaded with loaddata, is replayed once there).
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Hand, Table, VacaCheckpoint
from muscore.tables.services.errors import TableNotFound
from muscore.tables.services.replay import BadHand, replay_vacas, summary_of
from muscore.tables.state import TableState


def records(table: Table, first: int = 1) -> list[dict[str, Any]]:
    """The table's records from hand number `first` on, in order."""
    hands = Hand.objects.filter(table_id=table.pk)
    if first > 1:
        hands = hands.filter(number__gte=first)
    return list(hands.order_by("number").values_list("record", flat=True))


def vaca_rows(table: Table, index: int, vacas: list[dict[str, Any]]) -> list[VacaCheckpoint]:
    """The rows that store `vacas` as the table's vacas from `index` on (not saved)."""
    return [
        VacaCheckpoint(
            table_id=table.pk,
            index=index + i,
            first_hand=vaca["first_hand"],
            mano=vaca["mano"],
            hand_count=len(vaca["hands"]),
            winner=vaca["winner"],
            # The separators JsonResponse uses: the text stored is the text the API answers.
            result=json.dumps(vaca),
            summary=json.dumps(summary_of(vaca)),
        )
        for i, vaca in enumerate(vacas)
    ]


def store_vacas(
    table: Table, index: int, vacas: list[dict[str, Any]], *, alone: bool = False
) -> None:
    """Replace the table's stored vacas from `index` on by `vacas` (inside the write lock);
    with `alone`, only the one at `index`."""
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if alone:
        rows = rows.filter(index=index)
    rows.delete()
    VacaCheckpoint.objects.bulk_create(vaca_rows(table, index, vacas))


def stored_vacas(table: Table, index: int, last: int | None = None) -> list[dict[str, Any]]:
    """The stored vacas from `index` on (to `last`, when given), parsed."""
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if last is not None:
        rows = rows.filter(index__lte=last)
    return [json.loads(text) for text in rows.order_by("index").values_list("result", flat=True)]


def current_row(table: Table) -> VacaCheckpoint:
    """The stored row of the current vaca (inside the write lock: it is there)."""
    row = VacaCheckpoint.objects.filter(table_id=table.pk).order_by("-index").first()
    assert row is not None, "lock_table made the stored vacas current"
    return row


def vaca_row(table: Table, number: int) -> VacaCheckpoint:
    """The stored row of the vaca hand `number` belongs to (inside the write lock)."""
    row = (
        VacaCheckpoint.objects.filter(table_id=table.pk, first_hand__lte=number)
        .order_by("-index")
        .first()
    )
    assert row is not None, "hand 1 is in vaca 0"
    return row


def _replay_all(table: Table) -> list[dict[str, Any]]:
    try:
        return replay_vacas(table.rules, table.first_mano, records(table))
    except BadHand as bad:
        raise bad.later(_("mano %(n)s: %(why)s")) from None


def _store_replay(table: Table) -> None:
    """Inside the write lock: the whole table replayed and stored as its revision's vacas."""
    store_vacas(table, 0, _replay_all(table))
    table.replayed_revision = table.revision
    table.save(update_fields=["replayed_revision"])


def lock_table(table_id: str, *, replayed: bool = True) -> Table:
    """Take the table's write lock inside the current transaction, then read it fresh.

    The no-op UPDATE comes first on purpose: on PostgreSQL it takes the row lock;
    on SQLite it takes the database write lock before any read, so a second
    writer waits (busy timeout) instead of failing to upgrade a read lock.
    With `replayed` (the default) the table's stored vacas are made current.
    """
    if not Table.objects.filter(pk=table_id).update(revision=F("revision")):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    table = Table.objects.select_for_update().get(pk=table_id)
    # Stored vacas not those of its revision: a table from before them, or loaded with
    # loaddata. Replayed whole once.
    if replayed and (table.replayed_revision != table.revision or not table.vacas.exists()):
        _store_replay(table)
    return table


def rebuild_checkpoints(table: Table) -> None:
    """Replay the table's records from scratch and store its vacas again (restore uses it).

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    with transaction.atomic():
        _store_replay(lock_table(table.pk, replayed=False))


def replay_stored(table: Table) -> TableState:
    """The state replayed from the stored records, never from the stored vacas or the cache.

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    fresh = Table.objects.get(pk=table.pk)
    vacas = _replay_all(fresh)
    state = {
        "id": fresh.id,
        "players": list(fresh.players),
        "rules": dict(fresh.rules),
        "current": vacas[-1],
        "finished": vacas[:-1],
        "revision": fresh.revision,
    }
    return cast(TableState, state)
