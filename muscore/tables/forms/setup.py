"""A new table's form: names by seat, the first mano and the table options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.handentry.options import (
    TABLE_ALONE,
    TABLE_PLAYERS_CHOICES,
    TableOptionsFields,
    perete_field,
    perete_option,
    table_players,
)
from muscore.handentry.words import NAME_MAX, seat_label
from muscore.text import same_people


class SetupForm(TableOptionsFields):
    """Names by seat in speaking order, the first mano and the options of rules.md.

    ``players`` is how many play and how: by pairs ("4", "6") or each for himself ("2",
    "3", "4i", "5", "6i"; issue 37)."""

    players = forms.ChoiceField(
        label=gettext_lazy("Jugadores"),
        choices=TABLE_PLAYERS_CHOICES,
        initial="4",
        widget=forms.RadioSelect,
    )
    mano = forms.ChoiceField(
        label=gettext_lazy("Mano en la primera"),
        choices=[(str(i), str(i + 1)) for i in range(6)] + [("random", gettext_lazy("Sorteo"))],
        initial="0",
        widget=forms.RadioSelect,
    )
    perete = perete_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(6):
            # No maxlength on the field: the browser cut a long name to 40 letters without
            # a word (issue 38.9); the form says it, in the table's words, not Django's.
            self.fields[f"name_{seat}"] = forms.CharField(
                label=_("Asiento %(n)s") % {"n": seat + 1},
                required=False,
                max_length=NAME_MAX,
                error_messages={"max_length": _(
                    "Asiento %(n)s: un nombre tiene como mucho %%(limit_value)d letras; este "
                    "tiene %%(show_value)d. Acórtalo (Ana M., Ana Pérez)."
                ) % {"n": seat + 1}},
                widget=forms.TextInput(
                    attrs={
                        "placeholder": seat_label(seat),
                        "autocomplete": "off",
                        # The name a seat gets without one, each for himself (A, B, C...).
                        "data-alone-placeholder": seat_label(seat, individual=True),
                    }
                ),
            )
            # Django draws max_length as maxlength: taken off, as said above.
            self.fields[f"name_{seat}"].widget.attrs.pop("maxlength", None)

    def seats(self) -> list[dict[str, Any]]:
        """Each seat's name field with its side's letter by pairs (A, B, A...) and each for
        himself (A, B, C...): the page shows the one of the players chosen."""
        individual = self.chosen()[1]
        return [
            {"field": self[f"name_{seat}"], "pairs": "AB"[seat % 2], "alone": "ABCDEF"[seat],
             "side": "ABCDEF"[seat] if individual else "AB"[seat % 2]}
            for seat in range(6)
        ]

    def players_groups(self) -> list[dict[str, Any]]:
        """The players' radios in two rows: by pairs, and each for himself."""
        alone = {value for value, _label in TABLE_ALONE}
        radios = list(self["players"])
        return [
            {"label": _("Por parejas"), "alone": False,
             "radios": [r for r in radios if r.data["value"] not in alone]},
            {"label": _("Cada uno por su cuenta"), "alone": True,
             "radios": [r for r in radios if r.data["value"] in alone]},
        ]

    def chosen(self) -> tuple[int, bool]:
        """How many play and whether each for himself, as the form holds it now."""
        value = str(self["players"].value() or "4")
        if value not in dict(TABLE_PLAYERS_CHOICES):
            value = "4"
        return table_players(value)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        count = table_players(data["players"])[0] if data.get("players") else None
        mano = data.get("mano")
        if count and mano not in (None, "random") and int(mano) >= count:
            self.add_error(
                "mano",
                _("En una mesa de %(n)s la mano es un asiento del 1 al %(n)s.") % {"n": count},
            )
        self._check_names_apart(count or 0)
        return data

    def _check_names_apart(self, count: int) -> None:
        """Two seats of one name ("Ana y Carla contra Ana y Diego", issue 38.9) would make
        every line of the count say which Ana: refused, naming both seats. Names are
        compared as the table's services compare them (muscore.text.same_people: "ana"
        and "Ana." are one), each repeated seat's field told."""
        names = [(self.cleaned_data.get(f"name_{seat}") or "").strip() for seat in range(count)]
        for first, seat in same_people(names):
            self.add_error(f"name_{seat}", _(
                "Los asientos %(a)s y %(b)s se llaman igual («%(name)s»): pon a cada uno "
                "un nombre distinto (Ana M., Ana P.)."
            ) % {"a": first + 1, "b": seat + 1, "name": names[seat]})

    def table_kwargs(self) -> dict[str, Any]:
        """The arguments of services.create_table."""
        data = self.cleaned_data
        count, individual = table_players(data["players"])
        names = [(data.get(f"name_{seat}") or "").strip() for seat in range(count)]
        mano = data["mano"]
        return {
            "players": [name or None for name in names],
            "rules": {
                "players": count,
                # Asked for four or six; 2, 3 and 5 are always each for himself.
                **({"individual": True} if individual and count in (4, 6) else {}),
                **self.options(),
                **perete_option(data.get("perete")),
            },
            "mano": "random" if mano == "random" else int(mano),
        }
