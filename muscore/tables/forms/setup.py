"""A new table's form: names by seat, the first mano and the table options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.handentry.options import (
    PLAYERS_CHOICES,
    TableOptionsFields,
    perete_field,
    perete_option,
)
from muscore.handentry.words import NAME_MAX, seat_label
from muscore.text import same_people


class SetupForm(TableOptionsFields):
    """Names by seat in speaking order, the first mano and the options of rules.md."""

    players = forms.TypedChoiceField(
        label=gettext_lazy("Jugadores"),
        choices=PLAYERS_CHOICES,
        coerce=int,
        initial=4,
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
                    attrs={"placeholder": seat_label(seat), "autocomplete": "off"}
                ),
            )
            # Django draws max_length as maxlength: taken off, as said above.
            self.fields[f"name_{seat}"].widget.attrs.pop("maxlength", None)

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in range(6)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        count = data.get("players")
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
        count = data["players"]
        names = [(data.get(f"name_{seat}") or "").strip() for seat in range(count)]
        mano = data["mano"]
        return {
            "players": [name or None for name in names],
            "rules": {
                "players": count,
                **self.options(),
                **perete_option(data.get("perete")),
            },
            "mano": "random" if mano == "random" else int(mano),
        }
