"""The league pages' forms: a new competition, the draw, a result by hand, a no-show,
a substitute. They check what a person can get wrong and say it as a field error; the
league's own rules (muscore.leagues) have the last word when the result is saved."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.clubs.forms import clean_name
from muscore.clubs.models import NAME_MAX, Club, Pair, Player
from muscore.handentry.options import TableOptionsFields
from muscore.idfields import IdChoiceField, IdMultipleChoiceField
from muscore.leagues.models import REASON_MAX
from muscore.text import sorted_by_name

FORMATS = [
    ("liguilla", gettext_lazy("Liguilla (todos contra todos)")),
    ("groups", gettext_lazy("Grupos y eliminatoria")),
    ("ceros", gettext_lazy("Torneo a ceros (fuera al perder N partidas)")),
]


class SpanishOrder(forms.models.ModelChoiceIterator):  # type: ignore[type-arg]
    """A form's pairs as Spanish sorts their names (Órdago Txiki among the O, not after
    Zazpiko: the database sorts bytes)."""

    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for obj in sorted_by_name(self.queryset, lambda pair: pair.name):
            yield self.choice(obj)


class CompetitionForm(TableOptionsFields):
    """A liguilla (one or two legs) or groups + knockout, with every match's table options
    and the points. The pairs come from the club; the organiser ticks those who play."""

    name = forms.CharField(label=gettext_lazy("Nombre"), max_length=NAME_MAX)
    format = forms.ChoiceField(
        label=gettext_lazy("Formato"), choices=FORMATS, initial="liguilla", widget=forms.RadioSelect
    )
    legs = forms.TypedChoiceField(
        label=gettext_lazy("Vueltas"),
        choices=[(1, gettext_lazy("Solo ida")), (2, gettext_lazy("Ida y vuelta"))],
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
    )
    groups = forms.TypedChoiceField(
        label=gettext_lazy("Grupos (pasan dos de cada uno)"),
        choices=[(2, "2"), (4, "4")],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    ceros = forms.TypedChoiceField(
        label=gettext_lazy("Ceros para quedar fuera (torneo a ceros)"),
        choices=[(i, str(i)) for i in range(1, 6)],
        coerce=int,
        initial=3,
        required=False,
        widget=forms.RadioSelect,
    )
    pairs = IdMultipleChoiceField(
        label=gettext_lazy("Parejas"),
        queryset=Pair.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    win = forms.IntegerField(
        label=gettext_lazy("Puntos por partida ganada"), initial=2, min_value=0, max_value=10
    )
    loss = forms.IntegerField(
        label=gettext_lazy("Puntos por partida perdida"), initial=0, min_value=-10, max_value=10
    )
    forfeit = forms.IntegerField(
        label=gettext_lazy("Puntos por no presentarse"), initial=0, min_value=-10, max_value=10
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["juegos"].initial = 3  # a league's match is a vaca of three juegos
        self.club = club
        # A retired pair, or one with a retired player, is off the draw of new competitions.
        pairs = (club.pairs.filter(retired=False).exclude(members__player__retired=True)
                 .prefetch_related("members__player"))
        field = self.fields["pairs"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.iterator = SpanishOrder  # before the queryset: it draws the boxes
        field.queryset = pairs
        field.label_from_instance = lambda pair: str(pair.name)  # type: ignore[assignment]
        # None ticked to start with (issue 38.9: all 14 of a club's pairs were, and a
        # liguilla of six took eight unticks).

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Escribe un nombre."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # In Spanish order of their names: the entries are numbered so, and the draw page
        # and the standings' ties list them in that order (issue 38.9: "Órdago Txiki"
        # came after "Zabala-Garmendia", the database's byte order).
        pairs = sorted_by_name(data.get("pairs") or [], lambda pair: pair.name)
        if "pairs" in data:
            data["pairs"] = pairs
        data["ceros"] = data.get("ceros") or 3  # only a ceros tournament asks for it
        if "pairs" in data and len(pairs) < 2:
            self.add_error("pairs", _("Hacen falta al menos dos parejas."))
        sizes = {len(p.player_names()) for p in pairs}
        if len(sizes) > 1:
            self.add_error(
                "pairs",
                _("Todas las parejas han de ser de dos jugadores, o todas de tres (mus a 6)."),
            )
        if data.get("format") == "groups" and pairs:
            groups = data.get("groups") or 2
            if len(pairs) < 2 * groups:
                self.add_error(
                    "groups",
                    _("Con %(groups)s grupos hacen falta al menos %(n)s parejas.")
                    % {"groups": groups, "n": 2 * groups},
                )
        win, loss = data.get("win"), data.get("loss")
        if win is not None and loss is not None and loss > win:
            self.add_error("loss", _("Perder no puede dar más puntos que ganar."))
        return data

    def players(self) -> int:
        """4 or 6: how many sit at each match's table."""
        pairs = self.cleaned_data["pairs"]
        return 6 if pairs and len(pairs[0].player_names()) == 3 else 4

    def rules(self) -> dict[str, Any]:
        return {
            "players": self.players(),
            **self.options(),
        }

    def points(self) -> dict[str, int]:
        data = self.cleaned_data
        return {"win": data["win"], "loss": data["loss"], "forfeit": data["forfeit"]}


class DrawForm(forms.Form):
    """The public draw: 'Sortear' shuffles, or the order drawn by hand is typed in (the
    numbers of the pairs as listed, e.g. '3 1 4 2')."""

    order = forms.CharField(
        label=gettext_lazy("Orden del sorteo hecho a mano"),
        required=False,
        help_text=gettext_lazy("Los números de las parejas de la lista, separados por espacios."),
    )

    def __init__(self, *args: Any, count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.count = count

    def clean_order(self) -> list[int] | None:
        text = self.cleaned_data["order"].replace(",", " ").split()
        if not text:
            return None
        if not all(t.isdigit() for t in text):
            raise forms.ValidationError(_("Escribe solo números, separados por espacios."))
        numbers = [int(t) for t in text]
        if sorted(numbers) != list(range(1, self.count + 1)):
            raise forms.ValidationError(
                _("Escribe cada número del 1 al %(n)s una vez.") % {"n": self.count}
            )
        return [n - 1 for n in numbers]

    def draw(self) -> tuple[list[int], str]:
        """The order (indices into the listed pairs) and how it was made: 'typed' or 'random'."""
        typed = self.cleaned_data.get("order")
        if typed is not None:
            return typed, "typed"
        order = list(range(self.count))
        random.SystemRandom().shuffle(order)
        return order, "random"


class ResultForm(forms.Form):
    """A vaca kept on paper: juegos won by each pair, tantos if someone counted them."""

    juegos_first = forms.IntegerField(label="", min_value=0, max_value=5)
    juegos_second = forms.IntegerField(label="", min_value=0, max_value=5)
    tantos_first = forms.IntegerField(label="", min_value=0, max_value=500, required=False)
    tantos_second = forms.IntegerField(label="", min_value=0, max_value=500, required=False)
    # Required when the match has a result already (the view says so): shown in the audit.
    reason = forms.CharField(label=gettext_lazy("Motivo de la corrección"), max_length=REASON_MAX,
                             required=False)
    # Offered when the change would send other pairs to knockout matches already played.
    reset = forms.BooleanField(
        label=gettext_lazy("Anular también las partidas que dependen de este resultado"),
        required=False)

    def __init__(self, *args: Any, juegos: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.juegos = juegos
        self.offer_reset = bool(self.data.get("reset"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("juegos_first"), data.get("juegos_second")
        if (
            first is not None
            and second is not None
            and (max(first, second) != self.juegos or first == second)
        ):
            self.add_error(
                None,
                _("La partida es a %(n)s juegos: una pareja gana %(n)s y la otra menos.")
                % {"n": self.juegos},
            )
        tantos = (data.get("tantos_first"), data.get("tantos_second"))
        if (tantos[0] is None) != (tantos[1] is None):
            self.add_error(None, _("Los tantos, de las dos parejas o de ninguna."))
        return data

    def juegos_pair(self) -> tuple[int, int]:
        return self.cleaned_data["juegos_first"], self.cleaned_data["juegos_second"]

    def tantos_pair(self) -> tuple[int, int] | None:
        first, second = (
            self.cleaned_data.get("tantos_first"),
            self.cleaned_data.get("tantos_second"),
        )
        return None if first is None or second is None else (first, second)


class NoShowForm(forms.Form):
    """Who did not show up: the first pair, the second, or both."""

    who = forms.ChoiceField(label=gettext_lazy("No se presentó"), widget=forms.RadioSelect)
    # Required over a result already stored (results.ReasonRequired): shown in the audit.
    reason = forms.CharField(label=gettext_lazy("Motivo de la corrección"), max_length=REASON_MAX,
                             required=False)

    def __init__(self, *args: Any, first: str, second: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["who"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("0", first), ("1", second), ("both", _("Ninguna de las dos"))]


class SubstituteForm(forms.Form):
    """A player who sat in for one of a pair's players in this match."""

    replaced = IdChoiceField(label=gettext_lazy("No jugó"), queryset=Player.objects.none())
    substitute = forms.CharField(
        label=gettext_lazy("Jugó en su lugar"),
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["replaced"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = players

    def clean_substitute(self) -> str:
        name = clean_name(self.cleaned_data["substitute"])
        if not name:
            raise forms.ValidationError(_("Escribe un nombre."))
        return name


class ScheduleForm(forms.Form):
    """When a round is played: printed on the round's sheet."""

    starts_at = forms.DateTimeField(
        label=gettext_lazy("Día y hora"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
