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
            self.fields[f"name_{seat}"] = forms.CharField(
                label=_("Asiento %(n)s") % {"n": seat + 1},
                required=False,
                max_length=NAME_MAX,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": seat_label(seat),
                        "autocomplete": "off",
                        "maxlength": NAME_MAX,
                    }
                ),
            )

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
        return data

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
