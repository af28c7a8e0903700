"""A table's records replayed by the engine into vacas, and a vaca summed up.

Pure: no database here. `replay_vacas` is the one call into `muscore.rules` for a
table's hands (through `replay_evening`, resuming from a vaca's start); a hand that
breaks the rules comes back as `BadHand`, which the writes turn into their refusal.
The stored vacas are these replays (`stored.py`); a change's new ones, `rewrite.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from muscore import rules as rules_engine
from muscore.messages import Message
from muscore.tables.services.errors import LaterHandInvalid, UnreadableHand
from muscore.tables.state import (
    BoardState,
    HandResultDict,
    ReplayedHand,
    TableState,
    VacaSummary,
)


class BadHand(Exception):
    """The first hand of a replay that breaks the rules: its table-wide `number` and the
    engine's `error` about it. Never reaches a caller of the services: each write says
    it as its refusal (`refusal`, `later`)."""

    def __init__(self, number: int, error: rules_engine.RuleError) -> None:
        super().__init__(str(error))
        self.number = number
        self.error = error

    def later(self, template: Message) -> LaterHandInvalid:
        """LaterHandInvalid saying `template` (of "n", this hand's number, and "why")."""
        return LaterHandInvalid(template, self.number, n=self.number, why=self.error)

    def refusal(self, number: int, later: Message) -> Exception:
        """What a write of hand `number` answers: the engine's own error when this is hand
        `number`, else a later hand broken by it (`later`'s words)."""
        return self.error if self.number == number else self.later(later)


def score_record(record: dict[str, Any]) -> HandResultDict:
    """The engine's result of one full record (with its rules, mano and score); a record
    the engine chokes on is an UnreadableHand, never a crash."""
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
    no hands: a new table's vacas are the replay of no record). Raises BadHand with the
    table-wide number of the first hand that breaks the rules.
    """
    start = rules_engine.Checkpoint(first_hand - 1, mano)
    try:
        evening = rules_engine.replay_evening(table_rules, records, start)
    except rules_engine.VacaError as error:
        number = error.number if error.number is not None else first_hand
        raise BadHand(number, error.cause or error) from None
    except rules_engine.RuleError as error:
        raise BadHand(first_hand, error) from None
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        # An input the engine did not expect is still a record's fault, never a crash:
        # the last one, the hand being added or the first that no replay has taken yet.
        bad = UnreadableHand(f"{type(exc).__name__}: {exc}"[:200])
        raise BadHand(first_hand + max(len(records) - 1, 0), bad) from exc
    # The vacas are stored and read back as JSON rows: the services handle them as plain
    # dicts, and state.py's TypedDicts (the contract's) describe them to the pages.
    return cast(list[dict[str, Any]], [*evening["finished"], evening["current"]])


def replay_table(
    table_rules: dict[str, Any], first_mano: int, records: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(current vaca, finished vacas) of a whole table's records, hands numbered from 1."""
    vacas = replay_vacas(table_rules, first_mano, records)
    return vacas[-1], vacas[:-1]


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


def iter_hands(state: TableState) -> list[tuple[int, ReplayedHand]]:
    """(table-wide number, replayed hand) for every hand of every vaca, in order."""
    out: list[tuple[int, ReplayedHand]] = []
    for vaca in [*state["finished"], state["current"]]:
        for i, hand in enumerate(vaca["hands"]):
            out.append((vaca["first_hand"] + i, hand))
    return out
