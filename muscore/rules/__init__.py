"""muscore.rules: the game of Mus, scored exactly as a table plays it.

A pure package (standard library only). The JSON contract of
docs/contract.md is served by :func:`score` and :func:`replay`; the
typed API reads the same results through value types:

>>> from muscore.rules import Hand, Rules, score_hand
>>> Hand.parse("r 3 5 4").pares(Rules())
'par'
>>> Hand.parse("r 3 5 4").pares(Rules(reyes=4)) is None
True
>>> score_hand({"hands": {"0": "R R 5 4", "1": "R C C 5",
...                       "2": "1 1 6 7", "3": "S S 7 7"}}).winner is None
True

The contract's JSON shapes are typed in :mod:`muscore.rules.contract` (``HandRecord``,
``HandResultDict``, ``VacaRecord``, ``VacaReplay``, ``Evening``): what :func:`score`,
:func:`replay` and :func:`replay_evening` return.

Every invalid record raises a :class:`RuleError` (a ``ValueError``) whose
message names the seat, card or lance at fault.
"""

from __future__ import annotations

from collections.abc import Mapping

from muscore.rules.cards import (
    CARD_NAMES,
    CARD_PLURALS,
    CARD_TEXT,
    INDICES,
    Evaluation,
    Hand,
    Lance,
    Pares,
    Real31,
    Rules,
    Side,
    evaluate,
    parse_cards,
)
from muscore.rules.contract import Evening, HandRecord, HandResultDict, VacaRecord, VacaReplay
from muscore.rules.draft import HandDraft, Holding, LanceState, Preview, Tap, TapKind
from muscore.rules.errors import (
    BettingError,
    CardError,
    RecordError,
    RuleError,
    ScoreError,
    VacaError,
)
from muscore.rules.results import HandResult, LanceResult, Ordago, Step, VacaResult
from muscore.rules.scoring import score
from muscore.rules.vaca import (
    Checkpoint,
    checkpoints,
    replay,
    replay_evening,
    score_entry,
    score_perete,
    score_piedras,
)


def score_hand(record: Mapping[str, object]) -> HandResult:
    """Score a hand record (the contract's JSON as a dict) into a typed :class:`HandResult`."""
    return HandResult(score(record))


def replay_vaca(vaca: Mapping[str, object]) -> VacaResult:
    """Replay a vaca (the contract's JSON as a dict) into a typed :class:`VacaResult`."""
    return VacaResult(replay(vaca))


__all__ = [
    "CARD_NAMES", "CARD_PLURALS", "CARD_TEXT", "INDICES",
    "BettingError", "CardError", "Checkpoint", "Evaluation", "Evening", "Hand", "HandDraft",
    "HandRecord", "HandResult", "HandResultDict", "VacaRecord", "VacaReplay",
    "Holding", "Lance", "LanceResult", "LanceState", "Ordago", "Pares", "Preview", "Real31",
    "RecordError", "RuleError", "Rules", "ScoreError", "Side", "Step", "Tap", "TapKind",
    "VacaError", "VacaResult", "checkpoints", "evaluate", "parse_cards", "replay", "replay_evening",
    "replay_vaca", "score", "score_entry", "score_hand",
    "score_perete", "score_piedras",
]
