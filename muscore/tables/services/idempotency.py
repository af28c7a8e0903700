"""A request sent again answers its first answer: the keys a write came with (an
Idempotency-Key, a hand's client id), the fingerprint of the request each was first
sent with, and the answers kept under them (IdempotentWrite, the latest only)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Hand, IdempotentWrite, Table
from muscore.tables.services.errors import IdempotencyMismatch

# Idempotent answers kept per table (the latest): a retry comes within minutes.
IDEMPOTENT_ANSWERS_KEPT = 20


def fingerprint(action: str, subject: object, record: object) -> str:
    """What tells a request apart: its action, subject (a hand number, a base revision)
    and record."""
    payload = json.dumps([action, subject, record], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def first_answer(table: Table, keys: tuple[str, ...], sent: str) -> IdempotentWrite | None:
    """The answer kept under one of `keys`, or None; IdempotencyMismatch when that key
    came with another request (`sent` is this one's fingerprint)."""
    for key in keys:
        stored = IdempotentWrite.objects.filter(table=table, key=key).first()
        if stored is None:
            continue
        if stored.fingerprint != sent:
            raise IdempotencyMismatch(
                _("esta Idempotency-Key (o client id) ya se usó para otra petición distinta")
            )
        return stored
    return None


def keep_answer(table: Table, keys: tuple[str, ...], sent: str, status: int, answer: str) -> None:
    """Keep `answer` (its status, the table's revision) under each of `keys`, for a retry."""
    if not keys:
        return
    IdempotentWrite.objects.bulk_create(
        IdempotentWrite(
            table=table,
            key=key,
            fingerprint=sent,
            status=status,
            body=answer,
            revision=table.revision,
        )
        for key in keys
    )
    # A retry comes within minutes: only the latest answers are kept, so a long table
    # does not keep a copy of its state per hand.
    stale = (
        IdempotentWrite.objects.filter(table=table)
        .order_by("-id")
        .values_list("id", flat=True)[IDEMPOTENT_ANSWERS_KEPT : IDEMPOTENT_ANSWERS_KEPT + 1]
    )
    if stale:
        IdempotentWrite.objects.filter(table=table, id__lte=stale[0]).delete()


def hand_stored(table: Table, client_id: str, record: dict[str, Any]) -> bool:
    """Whether `record` is stored already under `client_id` (a hand sent again after its
    kept answer was dropped: only the latest are kept)."""
    stored = Hand.objects.filter(table=table, client_id=client_id).values_list("record", flat=True)
    return any(fingerprint("", None, r) == fingerprint("", None, record) for r in stored)
