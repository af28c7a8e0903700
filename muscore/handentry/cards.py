"""The fields of what each seat held: cards, the jugadas said without cards, and what a
seat that showed cards declared. The entry and the calculator read them alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from muscore.rules import Hand

PARES_CHOICES = ("no", "par", "medias", "duples")
JUEGO_CHOICES = ("no", "31", "32", "33", "34", "35", "36", "37", "40")
# The ten card values a table tells apart (suits never matter); 2 and 3 are still
# their own indices for counting the deck, even when they play as as and rey.
CARD_VALUES = ("1", "2", "3", "4", "5", "6", "7", "S", "C", "R")
CARD_ALIASES = {"A": "1", "10": "S", "11": "C", "12": "R", "S": "S", "C": "C", "R": "R"}
# What a seat said before pares and juego, as the fields dp<seat>, dj<seat>: "" = what
# his cards hold (the common case, no tap), "si" / "no" = what he said instead.
DECLARED_CHOICES = ("", "si", "no")
DECLARED_FIELDS = (("pares", "dp"), ("juego", "dj"))


class CardTokenError(ValueError):
    """A token of a cards field that is no card; str() is the token."""


def cards_from_text(text: str) -> list[str]:
    """Cards as typed or tapped ("r r 5 4", "RR54", "12 12 5 4", "A,1") as card values
    (["R", "R", "5", "4"]), in the order written. Raises :class:`CardTokenError` naming
    the first token that is not a card."""
    cards = []
    for token in text.replace(",", " ").upper().split():
        if token in CARD_VALUES:
            cards.append(token)
        elif token in CARD_ALIASES:
            cards.append(CARD_ALIASES[token])
        elif all(ch in CARD_VALUES or ch == "A" for ch in token):
            # Written together, as the picker fills the field without JS: "RR54".
            cards.extend(CARD_ALIASES.get(ch, ch) for ch in token)
        else:
            raise CardTokenError(token)
    return cards


def normal_cards(text: str) -> str:
    """A cards field as the engine writes a hand ("r r 5 4" -> "R R 5 4"), four cards in
    the engine's order; fewer or more as read; "" for none. Raises CardTokenError."""
    cards = cards_from_text(text)
    if len(cards) != 4:
        return " ".join(cards)
    return str(Hand.parse(" ".join(cards)))


def seat_fields(record: Mapping[str, Any]) -> dict[str, str]:
    """The seat fields showing a hand record: c<seat> the cards in the order they were
    entered (issue 38.3: a correction keeps them as they are), p<seat>/j<seat> the
    jugadas said without cards, dp<seat>/dj<seat> what a seat declared ("si"/"no").
    Kept through an edit: what was said is part of the hand (a lie changes the count)."""
    data: dict[str, str] = {}
    for seat, text in (record.get("hands") or {}).items():
        try:
            data[f"c{seat}"] = " ".join(cards_from_text(str(text)))
        except CardTokenError:
            data[f"c{seat}"] = str(text)
    for seat, jugada in (record.get("jugadas") or {}).items():
        for lance, key in (("pares", "p"), ("juego", "j")):
            if lance in jugada:
                data[f"{key}{seat}"] = str(jugada[lance])
    for seat, said in (record.get("declared") or {}).items():
        for lance, key in DECLARED_FIELDS:
            if lance in said:
                data[f"{key}{seat}"] = "si" if said[lance] else "no"
    return data
