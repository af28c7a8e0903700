"""The vaca replay: a table's hands in order, the score carried, the mano rotating."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules.cards import Rules, _show
from muscore.rules.errors import RecordError, RuleError, VacaError
from muscore.rules.scoring import VACA_HAND_KEYS, parse_mano, score_parts

VACA_KEYS = frozenset({"rules", "mano", "hands"})


def replay(vaca: object) -> dict[str, Any]:
    """Replay a vaca (see hand-record.md, "A vaca"): returns its contract output.

    Each hand is scored with the score carried from the hand before and the
    mano one seat on; a won juego starts the next at 0-0; the side that wins
    ``rules.juegos`` juegos wins the vaca, and a hand after that is an error.
    Every entry of ``hands`` also carries the hand's full ``result``.
    """
    if not isinstance(vaca, Mapping):
        raise VacaError("not_vaca")
    for key in vaca:
        if key not in VACA_KEYS:
            raise RecordError("unknown_key", key=str(key)[:40], where="the vaca")
    rules = Rules.from_json(vaca.get("rules"))
    mano = parse_mano(vaca.get("mano", 0), rules)
    hands = vaca.get("hands")
    if hands is None:
        raise VacaError("vaca_hands")
    if not isinstance(hands, list):
        raise RecordError("not_a", field="hands", what="a list", got=_show(hands))
    n = rules.players
    a = b = 0
    juego = 1
    juegos = {"A": 0, "B": 0}
    winner: str | None = None
    won_at = 0
    out: list[dict[str, Any]] = []
    for i, hand in enumerate(hands, 1):
        if winner is not None:
            raise VacaError("vaca_over", n=i, side=winner, at=won_at)
        if not isinstance(hand, Mapping):
            raise VacaError("vaca_hand", n=i, inner=RecordError("not_object"))
        for key in hand:
            if key not in VACA_HAND_KEYS:
                if key in VACA_KEYS or key == "score":
                    raise VacaError("vaca_hand_field", n=i, field=key)
                raise VacaError(
                    "vaca_hand", n=i,
                    inner=RecordError("unknown_key", key=str(key)[:40], where="the record"),
                )
        try:
            result = score_parts(hand, rules, mano, a, b)
        except RuleError as error:
            raise VacaError("vaca_hand", n=i, inner=error) from error
        won = result["winner"]
        out.append({"mano": mano, "juego": juego, "score": result["score"], "winner": won,
                    "result": result})
        mano = (mano + 1) % n
        if won is None:
            a, b = result["score"]["A"], result["score"]["B"]
            continue
        juegos[won] += 1
        if juegos[won] >= rules.juegos:
            winner = won
            won_at = i
            a, b = result["score"]["A"], result["score"]["B"]
        else:
            # The next juego starts at 0-0; the mano carries on round the table.
            a = b = 0
            juego += 1
    return {
        "hands": out,
        "juegos": juegos,
        "winner": winner,
        "score": {"A": a, "B": b},
        "next_mano": mano,
    }
