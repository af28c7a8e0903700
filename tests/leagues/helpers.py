"""Small builders of league documents for the tests."""

from __future__ import annotations

from typing import Any

# A vaca to 3 juegos that side A (the first pair) wins 3-1, with 120-56 tantos:
# hand 1 scores 2-8 by recuento, hand 2 an órdago A wins (B had 8), hand 3 an órdago
# B wins at 0-0, hand 4 2-8 again, hand 5 an órdago A wins (B had 8), hand 6 one at 0-0.
PLAIN = {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"},
         "lances": {}}
ORDAGO_A = {"hands": {"0": "R R R 5", "1": "1 1 4 4", "2": "6 6 7 7", "3": "5 5 6 4"},
            "lances": {"grande": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}}
ORDAGO_B = {"hands": {"0": "1 1 4 4", "1": "R R R 5", "2": "6 6 7 7", "3": "5 5 6 4"},
            "lances": {"grande": {"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"}}}
VACA_A_3_1 = {"mano": 0, "hands": [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]}


def league(n: int, matches: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A league of ``n`` pairs P0..P(n-1) with players pK-a and pK-b."""
    doc: dict[str, Any] = {
        "name": "Liga de prueba",
        "pairs": [{"name": f"P{i}", "players": [f"p{i}-a", f"p{i}-b"]} for i in range(n)],
        "matches": matches,
    }
    doc.update(extra)
    return doc


def won(first: int, second: int, a: int, b: int, *tantos: int) -> dict[str, Any]:
    """A match entered by hand: juegos a-b (and tantos if given)."""
    match: dict[str, Any] = {"pairs": [first, second], "juegos": [a, b]}
    if tantos:
        match["tantos"] = list(tantos)
    return match


def slot_of(match: Any) -> str:
    """A cup's knockout game named as its tie is ("qf1".."final", "third"; "" for a group
    match)."""
    from muscore.leagues.models.knockout import name, rounds_of

    tie = match.tie
    return name(tie.round, tie.order, rounds_of(match.competition)) if tie is not None else ""


def game(competition: Any, slot: str) -> Any:
    """The one game of a cup's tie named `slot` ("qf1".."final", "third")."""
    from muscore.leagues.models.knockout import name, places, rounds_of

    rounds = rounds_of(competition)
    number, order = next(p for p in places(rounds) if name(*p, rounds) == slot)
    return (competition.matches.select_related("competition", "first__pair", "second__pair",
                                               "tie")
            .get(tie__round=number, tie__order=order))


def games(competition: Any) -> dict[str, Any]:
    """A cup's knockout games by their ties' names."""
    return {slot_of(m): m for m in competition.matches.filter(tie__isnull=False)
            .select_related("competition", "first__pair", "second__pair", "tie")}
