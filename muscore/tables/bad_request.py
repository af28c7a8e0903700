"""The site's 400 (settings' handler400, muscore/urls.py): a body too large to read.

Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE the moment anything reads it,
which for a form is the CSRF check, before any view runs: its bare "Bad Request
(400)" would leave a phone on a blank page. Here the API answers its problem
details (muscore.problems) and the import page its form with the message; any other 400 is Django's.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import defaults

from muscore import problems
from muscore.tables.forms import ImportForm


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not isinstance(exception, RequestDataTooBig):
        return defaults.bad_request(request, exception)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if request.path_info.startswith("/api/"):
        message = f"the body is larger than {limit} bytes, the most this API reads"
        return problems.problem(413, "api", "too_big", message)
    form = ImportForm()
    form.cleaned_data = {}  # add_error() on a form that read nothing
    form.add_error(
        None,
        _("Lo enviado pesa demasiado (más de %(kb)s kB): no se ha leído ni guardado nada.")
        % {"kb": limit // 1000},
    )
    if request.path_info == reverse("tables:import"):
        return render(request, "tables/import.html", {"form": form}, status=413)
    return render(request, "413.html", {"form": form}, status=413)
