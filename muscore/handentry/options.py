"""The table options of rules.md (reyes, piedras per juego, juegos per vaca, 31 real) as
fields: declared once in :class:`TableOptionsFields`, which the table's set-up and a
league's competition inherit, and read leniently by :func:`read_options` for the
calculator (a bad value is said and its default kept, so a link always opens).

The engine (muscore.rules.Rules) has the last word on every value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.rules import Real31, Rules
from muscore.rules.contract import RulesDict

DEFAULT_RULES = Rules().to_json()
#: The targets a table is offered (the calculator takes any the engine does).
TARGETS = (30, 35, 40)
TARGET_RANGE = (10, 100)
JUEGOS_RANGE = (1, 5)
PLAYERS = (4, 6, 2)
REAL31 = tuple(v.value for v in Real31)
REYES_CHOICES = [(8, gettext_lazy("8 reyes")), (4, gettext_lazy("4 reyes"))]
REAL31_CHOICES = [
    ("no", gettext_lazy("No")),
    ("rey", gettext_lazy("Rey (7 7 7 R)")),
    ("figura", gettext_lazy("Figura (7 7 7 S/C/R)")),
    ("sota", gettext_lazy("Sota (7 7 7 S)")),
]
#: A new table's players and how they play (issue 37): by pairs, 4 (2 v 2) or 6 (3 v 3); or
#: each for himself, 2 to 6 ("4i", "6i": four or six without partners; 2, 3 and 5 never
#: have any). "4", "6" and "2" are read as they always were.
TABLE_PAIRS = [("4", "4"), ("6", "6")]
TABLE_ALONE = [("2", "2"), ("3", "3"), ("4i", "4"), ("5", "5"), ("6i", "6")]
TABLE_PLAYERS_CHOICES = [*TABLE_PAIRS, *TABLE_ALONE]


def table_players(value: str) -> tuple[int, bool]:
    """A players choice ("4", "3", "6i") as (how many, each for himself)."""
    return int(value.rstrip("i")), value not in ("4", "6")
OPTION_KEYS = ("reyes", "target", "juegos", "real31")
#: The perete option's field: "si" from the forms, "True" / "true" from a record's rules.
PERETE_ON = frozenset({"si", "True", "true", "1"})
PERETE_CHOICES = [("no", gettext_lazy("No")), ("si", gettext_lazy("Sí: un tanto"))]


def perete_field() -> forms.ChoiceField:
    """Perete (seed 001: 4 5 6 7 "en algunas zonas da derecho a un tanto"), off unless the
    table says: a table's option only (a competition's matches play without it)."""
    return forms.ChoiceField(
        label=gettext_lazy("Perete (4 5 6 7)"), choices=PERETE_CHOICES, initial="no",
        required=False, widget=forms.RadioSelect,
    )


def perete_option(value: object) -> RulesDict:
    """``{"perete": True}`` for a field that turns it on, else nothing (absent is off)."""
    return {"perete": True} if str(value or "") in PERETE_ON else {}


class TableOptionsFields(forms.Form):
    """The four table options as radio fields, for a form to inherit (the set-up of a
    table, a competition's matches). A form changes an initial value in its __init__
    (a league plays to 3 juegos)."""

    reyes = forms.TypedChoiceField(
        label=gettext_lazy("Reyes"), choices=REYES_CHOICES, coerce=int,
        initial=DEFAULT_RULES["reyes"], widget=forms.RadioSelect,
    )
    target = forms.TypedChoiceField(
        label=gettext_lazy("Piedras por juego"), choices=[(t, str(t)) for t in TARGETS],
        coerce=int, initial=DEFAULT_RULES["target"], widget=forms.RadioSelect,
    )
    juegos = forms.TypedChoiceField(
        label=gettext_lazy("Juegos para la vaca"),
        choices=[(i, str(i)) for i in range(JUEGOS_RANGE[0], JUEGOS_RANGE[1] + 1)],
        coerce=int, initial=DEFAULT_RULES["juegos"], widget=forms.RadioSelect,
    )
    real31 = forms.ChoiceField(
        label=gettext_lazy("31 real"), choices=REAL31_CHOICES,
        initial=DEFAULT_RULES["real31"], widget=forms.RadioSelect,
    )

    def options(self) -> dict[str, Any]:
        """The cleaned options, as the record's `rules` names them (without players)."""
        return {key: self.cleaned_data[key] for key in OPTION_KEYS}


#: Reads one number field: (name, default, low, high, label) -> the value.
NumberReader = Callable[[str, int, int, int, str], int]


def number_reader(data: Mapping[str, object], errors: list[str]) -> NumberReader:
    """A reader of whole-number fields of `data` that says each bad value in `errors`
    (naming the field and the range) and keeps the default instead; empty is the default."""

    def number(name: str, default: int, low: int, high: int, label: str) -> int:
        raw = str(data.get(name, "") or "").strip()
        if not raw:
            return default
        if not raw.isdigit() or not low <= int(raw) <= high:
            errors.append(
                _("%(label)s: «%(v)s» no vale; debe ser un número del %(low)s al %(high)s.")
                % {"label": label, "v": raw[:10], "low": low, "high": high}
            )
            return default
        return int(raw)

    return number


def read_options(data: Mapping[str, object], errors: list[str]) -> RulesDict:
    """The table's rules (players and the four options) from a form's raw fields, as the
    calculator reads them: a bad number is said in `errors`, a bad choice silently falls
    back, and each keeps its default."""
    number = number_reader(data, errors)
    players = number("players", 4, 2, 6, str(_("Jugadores")))
    target_field = TableOptionsFields.base_fields["target"]
    juegos_field = TableOptionsFields.base_fields["juegos"]
    real31 = str(data.get("real31", "no"))
    return {
        "players": players if players in PLAYERS else DEFAULT_RULES["players"],
        "reyes": 4 if str(data.get("reyes", "")) == "4" else DEFAULT_RULES["reyes"],
        "target": number("target", DEFAULT_RULES["target"], *TARGET_RANGE,
                         str(target_field.label)),
        "juegos": number("juegos", DEFAULT_RULES["juegos"], *JUEGOS_RANGE,
                         str(juegos_field.label)),
        "real31": real31 if real31 in REAL31 else "no",
        **perete_option(data.get("perete")),
    }
