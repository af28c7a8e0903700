"""The files every site is asked for, whatever the page: the service worker (served from
the root so its scope is the whole site), /robots.txt and /favicon.ico."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from muscore import addresses
from muscore.tables import live, offline


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the root so its scope is the whole site."""
    response = render(
        request,
        "tables/sw.js",
        {
            "release": live.RELEASE,
            "precache": offline.precache_json(),
            "pages_at_install": offline.install_pages_json(),
            "stylesheet": offline.stylesheet(),
            "static_prefix": offline.static_prefix(),
            "offline_words": offline.offline_words(),
            # The languages' address prefixes (muscore.addresses): en|eu|fr.
            "prefixes": "|".join(addresses.prefixed()),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    # The browser checks for a new worker at every visit; a stale one would pin old files.
    response["Cache-Control"] = "no-cache"
    return response


# Edit links answer X-Robots-Tag: noindex (muscore.middleware.EditLinkNoIndexMiddleware)
# instead of being listed here: a Disallow would keep a crawler from ever reading that header,
# and this file is public, so it names no table. The admin and the JSON API are no pages.
ROBOTS = "User-agent: *\nDisallow: /admin/\nDisallow: /api/v1/\n"


@require_safe
def robots(request: HttpRequest) -> HttpResponse:
    """/robots.txt, naming the sitemap of the public pages (muscore/sitemaps.py)."""
    text = ROBOTS + f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}\n"
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and link previews ask for whatever the page's <link> says."""
    path = finders.find("icons/favicon.ico")
    assert isinstance(path, str), "static/icons/favicon.ico is missing"
    with open(path, "rb") as icon:
        response = HttpResponse(icon.read(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
