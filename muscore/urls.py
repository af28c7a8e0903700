"""The site's URLs: each app brings its own. The pages are at an address of their own in
each language (muscore.addresses: Spanish without a prefix, /en/, /eu/, /fr/); the API, the
admin, the sitemap, the operator's pages and the site's own files at one address."""

from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from django.views.i18n import set_language

from muscore import addresses, ratelimits, sitemaps, watch
from muscore.api import docs as api_docs
from muscore.clubs import urls as clubs_urls
from muscore.leagues import urls as leagues_urls
from muscore.tables import urls as tables_urls

urlpatterns = [
    # For the load balancer and the monitor (muscore/watch.py, docs/operations.md "Watching").
    path("healthz", watch.healthz, name="healthz"),
    path("metrics", watch.metrics, name="metrics"),
    # /robots.txt, /favicon.ico, /sw.js, /manifest.webmanifest.
    path("", include((tables_urls.site_files_patterns, "site"))),
    # The public pages for search engines (muscore/sitemaps.py), named in /robots.txt; a
    # POST is 405 (Django's view answers any method).
    path("sitemap.xml", require_safe(sitemap), {"sitemaps": sitemaps.SITEMAPS}, name="sitemap"),
    path("api/v1/", include("muscore.api.urls")),
    # The admin's login counts password tries like the organisers' (per address, per
    # account and address, per account); its own pattern below still names it (admin:login).
    path("admin/login/", ratelimits.login_limit(admin.site.login)),
    path("admin/", admin.site.urls),
    # The language switch (django's set_language, POST /i18n/setlang/): it goes to the page
    # at the chosen language's address and remembers the choice in a cookie. Without a
    # CSRF token, so that a page's HTML is the same for every visitor and its ETag
    # (ConditionalGetMiddleware) answers 304: a forged switch changes a language, nothing
    # else.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
]

urlpatterns += addresses.language_patterns(
    path("", include("muscore.tables.urls")),
    path("api/", api_docs.page, name="api_docs"),
    # The calculator, the hand lector and the rules pages (muscore/disputes).
    path("", include("muscore.disputes.urls")),
    # Clubs, their organisers' accounts, players and pairs (muscore/clubs), and the club
    # page with its competitions (muscore/leagues): the namespace "leagues" names the
    # league's pages; "clubs" names both (the league pages' names from before they had
    # their own namespace, kept as aliases and first, so a request resolves as before).
    path("", include((clubs_urls.urlpatterns + leagues_urls.urlpatterns, "clubs"))),
    # Championships across venues (muscore/championships, issue 18).
    path("campeonatos/", include("muscore.championships.urls")),
    path("", include((leagues_urls.urlpatterns, "leagues"))),
)

# A body too large to read gets the API's JSON error or the page's form with its message.
handler400 = "muscore.tables.bad_request.bad_request"
# A database out of reach (PostgreSQL restarting) is a 503 with Retry-After, not a 500.
handler500 = "muscore.unavailable.server_error"
