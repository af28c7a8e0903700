"""The table state as the services hand it to the pages, the API and the leagues.

`table_state(table)` and every write of muscore.tables.services answer a `TableState`:
the table's names and options, and its vacas as muscore.rules.replay gives them, each
labelled by the table ("first_hand": the table-wide number of its first hand, "mano":
its first mano). A hand's `result` is score()'s contract result (docs/contract.md),
typed by the engine's contract (muscore.rules.contract).

No `from __future__ import annotations` here: TypedDict reads NotRequired from the
annotations themselves at run time (tests/tables/test_state_types.py relies on it).
"""

from typing import Any, NotRequired, TypedDict

from muscore.rules.contract import (
    EveningVaca,
    HandRecord,
    HandResultDict,
    PereteNoted,
    PiedrasTap,
    ReplayedEntry,
    Score,
    SideName,
)

#: One entry of a vaca as replayed (a dealt hand, a piedras tap or a perete): the
#: engine's contract type, under the name the table's code has used.
ReplayedHand = ReplayedEntry
#: A vaca: muscore.rules.replay's output plus the table's labels (first_hand, mano).
Vaca = EveningVaca

__all__ = ["BoardState", "EditedState", "HandRecord", "HandResultDict", "PereteNoted",
           "PiedrasTap", "ReplayedHand", "Score", "SideName", "StoredHand", "TableState",
           "Vaca", "VacaSummary"]


class TableState(TypedDict):
    """A table as the API's GET gives it: {"id", "players", "rules", "current", "finished",
    "revision"}."""

    id: str
    players: list[str]
    rules: dict[str, Any]
    current: Vaca
    finished: list[Vaca]
    revision: int


class VacaSummary(TypedDict):
    """A vaca without its hands: what the board and the API's default read say of a
    finished vaca (stored beside its replay, `VacaCheckpoint.summary`)."""

    juegos: Score
    winner: SideName | None
    score: Score
    next_mano: int
    first_hand: int
    mano: int
    hand_count: int


class BoardState(TypedDict):
    """What the board draws, read without the finished vacas' hands: the current vaca in
    full, each finished vaca's summary, and the last finished vaca in full when the
    board shows its end (the current vaca has no hands yet), else None. The API's default
    GET is the same without "last_finished"."""

    id: str
    players: list[str]
    rules: dict[str, Any]
    current: Vaca
    finished: list[VacaSummary]
    last_finished: Vaca | None
    revision: int


class EditedState(TableState):
    """The state after a correction, plus the table-wide numbers of the hands it changed."""

    changed: list[int]


class StoredHand(TypedDict):
    """One stored hand (`hand_entry`): its number and record, and how it replayed."""

    number: int
    record: HandRecord
    mano: NotRequired[int]
    juego: NotRequired[int]
    score: NotRequired[Score]
    winner: NotRequired[SideName | None]
    result: NotRequired[HandResultDict]
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]
