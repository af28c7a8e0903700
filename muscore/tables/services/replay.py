"""The replay of a table's records into vacas, and the stored vacas (VacaCheckpoint).

Each vaca's replay is stored in the same transaction as the change, so a write replays
only from the start of the vaca it touches, and a read replays nothing. `_lock` takes
the table's write lock and makes its stored vacas current.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from muscore import rules as rules_engine
from muscore.tables.models import Hand, Table, VacaCheckpoint
from muscore.tables.services.errors import (
    LaterHandInvalid,
    TableNotFound,
    UnreadableHand,
    _BadHand,
    _InLanguage,
)
from muscore.tables.state import (
    BoardState,
    HandResultDict,
    ReplayedHand,
    TableState,
    VacaSummary,
)


def _empty_vaca(mano: int) -> dict[str, Any]:
    return {
        "hands": [],
        "juegos": {"A": 0, "B": 0},
        "winner": None,
        "score": {"A": 0, "B": 0},
        "next_mano": mano,
    }


def _score(record: dict[str, Any]) -> HandResultDict:
    try:
        return rules_engine.score(record)
    except rules_engine.RuleError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        raise UnreadableHand(f"{type(exc).__name__}: {exc}"[:200]) from exc


def replay_vacas(
    table_rules: dict[str, Any],
    mano: int,
    records: list[dict[str, Any]],
    first_hand: int = 1,
) -> list[dict[str, Any]]:
    """The vacas of `records`, played from a vaca's start: `mano` is its first mano and
    `first_hand` the table-wide number of records[0].

    muscore.rules.replay_evening splits them into vacas and resumes from that
    checkpoint: each vaca is muscore.rules.replay's output plus "first_hand" and
    "mano"; a vaca ends at the hand that wins it and the next starts at 0-0 with the
    won vaca's next_mano; the last vaca returned is the current one (no winner, maybe
    no hands). Raises _BadHand with the table-wide number of the first hand that breaks
    the rules.
    """
    start = rules_engine.Checkpoint(first_hand - 1, mano)
    try:
        evening = rules_engine.replay_evening(table_rules, records, start)
    except rules_engine.VacaError as error:
        number = error.number if error.number is not None else first_hand
        raise _BadHand(number, error.cause or error) from None
    except rules_engine.RuleError as error:
        raise _BadHand(first_hand, error) from None
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        # An input the engine did not expect is still a record's fault, never a crash:
        # the last one, the hand being added or the first that no replay has taken yet.
        bad = UnreadableHand(f"{type(exc).__name__}: {exc}"[:200])
        raise _BadHand(first_hand + max(len(records) - 1, 0), bad) from exc
    # The vacas are stored and read back as JSON rows: the services handle them as plain
    # dicts, and state.py's TypedDicts (the contract's) describe them to the pages.
    return cast(list[dict[str, Any]], [*evening["finished"], evening["current"]])


def replay_table(
    table_rules: dict[str, Any], first_mano: int, records: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(current vaca, finished vacas) of a whole table's records, hands numbered from 1."""
    vacas = replay_vacas(table_rules, first_mano, records)
    return vacas[-1], vacas[:-1]


def _label(vaca: dict[str, Any], start: int, mano: int) -> dict[str, Any]:
    return {**vaca, "first_hand": start + 1, "mano": mano}


def _records(table: Table, first: int = 1) -> list[dict[str, Any]]:
    """The table's records from hand number `first` on, in order."""
    hands = Hand.objects.filter(table_id=table.pk)
    if first > 1:
        hands = hands.filter(number__gte=first)
    return list(hands.order_by("number").values_list("record", flat=True))


def _dumps(value: Any) -> str:
    # The separators JsonResponse uses: the text stored is the text the API answers.
    return json.dumps(value)


SUMMARY_KEYS = ("juegos", "winner", "score", "next_mano", "first_hand", "mano")


def summary_of(vaca: Mapping[str, Any]) -> VacaSummary:
    """A vaca without its hands: its SUMMARY_KEYS and "hand_count" (stored beside each vaca:
    `VacaCheckpoint.summary`)."""
    summary = {key: vaca[key] for key in SUMMARY_KEYS}
    summary["hand_count"] = len(vaca["hands"])
    return cast(VacaSummary, summary)


def summarize(state: TableState) -> BoardState:
    """A whole state as the board reads it (`board_state`): the finished vacas summed up,
    the last one kept whole only when the board shows its end (the current vaca has no
    hands yet)."""
    finished = state["finished"]
    last = finished[-1] if finished and not state["current"]["hands"] else None
    return {
        "id": state["id"],
        "players": state["players"],
        "rules": state["rules"],
        "current": state["current"],
        "finished": [summary_of(vaca) for vaca in finished],
        "last_finished": last,
        "revision": state["revision"],
    }


def _rows(table: Table, index: int, vacas: list[dict[str, Any]]) -> list[VacaCheckpoint]:
    return [
        VacaCheckpoint(
            table_id=table.pk,
            index=index + i,
            first_hand=vaca["first_hand"],
            mano=vaca["mano"],
            hand_count=len(vaca["hands"]),
            winner=vaca["winner"],
            result=_dumps(vaca),
            summary=_dumps(summary_of(vaca)),
        )
        for i, vaca in enumerate(vacas)
    ]


def _store_vacas(
    table: Table, index: int, vacas: list[dict[str, Any]], *, alone: bool = False
) -> None:
    """Replace the table's stored vacas from `index` on by `vacas` (inside the write lock);
    with `alone`, only the one at `index`."""
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if alone:
        rows = rows.filter(index=index)
    rows.delete()
    VacaCheckpoint.objects.bulk_create(_rows(table, index, vacas))


def _replay_all(table: Table) -> list[dict[str, Any]]:
    try:
        return replay_vacas(table.rules, table.first_mano, _records(table))
    except _BadHand as bad:
        raise LaterHandInvalid(
            _("mano %(n)s: %(why)s"), bad.number, n=bad.number, why=_InLanguage(bad.error)
        ) from None


def _ensure_replayed(table: Table) -> None:
    """Inside the write lock: replay the whole table once if its stored vacas are not
    those of its revision (a table from before them, or loaded with loaddata)."""
    if table.replayed_revision == table.revision and table.vacas.exists():
        return
    _store_vacas(table, 0, _replay_all(table))
    table.replayed_revision = table.revision
    table.save(update_fields=["replayed_revision"])


def rebuild_checkpoints(table: Table) -> None:
    """Replay the table's records from scratch and store its vacas again (restore uses it).

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    with transaction.atomic():
        fresh = _lock(table.pk, replayed=False)
        _store_vacas(fresh, 0, _replay_all(fresh))
        fresh.replayed_revision = fresh.revision
        fresh.save(update_fields=["replayed_revision"])


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


# What a read gives, each cached under its own key: the whole state ("state", the API's


def _lock(table_id: str, *, replayed: bool = True) -> Table:
    """Take the table's write lock inside the current transaction, then read it fresh.

    The no-op UPDATE comes first on purpose: on PostgreSQL it takes the row lock;
    on SQLite it takes the database write lock before any read, so a second
    writer waits (busy timeout) instead of failing to upgrade a read lock.
    With `replayed` (the default) the table's stored vacas are made current.
    """
    if not Table.objects.filter(pk=table_id).update(revision=F("revision")):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    table = Table.objects.select_for_update().get(pk=table_id)
    if replayed:
        _ensure_replayed(table)
    return table


class Rewrite:
    """What a change does to the stored vacas: from `index` on, they become `vacas`
    (only the vaca at `index` when `alone`: the later ones stay as they are).

    `old` are the vacas they replace (to tell which hands' results changed)."""

    def __init__(
        self,
        index: int,
        vacas: list[dict[str, Any]],
        old: list[dict[str, Any]],
        *,
        alone: bool = False,
    ) -> None:
        self.index = index
        self.vacas = vacas
        self.old = old
        self.alone = alone

    def changed(self) -> list[int]:
        """Table-wide numbers of the hands whose mano, juego, score or winner differ."""

        def summary(vacas: list[dict[str, Any]]) -> dict[int, Any]:
            return {
                vaca["first_hand"] + i: (h["mano"], h["juego"], h["score"], h["winner"])
                for vaca in vacas
                for i, h in enumerate(vaca["hands"])
            }

        before, after = summary(self.old), summary(self.vacas)
        return sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))


def _stored_vacas(table: Table, index: int, last: int | None = None) -> list[dict[str, Any]]:
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if last is not None:
        rows = rows.filter(index__lte=last)
    return [json.loads(text) for text in rows.order_by("index").values_list("result", flat=True)]


def _current_row(table: Table) -> VacaCheckpoint:
    row = VacaCheckpoint.objects.filter(table_id=table.pk).order_by("-index").first()
    assert row is not None, "_lock made the stored vacas current"
    return row


def _replay_from(table: Table, row: VacaCheckpoint, records: list[dict[str, Any]]) -> Rewrite:
    """The vacas of `records` replayed from the start of `row`'s vaca, replacing it and
    every later one."""
    vacas = replay_vacas(table.rules, row.mano, records, row.first_hand)
    return Rewrite(row.index, vacas, _stored_vacas(table, row.index))


def _append(table: Table, record: dict[str, Any], row: VacaCheckpoint | None = None) -> Rewrite:
    """`record` as the table's next hand: only the current vaca is replayed (`row`, when
    the caller read it inside the lock already).

    Raises the engine's RuleError about the new hand (nothing is stored)."""
    row = row or _current_row(table)
    records = [*_records(table, row.first_hand), record]
    new = row.first_hand + len(records) - 1
    try:
        vacas = replay_vacas(table.rules, row.mano, records, row.first_hand)
    except _BadHand as bad:
        raise refusal(bad, new, _("mano %(n)s: %(why)s")) from None
    # The current vaca is the last one stored: what the replay replaces is its own row's
    # (read with it, not read again).
    return Rewrite(row.index, vacas, [json.loads(row.result)])


def refusal(bad: _BadHand, number: int, later: Any) -> Exception:
    """What a write of hand `number` answers when its replay broke at hand `bad.number`:
    the engine's own error when that is hand `number`, else LaterHandInvalid saying
    `later` (a template of "n", the later hand, and "why")."""
    if bad.number == number:
        return bad.error
    return LaterHandInvalid(later, bad.number, n=bad.number, why=_InLanguage(bad.error))


def _vaca_index(table: Table, number: int) -> int:
    """The index of the vaca stored hand `number` belongs to."""
    index = (
        VacaCheckpoint.objects.filter(table_id=table.pk, first_hand__lte=number)
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return index or 0


def _rewrite_from(table: Table, number: int, record: dict[str, Any]) -> Rewrite:
    """Hand `number` replaced by `record`: its vaca is replayed, and the later ones only
    if that vaca now ends at another hand (each vaca starts at 0-0 with its own mano)."""
    row = (
        VacaCheckpoint.objects.filter(table_id=table.pk, first_hand__lte=number)
        .order_by("-index")
        .first()
    )
    assert row is not None, "hand 1 is in vaca 0"
    end = row.first_hand + row.hand_count - 1 if row.winner is not None else None
    records = _records(table, row.first_hand)
    records[number - row.first_hand] = record
    if end is not None:
        alone = replay_vacas(table.rules, row.mano, records[: row.hand_count], row.first_hand)
        if len(alone) == 2 and alone[0]["winner"] is not None and not alone[1]["hands"]:
            # Still won at its last hand: the vacas after it stay as they are.
            old = _stored_vacas(table, row.index, row.index)
            return Rewrite(row.index, alone[:1], old, alone=True)
    return _replay_from(table, row, records)


def iter_hands(state: TableState) -> list[tuple[int, ReplayedHand]]:
    """(table-wide number, replayed hand) for every hand of every vaca, in order."""
    out: list[tuple[int, ReplayedHand]] = []
    for vaca in [*state["finished"], state["current"]]:
        for i, hand in enumerate(vaca["hands"]):
            out.append((vaca["first_hand"] + i, hand))
    return out
