"""The ways regions play, one tap away on /nueva and the calculator (issue 19).

Seed 001 ("Variantes regionales"): the guide plays eight reyes, eight ases and no real
to 40; "juego a 30 tantos en vez de 40; cuatro reyes y real en Navarra, Guipúzcoa y La
Rioja". The real is the 31 real of three sietes and a rey "barbado", index 12, not a 3
(seed 000: the option ``real31`` "rey"). A preset only fills the table's options: they
stay editable before the table starts. Perete (4 5 6 7, a tanto "en algunas zonas") is
on in none: the seeds name no place that plays it, so every preset sets it off.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy


@dataclass(frozen=True)
class Preset:
    """A named set of table options (rules.md, "Options")."""

    slug: str
    name: str | Promise
    where: str | Promise  #: who plays so, for the button's second line
    reyes: int
    target: int
    real31: str
    perete: str = "no"  #: "si" where the seeds say the region plays perete (none do)


@dataclass(frozen=True)
class Seats:
    """A common table by who sits at it: one tap sets how many play and how (the set-up's
    players choice, :data:`muscore.handentry.options.TABLE_PLAYERS_CHOICES`)."""

    slug: str
    name: str | Promise
    where: str | Promise  #: what it sets, for the button's second line
    players: str  #: the players choice: "4", "3", "6i"...


#: Individual play of 3 to 6 (issue 37; seed 000 sec. 3, "puede jugarse individualmente,
#: entre dos o más jugadores, hasta un máximo de seis"): the tables people sit at.
SEATS = (
    Seats("tres-en-el-bar", gettext_lazy("Tres en el bar"),
          gettext_lazy("3, cada uno por su cuenta"), "3"),
    Seats("cinco-en-familia", gettext_lazy("Cinco en familia"),
          gettext_lazy("5, cada uno por su cuenta"), "5"),
    Seats("dos-parejas", gettext_lazy("Dos parejas"), gettext_lazy("4, 2 contra 2"), "4"),
)

PRESETS = (
    Preset("ocho-reyes", gettext_lazy("8 reyes a 40"), gettext_lazy("sin real"), 8, 40, "no"),
    Preset("cuatro-reyes-y-real", gettext_lazy("Cuatro reyes y real"),
           gettext_lazy("Navarra, Gipuzkoa, La Rioja"), 4, 40, "rey"),
    Preset("a-30", gettext_lazy("A 30"), gettext_lazy("8 reyes, sin real"), 8, 30, "no"),
)
