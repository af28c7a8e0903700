"""The one write path of a table: every change of its hands goes through `write`.

A write is an `Intent` (what is asked: the action, the door, the idempotency keys, the
base revision, how to answer) and a step (the write's own part: what it changes, run
inside the lock). `write` takes the table's lock (`stored.lock_table`, which also makes
its stored vacas current), answers a retry with its first answer (`idempotency`), checks
the base revision, runs the step, which shows the vaca it touches to `table_changing`
before it replays anything (a league match whose result is final refuses it there) and
says what it changes (a `Plan`: its `rewrite.Rewrite` of the stored vacas), stores the
Hand rows, then commits: the revision, the audit row, the stored vacas, the state cache,
the idempotent answer, and `table_changed`. It returns one `WriteResult`; nothing is
stored when anything on the way raises.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, Table
from muscore.tables.services.cache import (
    ANSWER_KIND,
    Finished,
    StateText,
    keep_text,
    stored_text,
)
from muscore.tables.services.checks import check_key, check_revision
from muscore.tables.services.errors import StaleEdit, TableError
from muscore.tables.services.idempotency import fingerprint, first_answer, keep_answer
from muscore.tables.services.reads import get_table
from muscore.tables.services.rewrite import Rewrite
from muscore.tables.services.stored import lock_table, store_vacas
from muscore.tables.signals import table_changed, table_changing


@dataclass(frozen=True)
class WriteResult(StateText):
    """What a write did, and its answer.

    `text` is the answer's JSON text as the API sends it (the new state, whole or with the
    finished vacas summed up as the write asked, plus "changed" for a correction) and
    `revision` the table's revision it shows; `state` parses it at the first look.
    `action` is the Change.Action, `status` the HTTP status of its answer (201 for an
    entry added). `number` is the table-wide number of the hand added, removed, brought
    back or corrected (for an import, the last one; None when empty); `after` what the
    audit keeps as after (the record stored by an add, a redo or a correction; None for an
    undo); `changed` the numbers of the hands whose
    mano, juego, score or winner changed; `vacas` the indexes of the stored vacas written
    again. `replayed`: the answer of an earlier write with the same Idempotency-Key or
    client id, nothing stored (then `number`, `after`, `changed` and `vacas` are unknown:
    None and empty).
    """

    action: str
    status: int
    number: int | None = None
    after: Any = None
    changed: tuple[int, ...] = ()
    vacas: tuple[int, ...] = ()
    replayed: bool = False


@dataclass(frozen=True)
class Intent:
    """What a write asks for, checked before it takes the lock: the action, the door
    (`via`, a Change.Via value), the idempotency keys and the fingerprint of the request
    they were first sent with, the base revision, the status and shape of the answer."""

    action: str
    via: str
    fingerprint: str
    keys: tuple[str, ...] = ()
    idempotency_key: str | None = None
    base_revision: object = None
    status: int = 200
    finished: Finished = "full"

    @classmethod
    def of(
        cls,
        action: str,
        subject: object,
        record: object,
        *,
        via: str,
        idempotency_key: object = None,
        client_id: str | None = None,
        **options: Any,
    ) -> Intent:
        """An intent whose fingerprint is (action, subject, record): the request a key was
        first sent with (the subject is the hand number, or the base revision)."""
        key = check_key("Idempotency-Key", idempotency_key)
        keys = [f"key:{key}"] if key is not None else []
        if client_id is not None:
            keys.append(f"client:{client_id}")
        sent = fingerprint(action, subject, record)
        return cls(action, via, sent, tuple(keys), key, **options)


@dataclass(frozen=True)
class Plan:
    """A write's change, computed inside the lock: the hand it is about (`number`), the
    audit's `before` and `after`, what becomes of the stored vacas (`rewrite`), and
    `store`, which changes the Hand rows."""

    number: int | None
    before: Any
    after: Any
    rewrite: Rewrite
    store: Callable[[], object] = field(repr=False)


# The table's `table_changing` guard: the step calls it with the index of the first vaca
# it touches, before it replays anything (a refusal costs no replay).
Guard = Callable[[int], None]
# A write's own part: None when what it would store is stored already (a hand sent again
# with its client id after its stored answer was dropped).
Step = Callable[[Table, Guard], Plan | None]


def write(table: Table, intent: Intent, step: Step) -> WriteResult:
    """Run a change of `table` through the one write path (see the module's docstring)."""
    if intent.via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(intent.via))
    try:
        with transaction.atomic():
            return _write_locked(table.pk, intent, step)
    except IntegrityError:
        # Only reachable if two writers slipped past the lock: answer as for a retry.
        answer = _replayed_answer(get_table(table.pk), intent)
        if answer is not None:
            return answer
        raise TableError(_("la mesa cambió en ese mismo momento: envía la mano otra vez")) from None


def _write_locked(table_id: str, intent: Intent, step: Step) -> WriteResult:
    table = lock_table(table_id)
    answer = _replayed_answer(table, intent)
    if answer is not None:
        return answer
    _check_base(table, intent.base_revision)
    guarded: list[int] = []

    def guard(vaca: int) -> None:
        table_changing.send(sender=Table, table=table, vaca=vaca)
        guarded.append(vaca)

    plan = step(table, guard)
    if plan is None:
        text = stored_text(table, ANSWER_KIND[intent.finished])
        return WriteResult(text, table.revision, intent.action, intent.status, replayed=True)
    assert guarded, "a write shows the vaca it touches to table_changing"
    plan.store()
    return _commit(table, intent, plan)


def _commit(table: Table, intent: Intent, plan: Plan) -> WriteResult:
    """Store a change made inside the write lock and say what it did."""
    table.revision += 1
    table.replayed_revision = table.revision
    table.save(update_fields=["revision", "replayed_revision", "updated_at"])
    Change.objects.create(
        table=table,
        action=intent.action,
        number=plan.number,
        before=plan.before,
        after=plan.after,
        via=intent.via,
        idempotency_key=intent.idempotency_key,
        revision=table.revision,
    )
    rewrite = plan.rewrite
    store_vacas(table, rewrite.index, rewrite.vacas, alone=rewrite.alone)
    kind = ANSWER_KIND[intent.finished]
    state = stored_text(table, kind)
    keep_text(table, state, kind)
    changed = rewrite.changed()
    answer = state
    if intent.action == Change.Action.EDIT:
        # A correction's answer says which hands it changed (the API's contract).
        answer = state[:-1] + ", " + json.dumps({"changed": changed})[1:]
    keep_answer(table, intent.keys, intent.fingerprint, intent.status, answer)
    # Parsed (and, after a summed-up answer, read whole) only if a listener looks inside.
    whole: str | Callable[[], str] = state
    if intent.finished != "full":
        whole = functools.partial(stored_text, table, ANSWER_KIND["full"])
    table_changed.send(sender=Table, table=table, state=LazyState(whole))
    return WriteResult(
        answer,
        table.revision,
        intent.action,
        intent.status,
        number=plan.number,
        after=plan.after,
        changed=tuple(changed),
        vacas=tuple(range(rewrite.index, rewrite.index + len(rewrite.vacas))),
    )


def _replayed_answer(table: Table, intent: Intent) -> WriteResult | None:
    """The first answer to a request sent again with one of its keys, or None."""
    stored = first_answer(table, intent.keys, intent.fingerprint)
    if stored is None:
        return None
    return WriteResult(stored.body, stored.revision, intent.action, stored.status, replayed=True)


def _check_base(table: Table, base_revision: object) -> None:
    check_revision(base_revision)
    if base_revision is not None and base_revision != table.revision:
        raise StaleEdit(
            _(
                "la mesa cambió desde que empezó este cambio (revisión %(base)s, ahora "
                "%(now)s): mira otra vez el marcador y repite el cambio"
            ),
            table.revision,
            base=base_revision,
            now=table.revision,
        )


class LazyState(Mapping[str, Any]):
    """A state (table_state's shape) from its JSON text, or from a function reading it,
    parsed (and read) at the first look inside: what `table_changed` carries."""

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
