"""What a change does to a table's stored vacas (a `Rewrite`), or why it cannot be made.

Each write's step asks one of these inside the table's lock, after showing the vaca it
touches to `table_changing`: a hand added (`append`), the last one taken away
(`replay_from`), one corrected (`correction`).
Only the vacas from the touched one on are replayed; a hand that the change makes
break the rules is refused here, in the words of that change.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _

from muscore.tables.models import Table, VacaCheckpoint
from muscore.tables.services.replay import BadHand, replay_vacas
from muscore.tables.services.stored import records, stored_vacas


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


def replay_from(table: Table, row: VacaCheckpoint, vaca_records: list[dict[str, Any]]) -> Rewrite:
    """The vacas of `vaca_records` replayed from the start of `row`'s vaca, replacing it
    and every later one (an undo: its vaca without the last hand)."""
    vacas = replay_vacas(table.rules, row.mano, vaca_records, row.first_hand)
    return Rewrite(row.index, vacas, stored_vacas(table, row.index))


def append(table: Table, record: dict[str, Any], row: VacaCheckpoint) -> Rewrite:
    """`record` as the table's next hand: only the current vaca (`row`) is replayed.

    Raises the engine's RuleError about the new hand (nothing is stored)."""
    vaca_records = [*records(table, row.first_hand), record]
    new = row.first_hand + len(vaca_records) - 1
    try:
        vacas = replay_vacas(table.rules, row.mano, vaca_records, row.first_hand)
    except BadHand as bad:
        raise bad.refusal(new, _("mano %(n)s: %(why)s")) from None
    # The current vaca is the last one stored: what the replay replaces is its own row's
    # (read with it, not read again).
    return Rewrite(row.index, vacas, [json.loads(row.result)])


def correction(table: Table, row: VacaCheckpoint, number: int, record: dict[str, Any]) -> Rewrite:
    """Hand `number` (of `row`'s vaca) replaced by `record`: its vaca is replayed, and the
    later ones only if that vaca now ends at another hand (each vaca starts at 0-0 with
    its own mano). Raises the engine's RuleError about the hand, or LaterHandInvalid
    about a later one the correction would break."""
    try:
        return _corrected(table, row, number, record)
    except BadHand as bad:
        raise bad.refusal(
            number, _("con este cambio la mano %(n)s ya no valdría: %(why)s")
        ) from None


def _corrected(table: Table, row: VacaCheckpoint, number: int, record: dict[str, Any]) -> Rewrite:
    end = row.first_hand + row.hand_count - 1 if row.winner is not None else None
    vaca_records = records(table, row.first_hand)
    vaca_records[number - row.first_hand] = record
    if end is not None:
        alone = replay_vacas(table.rules, row.mano, vaca_records[: row.hand_count], row.first_hand)
        if len(alone) == 2 and alone[0]["winner"] is not None and not alone[1]["hands"]:
            # Still won at its last hand: the vacas after it stay as they are.
            old = stored_vacas(table, row.index, row.index)
            return Rewrite(row.index, alone[:1], old, alone=True)
    return replay_from(table, row, vaca_records)
