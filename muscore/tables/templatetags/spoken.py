"""What a screen reader hears of a hand's cards (muscore.handentry.spoken), for the
templates that draw the card picker and the cards of an example or a reading."""

from __future__ import annotations

from django import template

from muscore.handentry import spoken

register = template.Library()


@register.filter
def card_word(card: str) -> str:
    """ "R" -> "rey", in the active language."""
    return spoken.card_word(str(card))


@register.filter
def cards_words(cards: str) -> str:
    """ "R R 5 4" -> "rey, rey, cinco, cuatro"; "" for no cards."""
    return spoken.cards_words(str(cards or ""))


@register.simple_tag
def card_field_name(name: str, is_mano: bool = False) -> str:
    """A seat's card field: "cartas de Ana, mano"."""
    return spoken.card_field_name(str(name), is_mano=bool(is_mano))
