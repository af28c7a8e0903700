"""The hand lector: four cards -> what they hold in each lance, in 8 and in 4 reyes.

Every figure comes from muscore.rules (Hand / evaluate); this module only words it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from muscore import rules as engine

REAL31_VARIANTS = ("rey", "figura", "sota")
# The cards by rank, in the plural a table says them ("medias de reyes"); translated.
RANK_WORDS: dict[int, str] = {
    1: gettext_noop("ases"),
    2: gettext_noop("doses"),
    3: gettext_noop("treses"),
    4: gettext_noop("cuatros"),
    5: gettext_noop("cincos"),
    6: gettext_noop("seises"),
    7: gettext_noop("sietes"),
    10: gettext_noop("sotas"),
    11: gettext_noop("caballos"),
    12: gettext_noop("reyes"),
}


def _rank_name(rank: int) -> str:
    return _(RANK_WORDS[rank]) if rank in RANK_WORDS else str(rank)


def pares_words(pares: engine.Pares | None) -> str:
    """'medias de reyes', 'duples de caballos y ases', 'no'."""
    if pares is None:
        return _("sin pares")
    key = pares.key
    if pares.kind == "par":
        return _("par de %(rank)s") % {"rank": _rank_name(key[1])}
    if pares.kind == "medias":
        return _("medias de %(rank)s") % {"rank": _rank_name(key[1])}
    if key[1] == key[2]:
        return _("duples de %(rank)s (cuatro iguales)") % {"rank": _rank_name(key[1])}
    return _("duples de %(hi)s y %(lo)s") % {"hi": _rank_name(key[1]), "lo": _rank_name(key[2])}


def _as_played(ranks: tuple[int, ...]) -> str:
    return " ".join(engine.CARD_TEXT[r] for r in ranks)


def read_hand(cards: tuple[int, ...]) -> dict[str, Any]:
    """What the cards hold in each lance, in 8 reyes and in 4 reyes, and the 31 real variants."""
    modes = []
    for reyes in (8, 4):
        rules = engine.Rules(reyes=reyes)
        ev = engine.evaluate(cards, rules)
        real = [v for v in REAL31_VARIANTS if engine.evaluate(cards, engine.Rules(reyes=reyes,
                                                                               real31=v)).real31]
        modes.append(
            {
                "reyes": reyes,
                "grande": _as_played(ev.grande),
                "chica": _as_played(tuple(-r for r in ev.chica)),
                "pares": ev.pares.kind if ev.pares else None,
                "pares_words": pares_words(ev.pares),
                "premium": ev.pares.premium if ev.pares else 0,
                "total": ev.total,
                "juego": ev.total >= 31,
                "juego_premium": ev.juego_premium if ev.total >= 31 else 0,
                "real31": real,
            }
        )
    eight, four = modes
    return {
        "cards": " ".join(engine.CARD_TEXT[c] for c in cards),
        "modes": modes,
        "same": eight["pares"] == four["pares"] and eight["total"] == four["total"],
    }
