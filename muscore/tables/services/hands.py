"""The writes of hands: add, undo, redo, replace, piedras.

Each checks its input, then hands `write` (the one write path, services/write.py) an
Intent and its own step: what it changes, computed inside the table's lock. Each returns
the WriteResult: its answer's JSON text (the new state, whole or with the finished vacas
summed up: `finished`), the revision, what changed.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, Hand, Table
from muscore.tables.services.cache import Finished
from muscore.tables.services.checks import (
    CLIENT_ID_MAX,
    check_key,
    check_record,
    check_room,
    is_hand_number,
    letters_of,
    piedras_record,
)
from muscore.tables.services.errors import HandConflict, HandNotFound, TableError
from muscore.tables.services.idempotency import hand_stored
from muscore.tables.services.reads import hand_entry
from muscore.tables.services.rewrite import append, correction, replay_from
from muscore.tables.services.stored import current_row, records, vaca_row
from muscore.tables.services.write import Guard, Intent, Plan, WriteResult, write


def add_hand(
    table: Table,
    record: object,
    *,
    number: object = None,
    client_id: object = None,
    idempotency_key: object = None,
    base_revision: object = None,
    via: str,
    finished: Finished = "full",
) -> WriteResult:
    """Store `record` as the table's next hand (status 201).

    - `base_revision` given and not the table's: StaleEdit (a tap aimed at an old board).
    - `number` given and already filled: HandConflict carrying the stored hand;
      given beyond the next number: TableError.
    - the same `client_id` or `idempotency_key` again: the first answer, nothing stored.
    - a record that breaks the rules: RuleError (from muscore.rules), nothing stored.
    - a table already holding MAX_HANDS hands: TableError.
    - its vaca's result final elsewhere (a league match): ResultSettled.
    """
    clean = check_record(record)
    client_id = check_key("client id", client_id, CLIENT_ID_MAX)
    intent = Intent.of(
        Change.Action.ADD,
        number,
        clean,
        via=via,
        idempotency_key=idempotency_key,
        client_id=client_id,
        base_revision=base_revision,
        status=201,
        finished=finished,
    )
    if not (number is None or is_hand_number(number)):
        raise TableError(_("number debe ser un número entero desde 1"))

    def step(table: Table, guard: Guard) -> Plan | None:
        current = current_row(table)
        count = current.first_hand + current.hand_count - 1
        if client_id is not None and hand_stored(table, client_id, clean):
            return None  # its kept answer is gone (only the latest are kept): it is stored
        _check_number(table, number, count)
        check_room(count)
        guard(current.index)
        rewrite = append(table, clean, current)

        def store() -> None:
            Hand.objects.create(table=table, number=count + 1, record=clean, client_id=client_id)

        return Plan(count + 1, None, clean, rewrite, store)

    return write(table, intent, step)


def _check_number(table: Table, number: int | None, count: int) -> None:
    """The hand number an add was aimed at (None: the next), against the `count` stored."""
    if number is not None and number <= count:
        raise HandConflict(
            _("otro móvil ya guardó la mano %(n)s: aquí está"), hand_entry(table, number), n=number
        )
    if number is not None and number > count + 1:
        raise TableError(
            _(
                "la mano %(n)s no se puede guardar todavía: la mesa tiene %(count)s "
                "manos, la siguiente es la %(next)s"
            ),
            n=number,
            count=count,
            next=count + 1,
        )


def undo_last(
    table: Table,
    *,
    base_revision: object = None,
    idempotency_key: object = None,
    via: str,
    finished: Finished = "full",
) -> WriteResult:
    """Remove the last hand (its record stays in the audit)."""
    intent = _last_hand_intent(Change.Action.UNDO, base_revision, idempotency_key, via, finished)

    def step(table: Table, guard: Guard) -> Plan:
        last = table.hands.order_by("-number").first()
        if last is None:
            raise TableError(_("no hay ninguna mano que deshacer"))
        # Its vaca (the one before the current, when the last hand won it) is played
        # again without it.
        row = vaca_row(table, last.number)
        guard(row.index)
        rewrite = replay_from(table, row, records(table, row.first_hand)[:-1])
        return Plan(last.number, last.record, None, rewrite, last.delete)

    return write(table, intent, step)


def _last_hand_intent(
    action: str, base_revision: object, idempotency_key: object, via: str, finished: Finished
) -> Intent:
    """An undo's or a redo's intent: about the table's last hand as the board showed it
    (`base_revision`, also what a key's first request is told by)."""
    return Intent.of(
        action,
        base_revision,
        None,
        via=via,
        idempotency_key=idempotency_key,
        base_revision=base_revision,
        finished=finished,
    )


def add_piedras(
    table: Table,
    side: object,
    n: object,
    *,
    client_id: object = None,
    idempotency_key: object = None,
    base_revision: object = None,
    via: str,
    finished: Finished = "full",
) -> WriteResult:
    """Piedras by hand (+1, +5, -1 for a side, as on paper): an entry in the table's record.

    Stored like a hand, in the same list, so undo, redo, the audit and the replay
    treat it as one; the juego and the vaca end as usual when it reaches the target.
    A `base_revision` that is not the table's is a StaleEdit: the tap was aimed at a
    board another phone has changed since.
    """
    return add_hand(
        table,
        piedras_record(side, n, letters_of(table.rules)),
        client_id=client_id,
        idempotency_key=idempotency_key,
        base_revision=base_revision,
        via=via,
        finished=finished,
    )


def redo_candidate(table: Table) -> dict[str, Any] | None:
    """The hand a redo would bring back: {"number", "record"}, or None.

    Undos stack up: after undoing hands 5 and 4, a redo brings back 4, then 5.
    Any other change (a hand added, corrected or imported) ends the chance, so a
    redo never lands on a table that moved on.
    """
    # Value rows, not models: a model row of the table's related manager reads its
    # deferred table_id back one query per change (200 queries on a long table's poll).
    changes = table.changes.order_by("-at", "-id").values_list("action", "number", "before")
    latest = list(changes[:1])
    if not latest or latest[0][0] not in (Change.Action.UNDO, Change.Action.REDO):
        return None  # the usual case (the last change added a hand): one row read
    pending_redos = 0
    for action, number, before in changes[:200]:
        if action == Change.Action.REDO:
            pending_redos += 1
        elif action == Change.Action.UNDO:
            if pending_redos:
                pending_redos -= 1
                continue
            if number != table.hands.count() + 1 or not isinstance(before, dict):
                return None
            return {"number": number, "record": copy.deepcopy(before)}
        else:
            return None
    return None


def redo_last(
    table: Table,
    *,
    base_revision: object = None,
    idempotency_key: object = None,
    via: str,
    finished: Finished = "full",
) -> WriteResult:
    """Bring back the hand undone last (see `redo_candidate`).

    The redo is in the audit like any change; nothing to redo is a TableError.
    """
    intent = _last_hand_intent(Change.Action.REDO, base_revision, idempotency_key, via, finished)

    def step(table: Table, guard: Guard) -> Plan:
        candidate = redo_candidate(table)
        if candidate is None:
            raise TableError(_("no hay ninguna mano deshecha que rehacer"))
        number, record = candidate["number"], candidate["record"]
        check_room(number - 1)
        current = current_row(table)
        guard(current.index)
        rewrite = append(table, record, current)

        def store() -> None:
            Hand.objects.create(table=table, number=number, record=record)

        return Plan(number, None, record, rewrite, store)

    return write(table, intent, step)


def replace_hand(
    table: Table,
    number: object,
    record: object,
    *,
    base_revision: object = None,
    idempotency_key: object = None,
    via: str,
    finished: Finished = "full",
) -> WriteResult:
    """Replace hand `number` and replay from the start of its vaca.

    The answer carries "changed" (and the result `changed`): the table-wide numbers of the
    hands whose mano, juego, score or winner differ from before the edit (the edited hand
    itself when its own result changed). A stale `base_revision` raises StaleEdit; a
    later hand that would break the rules raises LaterHandInvalid; nothing is saved in
    either case.
    """
    clean = check_record(record)
    intent = Intent.of(
        Change.Action.EDIT,
        number,
        clean,
        via=via,
        idempotency_key=idempotency_key,
        base_revision=base_revision,
        finished=finished,
    )
    if not is_hand_number(number):
        raise HandNotFound(_("la mano %(n)s no existe"), n=number)

    def step(table: Table, guard: Guard) -> Plan:
        try:
            hand = table.hands.get(number=number)
        except Hand.DoesNotExist:
            raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
        row = vaca_row(table, number)
        guard(row.index)
        rewrite = correction(table, row, number, clean)
        before = hand.record

        def store() -> None:
            hand.record = clean
            hand.save(update_fields=["record", "updated_at"])

        return Plan(number, before, clean, rewrite, store)

    return write(table, intent, step)
