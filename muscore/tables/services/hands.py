"""The writes of hands: add, undo, redo, replace, piedras."""

from __future__ import annotations

import copy
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Change, Hand, Table, VacaCheckpoint
from muscore.tables.services.cache import Finished
from muscore.tables.services.checks import (
    CLIENT_ID_MAX,
    _check_key,
    _check_limit,
    _is_int,
    check_record,
    piedras_record,
)
from muscore.tables.services.errors import (
    HandConflict,
    HandNotFound,
    LaterHandInvalid,
    TableError,
    _BadHand,
    _InLanguage,
)
from muscore.tables.services.reads import get_table, hand_entry
from muscore.tables.services.replay import (
    _append,
    _current_row,
    _lock,
    _records,
    _replay_from,
    _rewrite_from,
    _vaca_index,
)
from muscore.tables.services.write import (
    _answer_text,
    _check_base,
    _commit_json,
    _fingerprint,
    _idempotency_keys,
    _loads,
    _replayed_answer,
)
from muscore.tables.signals import table_changing
from muscore.tables.state import (
    EditedState,
    TableState,
)


def add_hand(
    table: Table,
    record: Any,
    *,
    number: Any = None,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
) -> TableState:
    """Store `record` as the table's next hand and return the new state.

    - `base_revision` given and not the table's: StaleEdit (a tap aimed at an old board).

    - `number` given and already filled: HandConflict carrying the stored hand;
      given beyond the next number: TableError.
    - the same `client_id` or `idempotency_key` again: the first answer, nothing stored.
    - a record that breaks the rules: RuleError (from muscore.rules), nothing stored.
    - a table already holding MAX_HANDS hands: TableError.
    """
    return _loads(
        add_hand_json(
            table,
            record,
            number=number,
            client_id=client_id,
            idempotency_key=idempotency_key,
            base_revision=base_revision,
            via=via,
        )
    )


def add_hand_json(
    table: Table,
    record: Any,
    *,
    number: Any = None,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """add_hand(), answering the state's JSON text (not parsed: the API sends it), whole or
    with the finished vacas summed up (`finished`)."""
    clean = check_record(record)
    client_id = _check_key("client id", client_id, CLIENT_ID_MAX)
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    if number is not None and (not _is_int(number) or number < 1):
        raise TableError(_("number debe ser un número entero desde 1"))
    keys = _idempotency_keys(client_id, idempotency_key)
    fingerprint = _fingerprint("add", number, clean)
    try:
        with transaction.atomic():
            table = _lock(table.pk)
            answer = _replayed_answer(table, keys, fingerprint)
            if answer is not None:
                return answer
            _check_base(table, base_revision)
            current = _current_row(table)
            count = current.first_hand + current.hand_count - 1
            if client_id is not None and _same_hand_again(table, client_id, clean):
                # Its stored answer is gone (only the latest are kept): the hand is stored.
                return _answer_text(table, finished)
            if number is not None and number <= count:
                raise HandConflict(
                    _("otro móvil ya guardó la mano %(n)s: aquí está"),
                    hand_entry(table, number),
                    n=number,
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
            _check_limit(count)
            rewrite = _append(table, clean)
            new = count + 1
            Hand.objects.create(table=table, number=new, record=clean, client_id=client_id)
            return _commit_json(
                table,
                action=Change.Action.ADD,
                number=new,
                before=None,
                after=clean,
                via=via,
                rewrite=rewrite,
                keys=keys,
                fingerprint=fingerprint,
                status=201,
                idempotency_key=idempotency_key,
                finished=finished,
            )
    except IntegrityError:
        # Only reachable if two writers slipped past the lock: answer as for a retry.
        table = get_table(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        raise TableError(_("la mesa cambió en ese mismo momento: envía la mano otra vez")) from None


def _same_hand_again(table: Table, client_id: str, record: dict[str, Any]) -> bool:
    stored = Hand.objects.filter(table=table, client_id=client_id).values_list("record", flat=True)
    return any(_fingerprint("", None, r) == _fingerprint("", None, record) for r in stored)


def undo_last(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> TableState:
    """Remove the last hand (its record stays in the audit) and return the new state."""
    return _loads(
        undo_last_json(table, base_revision=base_revision, idempotency_key=idempotency_key, via=via)
    )


def undo_last_json(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """undo_last(), answering the state's JSON text (`finished`: as add_hand_json)."""
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("undo", base_revision, None)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        _check_base(table, base_revision)
        last = table.hands.order_by("-number").first()
        if last is None:
            raise TableError(_("no hay ninguna mano que deshacer"))
        before, number = last.record, last.number
        row = _current_row(table)
        if row.hand_count == 0:
            # The last hand won the vaca before: that vaca is played again without it.
            row = VacaCheckpoint.objects.get(table_id=table.pk, index=row.index - 1)
        table_changing.send(sender=Table, table=table, vaca=row.index)
        records = _records(table, row.first_hand)[:-1]
        last.delete()
        return _commit_json(
            table,
            action=Change.Action.UNDO,
            number=number,
            before=before,
            after=None,
            via=via,
            rewrite=_replay_from(table, row, records),
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
            finished=finished,
        )


def add_piedras(
    table: Table,
    side: Any,
    n: Any,
    *,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
) -> TableState:
    """Piedras by hand (+1, +5, -1 for a side, as on paper): an entry in the table's record.

    Stored like a hand, in the same list, so undo, redo, the audit and the replay
    treat it as one; the juego and the vaca end as usual when it reaches the target.
    A `base_revision` that is not the table's is a StaleEdit: the tap was aimed at a
    board another phone has changed since.
    """
    return add_hand(
        table,
        piedras_record(side, n),
        client_id=client_id,
        idempotency_key=idempotency_key,
        base_revision=base_revision,
        via=via,
    )


def redo_candidate(table: Table) -> dict[str, Any] | None:
    """The hand a redo would bring back: {"number", "record"}, or None.

    Undos stack up: after undoing hands 5 and 4, a redo brings back 4, then 5.
    Any other change (a hand added, corrected or imported) ends the chance, so a
    redo never lands on a table that moved on.
    """
    pending_redos = 0
    for change in table.changes.order_by("-at", "-id").only("action", "number", "before")[:200]:
        if change.action == Change.Action.REDO:
            pending_redos += 1
        elif change.action == Change.Action.UNDO:
            if pending_redos:
                pending_redos -= 1
                continue
            if change.number != table.hands.count() + 1 or not isinstance(change.before, dict):
                return None
            return {"number": change.number, "record": copy.deepcopy(change.before)}
        else:
            return None
    return None


def redo_last(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> TableState:
    """Bring back the hand undone last (see `redo_candidate`) and return the new state.

    The redo is in the audit like any change; nothing to redo is a TableError.
    """
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("redo", base_revision, None)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return _loads(answer)
        _check_base(table, base_revision)
        candidate = redo_candidate(table)
        if candidate is None:
            raise TableError(_("no hay ninguna mano deshecha que rehacer"))
        number, record = candidate["number"], candidate["record"]
        _check_limit(number - 1)
        rewrite = _append(table, record)
        Hand.objects.create(table=table, number=number, record=record)
        return _loads(
            _commit_json(
                table,
                action=Change.Action.REDO,
                number=number,
                before=None,
                after=record,
                via=via,
                rewrite=rewrite,
                keys=keys,
                fingerprint=fingerprint,
                status=200,
                idempotency_key=idempotency_key,
            )
        )


def replace_hand(
    table: Table,
    number: Any,
    record: Any,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> EditedState:
    """Replace hand `number`, replay from the start of its vaca, return the state plus "changed".

    "changed" lists the table-wide numbers of the hands whose mano, juego, score or
    winner differ from before the edit (the edited hand itself when its own result
    changed). A stale `base_revision` raises StaleEdit; a later hand that would
    break the rules raises LaterHandInvalid; nothing is saved in either case.
    """
    return cast(
        EditedState,
        _loads(
            replace_hand_json(
                table,
                number,
                record,
                base_revision=base_revision,
                idempotency_key=idempotency_key,
                via=via,
            )
        ),
    )


def replace_hand_json(
    table: Table,
    number: Any,
    record: Any,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """replace_hand(), answering the state's JSON text (with "changed"; `finished`: as
    add_hand_json)."""
    clean = check_record(record)
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    if not _is_int(number) or number < 1:
        raise HandNotFound(_("la mano %(n)s no existe"), n=number)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("edit", number, clean)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        _check_base(table, base_revision)
        try:
            hand = table.hands.get(number=number)
        except Hand.DoesNotExist:
            raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
        table_changing.send(sender=Table, table=table, vaca=_vaca_index(table, number))
        try:
            rewrite = _rewrite_from(table, number, clean)
        except _BadHand as bad:
            if bad.number == number:
                raise bad.error from None
            raise LaterHandInvalid(
                _("con este cambio la mano %(n)s ya no valdría: %(why)s"),
                bad.number,
                n=bad.number,
                why=_InLanguage(bad.error),
            ) from None
        before = hand.record
        hand.record = clean
        hand.save(update_fields=["record", "updated_at"])
        return _commit_json(
            table,
            action=Change.Action.EDIT,
            number=number,
            before=before,
            after=clean,
            via=via,
            rewrite=rewrite,
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
            finished=finished,
            extra={"changed": rewrite.changed()},
        )
