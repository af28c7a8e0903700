"""The site's URLs plus /t/<id>/k/<key>/fallo, which raises (failing_settings.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def fail(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    raise RuntimeError(f"a failure on purpose while answering {request.path}")


urlpatterns = [
    path("t/<str:table_id>/k/<str:key>/fallo", fail),
    path("", include("muscore.urls")),
]
