"""The line the board shows after a change made on this phone ("Mano 7 corregida: cambian
los tantos de las manos 8 y 9."), read from the board's query string."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from muscore.handentry.words import join_words
from muscore.tables import services
from muscore.tables.models import Table


def notice(query: Mapping[str, str], table: Table) -> str:
    """What the last change did, carried in the board's query string (after a redirect,
    or in the address the saver's board is given), its hands numbered as players count
    them (hands dealt, not piedras taps)."""

    def shown(raw: str) -> str:
        return str(services.dealt_number(table, int(raw))) if raw.isdigit() else raw

    if "anotacion" in query:  # a tap or a perete: an entry, numbered as such
        return _tap_notice(query)
    if "deshecha" in query and "pendiente" in query:
        return _("Mano %(n)s deshecha: el resultado de la partida vuelve a estar pendiente.") % {
            "n": shown(query["deshecha"][:6])
        }
    if "deshecha" in query:
        return _("Mano %(n)s deshecha.") % {"n": shown(query["deshecha"][:6])}
    if "rehecha" in query:
        return _("Mano %(n)s rehecha: vuelve a contar.") % {
            "n": shown(query["rehecha"][:6])
        }
    if "corregida" in query:
        number = shown(query["corregida"][:6])
        changed = [c for c in query.get("cambian", "").split(",") if c.isdigit()][:50]
        if not changed:
            return _("Mano %(n)s corregida: ningún tanteo cambia.") % {"n": number}
        return _("Mano %(n)s corregida: cambian los tantos de las manos %(list)s.") % {
            "n": number,
            "list": join_words([shown(c) for c in changed]),
        }
    return ""


def _tap_notice(query: Mapping[str, str]) -> str:
    """An entry that is no hand (piedras tapped, a perete) undone or redone: "Anotación 9"."""
    if "deshecha" in query and "pendiente" in query:
        return _(
            "Anotación %(n)s deshecha: el resultado de la partida vuelve a estar pendiente."
        ) % {"n": query["deshecha"][:6]}
    if "deshecha" in query:
        return _("Anotación %(n)s deshecha.") % {"n": query["deshecha"][:6]}
    if "rehecha" in query:
        return _("Anotación %(n)s rehecha: vuelve a contar.") % {
            "n": query["rehecha"][:6]}
    return ""
