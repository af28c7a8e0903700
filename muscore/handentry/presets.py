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


PRESETS = (
    Preset("ocho-reyes", gettext_lazy("8 reyes a 40"), gettext_lazy("sin real"), 8, 40, "no"),
    Preset("cuatro-reyes-y-real", gettext_lazy("Cuatro reyes y real"),
           gettext_lazy("Navarra, Gipuzkoa, La Rioja"), 4, 40, "rey"),
    Preset("a-30", gettext_lazy("A 30"), gettext_lazy("8 reyes, sin real"), 8, 30, "no"),
)
