"""The site's URLs plus /t/<id>/k/<key>/fallo, which raises, and .../lento, which outlasts
gunicorn's timeout (failing_settings.py)."""

import time

from django.http import HttpRequest, HttpResponse
from django.urls import path

from muscore import urls


def slow(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    time.sleep(30)  # past the test's gunicorn --timeout: the worker is killed
    return HttpResponse("too late")


def fail(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    raise RuntimeError(f"a failure on purpose while answering {request.path}")


# The site's own patterns as they are (its language addresses cannot be included).
urlpatterns = [
    path("t/<str:table_id>/k/<str:key>/fallo", fail),
    path("t/<str:table_id>/k/<str:key>/lento", slow),
    *urls.urlpatterns,
]
