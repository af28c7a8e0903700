"""A table exported as JSON, brought back: the import form (parsed here, saved by the
services)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

IMPORT_MAX_BYTES = 1_000_000  # a vaca of a hundred hands is well under 100 kB


class ImportForm(forms.Form):
    """A table exported as JSON (the API's export), as a file or pasted: parsed, not saved."""

    file = forms.FileField(label=gettext_lazy("Archivo exportado (.json)"), required=False)
    text = forms.CharField(
        label=gettext_lazy("O pega aquí su contenido"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        text = (data.get("text") or "").strip()
        if upload and text:
            raise forms.ValidationError(_("Elige el archivo o pega el texto, no las dos cosas."))
        if upload:
            if upload.size > IMPORT_MAX_BYTES:
                raise forms.ValidationError(
                    _("El archivo pesa demasiado (%(kb)s kB); una mesa exportada pesa mucho menos.")
                    % {"kb": upload.size // 1000}
                )
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    _("El archivo no es texto UTF-8: no es una mesa exportada por muscore.")
                ) from None
        if not text:
            raise forms.ValidationError(
                _("Falta la mesa: elige el archivo exportado o pega su texto.")
            )
        if len(text.encode()) > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("El texto es demasiado largo para una mesa exportada."))
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("No es JSON válido (línea %(line)s, columna %(col)s): %(why)s")
                % {"line": error.lineno, "col": error.colno, "why": error.msg}
            ) from None
        except RecursionError:
            raise forms.ValidationError(_("No es JSON válido: anida demasiado.")) from None
        if not isinstance(parsed, dict):
            raise forms.ValidationError(
                _("Una mesa exportada es un objeto JSON ({...}), no una lista ni un valor suelto.")
            )
        data["table"] = parsed
        return data
