"""The championship's forms: they read the fields; the services decide."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from muscore.championships.models import Championship, Sede
from muscore.clubs.models import NAME_MAX
from muscore.handentry.options import JUEGOS_RANGE
from muscore.idfields import IdChoiceField
from muscore.leagues.compute.ceros import DEFAULT_CEROS, MAX_CEROS, MIN_CEROS
from muscore.leagues.models import Competition


class EntryForm(forms.Form):
    """A pair's entry: the venue, its name, the two players and a contact."""

    sede = IdChoiceField(queryset=Sede.objects.none(), label=_("Sede"),
                                  empty_label=None)
    name = forms.CharField(label=_("Nombre de la pareja"), max_length=NAME_MAX)
    player_a = forms.CharField(label=_("Jugador 1"), max_length=NAME_MAX)
    player_b = forms.CharField(label=_("Jugador 2"), max_length=NAME_MAX)
    contact = forms.CharField(label=_("Contacto (teléfono o correo; solo lo ven los "
                                      "organizadores)"), max_length=200, required=False)

    def __init__(self, championship: Championship, *args: Any,
                 sede: Sede | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["sede"]
        assert isinstance(field, IdChoiceField)
        field.queryset = championship.sedes.all()
        if sede is not None:
            field.queryset = championship.sedes.filter(pk=sede.pk)
            field.initial = sede.pk


class PhaseForm(forms.Form):
    name = forms.CharField(label=_("Nombre de la fase"), max_length=NAME_MAX)
    level = forms.IntegerField(label=_("Nivel (1: tras las fases previas)"), min_value=1,
                               max_value=20, initial=1)
    advance = forms.IntegerField(label=_("Pasan de cada grupo"), min_value=1, max_value=4,
                                 initial=2)
    region = forms.CharField(label=_("Solo la región (opcional: una final provincial)"),
                             max_length=NAME_MAX, required=False)
    knockout = forms.BooleanField(label=_("Eliminatoria (la última fase)"), required=False)
    best_of = forms.TypedChoiceField(label=_("Cada eliminatoria"), coerce=int, initial=1,
                                     required=False, choices=[
                                         (1, _("A una vaca")), (3, _("Al mejor de 3"))])
    third_place = forms.BooleanField(label=_("Partida por el tercer puesto"), required=False)


class DrawForm(forms.Form):
    seed = forms.CharField(label=_("Semilla del sorteo (pública)"), max_length=100)


class HeatForm(forms.Form):
    format = forms.ChoiceField(label=_("Formato"), choices=[
        (Competition.Format.LIGUILLA, _("Liguilla")),
        (Competition.Format.GROUPS, _("Grupos y eliminatoria")),
        (Competition.Format.CEROS, _("A ceros")),
    ])
    # A ceros heat's N (muscore.leagues.compute.ceros: 1 to 5), asked with a clear refusal.
    ceros = forms.IntegerField(
        label=_("Ceros para quedar fuera (torneo a ceros)"), min_value=MIN_CEROS,
        max_value=MAX_CEROS, initial=DEFAULT_CEROS, required=False,
        error_messages={key: _("Los ceros para quedar fuera van de 1 a 5.")
                        for key in ("min_value", "max_value", "invalid")})


class ChampionshipForm(forms.Form):
    name = forms.CharField(label=_("Nombre del campeonato"), max_length=NAME_MAX)
    seats = forms.IntegerField(label=_("Plazas para la fase siguiente"), min_value=1,
                               max_value=100000, initial=16)
    min_per_sede = forms.IntegerField(label=_("Plazas mínimas por sede"), min_value=0,
                                      max_value=1000, initial=1)
    # The table option of every match (muscore.handentry.options), asked as a number here.
    juegos = forms.IntegerField(label=_("Juegos por partida"), min_value=JUEGOS_RANGE[0],
                                max_value=JUEGOS_RANGE[1], initial=3)
    round_minutes = forms.IntegerField(label=_("Minutos por partida (reloj de la sala)"),
                                       min_value=1, max_value=600, initial=45)
    entries_close_at = forms.DateTimeField(label=_("Cierre de inscripciones (opcional)"),
                                           required=False)

    def clean_entries_close_at(self) -> datetime | None:
        """A closing time already past would make a championship born closed: refused."""
        value: datetime | None = self.cleaned_data.get("entries_close_at")
        if value is not None and value <= timezone.now():
            raise forms.ValidationError(_(
                "Esa hora de cierre ya ha pasado: pon una fecha y hora futuras, o déjalo en "
                "blanco y cierra las inscripciones a mano."))
        return value


class SedeForm(forms.Form):
    name = forms.CharField(label=_("Nombre de la sede"), max_length=NAME_MAX)
    region = forms.CharField(label=_("Región (opcional)"), max_length=NAME_MAX, required=False)
    capacity = forms.IntegerField(label=_("Parejas como mucho (opcional)"), min_value=2,
                                  max_value=10000, required=False)
