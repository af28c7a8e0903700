"""Hypothesis strategies: random valid hand records dealt from a real 40-card deck."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from muscore.rules import INDICES, Hand, Rules

DECK = [index for index in INDICES for _ in range(4)]
TEXT = {1: "A", 10: "S", 11: "C", 12: "R"}


def card_text(index: int, draw: Any) -> str:
    # Both spellings a table may type: digits and letters.
    if index in TEXT and draw(st.booleans()):
        return TEXT[index]
    return str(index)


@st.composite
def bets(draw: Any, allow_ordago: bool = True) -> dict[str, Any]:
    count = draw(st.integers(1, 4))
    side = draw(st.sampled_from("AB"))
    out = []
    for i in range(count):
        last = i == count - 1
        if last and allow_ordago and draw(st.integers(0, 4)) == 0:
            out.append({"side": side, "n": "ordago"})
        else:
            out.append({"side": side, "n": draw(st.integers(1, 12)) if i else
                        draw(st.sampled_from([2, 2, 2, 3, 5, 10, 40]))})
        side = "B" if side == "A" else "A"
    return {"bets": out, "end": draw(st.sampled_from(["quiero", "no_quiero"]))}


@st.composite
def records(draw: Any, players: int | None = None, reyes: int | None = None,
            bets_allowed: bool = True) -> dict[str, Any]:
    """A valid hand record with every seat's cards shown."""
    n = players or draw(st.sampled_from([2, 4, 4, 4, 6]))
    rules = Rules(
        players=n,
        reyes=reyes or draw(st.sampled_from([8, 4])),
        target=draw(st.sampled_from([40, 40, 30, 35, 10])),
        real31=draw(st.sampled_from(["no", "no", "rey", "figura", "sota"])),
    )
    deal = draw(st.permutations(DECK))
    hands = {}
    for seat in range(n):
        cards = deal[seat * 4:seat * 4 + 4]
        hands[str(seat)] = " ".join(card_text(c, draw) for c in cards)
    parsed = [Hand.parse(hands[str(s)]) for s in range(n)]
    pares_sides = {s % 2 for s in range(n) if parsed[s].pares(rules)}
    juego_sides = {s % 2 for s in range(n) if parsed[s].has_juego(rules)}
    fourth = "juego" if juego_sides else "punto"
    lances: dict[str, Any] = {}
    if bets_allowed:
        for lance in ("grande", "chica", "pares", fourth):
            if lance == "pares" and len(pares_sides) < 2:
                continue
            if lance == "juego" and len(juego_sides) < 2:
                continue
            if draw(st.booleans()):
                lances[lance] = draw(bets())
    target = rules.target
    record: dict[str, Any] = {
        "rules": {"players": n, "reyes": rules.reyes, "target": target, "real31": rules.real31},
        "mano": draw(st.integers(0, n - 1)),
        "score": {"A": draw(st.integers(0, target - 1)), "B": draw(st.integers(0, target - 1))},
        "hands": hands,
    }
    if lances:
        record["lances"] = lances
    return record
