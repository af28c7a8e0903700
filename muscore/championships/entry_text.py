"""What a championship's entry may say: its names, its players and its contact, checked as
every text of the site (:mod:`muscore.text`, :mod:`muscore.clubs.forms`), and a player's key.

The public entry form's words end up on boards, cards, the organisers' list and their CSV:
each refusal says, in a player's words, what is wrong (ChampionshipError, a 400).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from muscore.championships.errors import ChampionshipError
from muscore.clubs.forms import clean_name, clean_person_name
from muscore.clubs.models import NAME_MAX
from muscore.text import has_bidi_control, is_invisible, is_marks_only, person_key, problem


def fold(name: str) -> str:
    """A player's key as an entry stores it (``key_a``, ``key_b``): one person, one pair,
    whatever the spelling (:func:`muscore.text.person_key`: "Etxeberria, Iñaki." with a
    soft hyphen, a dotless ı or in fullwidth letters is Iñaki Etxeberria)."""
    return person_key(name)[:NAME_MAX]


def checked_name(value: str, what: str, *, person: bool = False) -> str:
    """``value`` as an entry, venue, region or phase may be named (``what`` names the field in
    a refusal), or ChampionshipError saying what is wrong with it."""
    try:
        # Checked as the clubs' names (muscore.text): the public entry form's names end up
        # on boards, cards and exports; no control character, direction override or
        # invisible-only name; a person's name in one alphabet, with a letter.
        value = (clean_person_name if person else clean_name)(value or "")
    except forms.ValidationError as error:
        raise ChampionshipError(error.messages[0]) from None
    if not value:
        raise ChampionshipError(_("Falta %(what)s.") % {"what": what})
    if len(value) > NAME_MAX:
        raise ChampionshipError(_("%(what)s es demasiado largo: %(limit)s caracteres como mucho.")
                                % {"what": what, "limit": NAME_MAX})
    return value


def checked_contact(value: str) -> str:
    """A contact (a phone, an address) checked as every text (muscore.text): shown to the
    venue's organisers and in their CSV, so no control character, no direction override."""
    contact = " ".join((value or "").split())
    if problem(contact):
        raise ChampionshipError(_("El contacto lleva un carácter de control: quítalo."))
    if has_bidi_control(contact):
        raise ChampionshipError(
            _("El contacto lleva un carácter que cambia el sentido del texto: quítalo."))
    if contact and is_invisible(contact):
        raise ChampionshipError(_("El contacto solo tiene caracteres invisibles."))
    if contact and is_marks_only(contact):  # they would draw over the cell before it
        raise ChampionshipError(_("El contacto solo tiene acentos sueltos, sin letras ni "
                                  "números."))
    if len(contact) > 200:
        raise ChampionshipError(_("El contacto es demasiado largo: 200 caracteres como mucho."))
    return contact
