"""Importing a competition from its export (league.md's JSON form): the organiser's page.

A document says its format (league.md's `format`); one exported before the contract had
it says nothing, so the organiser says whether it was a liguilla, groups and a knockout
or a tournament a N ceros (imports.import_competition checks the document against it and
writes nothing if it does not fit).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from muscore import ratelimits
from muscore.clubs.models import Club
from muscore.clubs.permissions import require_organiser
from muscore.leagues import changes, imports, pages
from muscore.leagues.models import LeagueImport
from muscore.messages import page_message

# An export of a 200-pair double liguilla with every hand is about 40 MB; a club's own
# leagues are far smaller. Past this the file is refused before it is read.
MAX_IMPORT_BYTES = 20 * 1024 * 1024

def _ceros_said(n: int) -> str:
    return ngettext("Torneo a %(n)s cero", "Torneo a %(n)s ceros", n) % {"n": n}


_ceros_words = lazy(_ceros_said, str)

FORMATS = [
    ("liguilla", gettext_lazy("Liguilla")),
    ("groups-2", gettext_lazy("Dos grupos y eliminatoria")),
    ("groups-4", gettext_lazy("Cuatro grupos y eliminatoria")),
    *((f"ceros-{n}", _ceros_words(n)) for n in range(1, 6)),
]


RATED = [
    ("0", gettext_lazy("No: queda como registro, fuera de los niveles y los líderes del club")),
    ("1", gettext_lazy("Sí: sus partidas cuentan en los niveles y los líderes del club")),
]


class ImportForm(forms.Form):
    """The exported JSON file and what the competition was (step 1); then its name here,
    prefilled from the file, and whether it joins the club's ratings (step 2, the file
    carried as `document`). A POST with `rated` already answered imports at once."""

    file = forms.FileField(label=gettext_lazy("Archivo exportado (JSON)"), required=False)
    document = forms.CharField(widget=forms.HiddenInput, required=False)
    format = forms.ChoiceField(
        label=gettext_lazy("Formato de la competición"), choices=FORMATS, initial="liguilla",
        widget=forms.RadioSelect,
        help_text=gettext_lazy("Solo para un archivo que no dice su formato: el que lo dice se "
                               "importa como lo que fue."))
    # Another club's competition is named as this club knows it (empty: the file's name).
    name = forms.CharField(label=gettext_lazy("Nombre en este club"), max_length=200,
                           required=False)
    rated = forms.ChoiceField(
        label=gettext_lazy("¿Cuentan sus partidas en los niveles y los líderes del club?"),
        choices=RATED, initial="0", required=False, widget=forms.RadioSelect)

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload is None:
            return None
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("El archivo es demasiado grande: como mucho %(mb)s MB.")
                % {"mb": MAX_IMPORT_BYTES // (1024 * 1024)})
        return _json(upload.read())

    def clean_document(self) -> Any:
        text = self.cleaned_data["document"]
        if not text:
            return None
        if len(text) > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("El archivo es demasiado grande: como mucho %(mb)s MB.")
                % {"mb": MAX_IMPORT_BYTES // (1024 * 1024)})
        return _json(text.encode("utf-8"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and data.get("file") is None and data.get("document") is None:
            self.add_error("file", _("Elige el archivo exportado."))
        return data

    def league_data(self) -> Any:
        found = self.cleaned_data.get("file")
        return found if found is not None else self.cleaned_data.get("document")


def _json(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except RecursionError:
        raise forms.ValidationError(
            _("El archivo anida listas y objetos a demasiada profundidad: no es una liga.")
        ) from None
    except (UnicodeDecodeError, ValueError):
        raise forms.ValidationError(
            _("El archivo no es un JSON válido: sube el que se descargó con «Liga en JSON».")
        ) from None


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.IMPORT, api=False, per_account=True)
def import_competition(request: HttpRequest, slug: str) -> HttpResponse:
    """A competition made again from its export, with its results and hands: the file
    checked first, then its name and whether it joins the club's ratings (default no)."""
    club = get_object_or_404(Club, slug=slug)
    require_organiser(request.user, club)
    if request.method != "POST" and request.GET.get("importacion", "").isdigit():
        return _importing(request, club, int(request.GET["importacion"]))
    form = ImportForm(request.POST or None, request.FILES or None)
    step = 2 if request.POST.get("document") else 1
    if request.method == "POST" and form.is_valid():
        data = form.league_data()
        kind, _sep, number = form.cleaned_data["format"].partition("-")
        said = {"format": kind, "groups": int(number or 2) if kind != "ceros" else 2,
                "ceros": int(number or 3) if kind == "ceros" else 3}
        try:
            if not form.cleaned_data["rated"]:
                # Refused now, before asking the rest.
                imports.check_import(club, data, imports.said_format(**said))
                step = 2
                named = data.get("name") if isinstance(data, dict) else ""
                form = ImportForm(initial={
                    "document": json.dumps(data, ensure_ascii=False),
                    "format": form.cleaned_data["format"],
                    "name": form.cleaned_data["name"].strip() or named, "rated": "0"})
            else:
                competition = imports.import_competition(
                    club, data, by=request.user, **said,
                    name=form.cleaned_data["name"].strip(),
                    rated=form.cleaned_data["rated"] == "1")
                job = imports.of(competition.pk)
                if job is not None:  # large: the worker writes its results
                    return redirect(f"{request.path}?importacion={job.pk}")
                return redirect(pages.competition_url(competition))
        except changes.CompetitionError as error:
            form.add_error(None, page_message(error))
    context = {"club": club, "organiser": True, "form": form, "step": step}
    return render(request, "leagues/import.html", context,
                  status=400 if form.errors else 200)


def _importing(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """A large import the worker is writing: how far it got (the page refreshes itself),
    why it failed, or, once done, the competition."""
    job = get_object_or_404(LeagueImport, pk=pk, club=club)
    if job.finished_at is not None and not job.error and job.competition is not None:
        return redirect(pages.competition_url(job.competition))
    context = {"club": club, "organiser": True, "job": job}
    response = render(request, "leagues/importing.html", context)
    if job.finished_at is None:
        response["Refresh"] = str(REFRESH_SECONDS)
    return response


# How often the page of a large import being written asks again.
REFRESH_SECONDS = 3
