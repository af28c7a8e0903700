"""The write path's parts: idempotency, the base revision, and the commit that stores a
change (revision, audit, vacas, cache, idempotent answer, signal)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, IdempotentWrite, Table
from muscore.tables.services.cache import Finished, _cache_put, _state_text, _summary_text, _texts
from muscore.tables.services.checks import _is_int
from muscore.tables.services.errors import IdempotencyMismatch, StaleEdit, TableError
from muscore.tables.services.replay import Rewrite, _dumps, _store_vacas
from muscore.tables.signals import table_changed
from muscore.tables.state import (
    TableState,
)

# Idempotent answers kept per table (the latest): a retry comes within minutes.
IDEMPOTENT_ANSWERS_KEPT = 20


# --- writes -----------------------------------------------------------------------------------
#
# A write function: check its input, then in one transaction `_lock` the table (which
# also makes sure its stored vacas are current), compute what to store with
# `_append` / `_rewrite_from`, change the Hand rows, and finish with `_commit`, which
# bumps the revision, writes the audit row, stores the vacas and the idempotent answer
# and returns the new state's JSON text. See add_hand_json for the pattern.


def _fingerprint(action: str, number: int | None, record: Any) -> str:
    payload = json.dumps([action, number, record], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def _replayed_answer(table: Table, keys: list[str], fingerprint: str) -> str | None:
    for key in keys:
        stored = IdempotentWrite.objects.filter(table=table, key=key).first()
        if stored is None:
            continue
        if stored.fingerprint != fingerprint:
            raise IdempotencyMismatch(
                _("esta Idempotency-Key (o client id) ya se usó para otra petición distinta")
            )
        return stored.body
    return None


def _answer_text(table: Table, finished: Finished) -> str:
    """The state's JSON text a write answers, read inside its lock from the stored vacas."""
    if finished == "full":
        return _state_text(table, _texts(table))
    text = _summary_text(table, board=False)
    assert text is not None, "the write stored the vacas"
    return text


def _commit_json(
    table: Table,
    *,
    action: str,
    number: int | None,
    before: Any,
    after: Any,
    via: str,
    rewrite: Rewrite,
    keys: list[str],
    fingerprint: str,
    status: int,
    idempotency_key: str | None,
    extra: Mapping[str, Any] | None = None,
    finished: Finished = "full",
) -> str:
    """Store a change made inside the write lock; the new state's JSON text (plus `extra`),
    whole or with the finished vacas summed up (`finished`)."""
    if via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
    table.revision += 1
    table.replayed_revision = table.revision
    table.save(update_fields=["revision", "replayed_revision", "updated_at"])
    Change.objects.create(
        table=table,
        action=action,
        number=number,
        before=before,
        after=after,
        via=via,
        idempotency_key=idempotency_key,
        revision=table.revision,
    )
    _store_vacas(table, rewrite.index, rewrite.vacas, alone=rewrite.alone)
    state = _answer_text(table, finished)
    _cache_put(table, state, "state" if finished == "full" else "summary")
    answer = state
    if extra:
        answer = state[:-1] + ", " + _dumps(dict(extra))[1:]
    if keys:
        IdempotentWrite.objects.bulk_create(
            IdempotentWrite(
                table=table, key=key, fingerprint=fingerprint, status=status, body=answer
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
    # Parsed (and, after a summed-up answer, read whole) only if a listener looks inside.
    whole: str | Callable[[], str] = state
    if finished != "full":
        whole = functools.partial(_answer_text, table, "full")
    table_changed.send(sender=Table, table=table, state=LazyState(whole))
    return answer


def _check_base(table: Table, base_revision: Any) -> None:
    if base_revision is None:
        return
    if not _is_int(base_revision):
        raise TableError(_("revision debe ser un número entero"))
    if base_revision != table.revision:
        raise StaleEdit(
            _(
                "la mesa cambió desde que empezó este cambio (revisión %(base)s, ahora "
                "%(now)s): mira otra vez el marcador y repite el cambio"
            ),
            table.revision,
            base=base_revision,
            now=table.revision,
        )


def _idempotency_keys(client_id: str | None, idempotency_key: str | None) -> list[str]:
    keys = []
    if idempotency_key is not None:
        keys.append(f"key:{idempotency_key}")
    if client_id is not None:
        keys.append(f"client:{client_id}")
    return keys


class LazyState(Mapping[str, Any]):
    """A state (table_state's shape) from its JSON text, or from a function reading it,
    parsed (and read) at the first look inside."""

    def __init__(self, text: str | Callable[[], str]) -> None:
        self.text = text
        self._parsed: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        if self._parsed is None:
            text = self.text if isinstance(self.text, str) else self.text()
            self._parsed = json.loads(text)
        assert self._parsed is not None
        return self._parsed

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


def _loads(text: str) -> TableState:
    return cast(TableState, json.loads(text))
