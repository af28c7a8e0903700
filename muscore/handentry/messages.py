"""An engine refusal as a referee says it at the table: names, not seats; the screen's
own words, not the record's fields (gettext)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from muscore import rules as rules_engine
from muscore.handentry.words import LANCE_NAMES, side_names
from muscore.messages import rule_message as rule_message  # re-exported: the entry says both


def winner_message(error: rules_engine.RuleError, names: Sequence[str] | None = None) -> str:
    """An engine refusal about a lance's winner, as a referee says it (names, not seats,
    and the calculator's own words, not the record's fields); any other error as the
    engine words it."""
    params = error.params
    lance = str(params.get("lance", ""))
    lance_name = LANCE_NAMES.get(lance, lance)
    players = list(names or [])

    def who(seat: object) -> str:
        try:
            return players[int(str(seat))]
        except (ValueError, IndexError):
            return str(seat)

    def team(side: object) -> str:
        if side in ("A", "B") and players:
            return side_names(players, str(side))
        return str(side)

    if error.code == "winner_missing":
        return _(
            "%(lance)s: sin las cartas de %(name)s no se sabe quién ganó. Marcad el ganador, "
            "A o B, bajo «Sin cartas»."
        ) % {"lance": lance_name, "name": who(params.get("seat"))}
    if error.code in ("winner_contradicts", "winner_contradicts_jugadas", "winner_contradicts_lie"):
        if error.code == "winner_contradicts":
            why = _("las cartas")
        elif error.code == "winner_contradicts_lie":
            why = _("la mentira de %(name)s") % {"name": who(params.get("seat"))}
        else:
            why = _("las jugadas")
        # Read aloud at the table: the verb agrees with the side (one player at a table
        # of two, a pair otherwise), and what to correct is what gave the lance.
        if error.code == "winner_contradicts_jugadas":
            fix = pgettext("lo que hay que corregir", "las jugadas")
        else:
            fix = pgettext("lo que hay que corregir", "las cartas")
        return ngettext(
            "%(lance)s: según %(why)s la gana %(side)s, pero habéis marcado que la ganó "
            "%(got)s. Quitad ese ganador o corregid %(fix)s.",
            "%(lance)s: según %(why)s la ganan %(side)s, pero habéis marcado que la ganaron "
            "%(got)s. Quitad ese ganador o corregid %(fix)s.",
            1 if len(players) == 2 else 2,
        ) % {"lance": lance_name, "why": why, "side": team(params.get("side")),
             "got": team(params.get("got")), "fix": fix}
    if error.code == "winner_not_holder":
        return _(
            "%(lance)s: solo %(side)s tienen %(word)s, pero habéis marcado que la ganó %(got)s."
        ) % {"lance": lance_name, "side": team(params.get("side")), "word": lance,
             "got": team(params.get("got"))}
    if error.code == "winner_nobody":
        return _(
            "%(lance)s: nadie tiene %(word)s, pero habéis marcado que la ganó %(got)s."
        ) % {"lance": lance_name, "word": lance, "got": team(params.get("got"))}
    return rule_message(error)
