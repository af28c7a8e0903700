"""The sitemap of the public pages (django.contrib.sitemaps, /sitemap.xml, named in
/robots.txt): the site's own pages, the rules' sections, every club's page with its
leaders and levels, its listed competitions, and every championship.

Each page in each language, at its address of its own (muscore.addresses: Spanish without
a prefix, /en/, /eu/, /fr/), with its alternates in the others (hreflang) and Spanish's as
x-default: the rules pages in Basque, French and English are found by search.

Never a link that carries a key (a table's edit link, a pair's link to its result, a
new-password link: those answer X-Robots-Tag: noindex), nor a table's board (a night's
game among friends, found through its share link, not a search engine).
"""

from __future__ import annotations

from typing import Any

from django.contrib.sitemaps import Sitemap
from django.db.models import QuerySet
from django.urls import reverse

from muscore.championships.models import Championship
from muscore.clubs.models import Club
from muscore.disputes import rules_pages
from muscore.leagues.models import Competition


class Languages:
    """Each item in every language of the site, with hreflang alternates."""

    i18n = True
    alternates = True
    x_default = True


class SitePages(Languages, Sitemap[str]):
    """The pages of the site itself, and the rules' sections."""

    changefreq = "monthly"

    def items(self) -> list[str]:
        names = ["tables:home", "tables:new", "disputes:calculator", "disputes:lector",
                 "disputes:rules", "api_docs", "clubs:index", "leagues:rating_method",
                 "championships:index"]
        return names + [f"rules:{page.slug}" for page in rules_pages.pages()]

    def location(self, item: str) -> str:
        if item.startswith("rules:"):
            return reverse("disputes:rules_page", args=[item.removeprefix("rules:")])
        return reverse(item)


class ClubPages(Languages, Sitemap[tuple[str, Club]]):
    """Each club's page, its leaders and its players' levels."""

    changefreq = "daily"
    limit = 15000  # three a club in four languages: 1,250 clubs a sitemap page

    def items(self) -> list[tuple[str, Club]]:
        return [(name, club) for club in Club.objects.order_by("pk")
                for name in ("leagues:club", "leagues:leaders", "leagues:ranking")]

    def location(self, item: tuple[str, Club]) -> str:
        name, club = item
        return reverse(name, args=[club.slug])


class CompetitionPages(Languages, Sitemap[Competition]):
    """The competitions each club page lists (not archived, not being imported)."""

    changefreq = "daily"

    def items(self) -> QuerySet[Competition]:
        return (Competition.objects.filter(archived=False)
                .exclude(status=Competition.Status.IMPORTING)
                .select_related("club").order_by("pk"))

    def location(self, item: Competition) -> str:
        name = "leagues:ceros" if item.format == Competition.Format.CEROS else "leagues:competition"
        return reverse(name, args=[item.club.slug, item.pk])


class ChampionshipPages(Languages, Sitemap[Championship]):
    changefreq = "daily"

    def items(self) -> QuerySet[Championship]:
        return Championship.objects.order_by("pk")

    def location(self, item: Championship) -> str:
        return reverse("championships:detail", args=[item.pk])


SITEMAPS: dict[str, Any] = {
    "site": SitePages, "clubs": ClubPages, "competitions": CompetitionPages,
    "championships": ChampionshipPages,
}
