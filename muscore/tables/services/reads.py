"""Reads of one table that are not its whole state: the table, its revision, one hand,
the audit, a preview."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, cast

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from muscore import text as unicode_text
from muscore.permalink import next_context
from muscore.tables.models import Change, Hand, Table, VacaCheckpoint
from muscore.tables.services.checks import check_record
from muscore.tables.services.errors import HandNotFound, TableNotFound
from muscore.tables.services.replay import score_record
from muscore.tables.services.stored import lock_table
from muscore.tables.state import HandResultDict, StoredHand


def _possible_id(table_id: object) -> bool:
    # A NUL or a lone surrogate in a URL never names a table, and PostgreSQL refuses to
    # even compare it (a 500): such a link is a table that does not exist.
    return isinstance(table_id, str) and len(table_id) <= 64 and not unicode_text.problem(table_id)


def table_revision(table_id: str) -> int | None:
    """The table's revision in one indexed query (the ETag check), None when unknown."""
    if not _possible_id(table_id):
        return None
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


def dealt_number(table: Table, number: int) -> int:
    """The number a player reads for entry `number`: hands dealt up to it, piedras
    tapped by hand and peretes not counted (the entry number stays the record's key)."""
    taps = table.hands.filter(
        Q(record__has_key="piedras") | Q(record__has_key="perete"), number__lt=number
    ).count()
    return number - taps


def get_table(table_id: object) -> Table:
    if not _possible_id(table_id):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    try:
        return Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableNotFound(_("no hay ninguna mesa con ese enlace")) from None


def current_rows(table: Table, fresh: bool = False) -> Iterator[Table]:
    """The table's row, read again for each try (at most 5) of a read of its stored vacas
    outside its lock, while they are current: the reader tries again when a write landed
    between its reads (the revision moved), and reads inside the lock
    (`stored.lock_table`) when this ends: vacas to replay first, or a storm of writes.
    ``fresh``: ``table`` was read just now, its row is not read again for the first try."""
    for attempt in range(5):
        row = table if fresh and attempt == 0 else Table.objects.filter(pk=table.pk).first()
        if row is None:
            raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
        if row.replayed_revision != row.revision:
            return
        yield row


def _vaca_of(table: Table, number: int | None) -> dict[str, Any]:
    """The stored vaca holding hand `number` (None: the current vaca), parsed."""
    for row in current_rows(table):
        rows = VacaCheckpoint.objects.filter(table_id=row.pk)
        if number is not None:
            rows = rows.filter(first_hand__lte=number)
        text = rows.order_by("-index").values_list("result", flat=True).first()
        if text is None:
            break
        if table_revision(row.pk) == row.revision:
            vaca: dict[str, Any] = json.loads(text)
            return vaca
    with transaction.atomic():
        lock_table(table.pk)
        return _vaca_of(table, number)


def hand_entry(table: Table, number: int) -> StoredHand:
    """One stored hand: {"number", "record", "mano", "juego", "score", "winner", "result"}."""
    try:
        record = table.hands.get(number=number).record
    except Hand.DoesNotExist:
        raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
    vaca = _vaca_of(table, number)
    i = number - vaca["first_hand"]
    if 0 <= i < len(vaca["hands"]):
        return cast(StoredHand, {"number": number, "record": record, **vaca["hands"][i]})
    # pragma: no cover - replay covers every hand
    return cast(StoredHand, {"number": number, "record": record})


def table_changes(table: Table) -> list[Change]:
    return list(table.changes.order_by("at", "id"))


def preview_hand(table: Table, record: object) -> HandResultDict:
    """The score() result `record` would give as the table's next hand; nothing is saved."""
    clean = check_record(record)
    mano, score = next_context(_vaca_of(table, None))
    return score_record({**clean, "rules": dict(table.rules), "mano": mano, "score": score})
