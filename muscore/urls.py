"""The site's URLs: each app brings its own."""

from django.urls import include, path

urlpatterns = [
    path("", include("muscore.tables.urls")),
    path("api/v1/", include("muscore.api.urls")),
]
