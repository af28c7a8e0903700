"""The club page kept like a league's export (issue 28: 0.7-1.9 s each read for the large
club): what it lists (players, pairs, competitions, latest matches) is made once per stamp
of the club and kept in the cache; a reader who holds the page gets a 304.

The stamp is what the page lists, read cheaply: the club's name (and when it was made),
its audit of changes (every rename, new, edited, retired or merged player or pair writes
one: ClubChange), the counts and newest ids of its players, pairs and pairs' members, each
competition's revision (every result), name, status and archive flag, the disputed
results of each. Any write that changes the lists changes the stamp, so the next read
makes them again; nothing stale can come back, whatever the cache holds. What the apps
above show on the page (the championships it organises or hosts, through their template
tag) is made at each read and its text is part of the ETag (:func:`etag`).

Only the lists are kept, not the HTML: the page carries the reader's CSRF token and the
organiser's buttons, so it is rendered each time (a few milliseconds) from the kept lists.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from muscore.clubs.models import Club, ClubChange, PairMember
from muscore.leagues.models import Competition, ResultClaim

KEEP_SECONDS = 3600


def stamp(club: Club) -> str:
    """What the club page shows, in a few indexed queries (see the module)."""
    players = club.players.aggregate(n=Count("id"), top=Max("id"),
                                     retired=Count("id", filter=Q(retired=True)))
    pairs = club.pairs.aggregate(n=Count("id"), top=Max("id"),
                                 retired=Count("id", filter=Q(retired=True)))
    members = PairMember.objects.filter(pair__club=club).aggregate(n=Count("id"),
                                                                   top=Max("id"))
    changed = ClubChange.objects.filter(club=club).aggregate(top=Max("id"))["top"]
    disputes = list(ResultClaim.objects.filter(
        competition__club=club, status=ResultClaim.Status.DISPUTED).order_by()
        .values("competition_id").annotate(n=Count("id")).values_list("competition_id", "n")
        .order_by("competition_id"))
    competitions = list(Competition.objects.filter(club=club).order_by("pk").values_list(
        "pk", "revision", "name", "status", "archived"))
    # When the club was made: a database built again reuses ids, never the same instant.
    parts = [club.pk, club.created_at.timestamp(), club.name, changed, sorted(players.items()),
             sorted(pairs.items()), sorted(members.items()), competitions, disputes]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def kept(club: Club, club_stamp: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The page's lists for this stamp (in the reader's language: the competitions' notes
    are words), made by `make` when the cache does not hold them."""
    key = f"muscore:club-page:{club.pk}:{club_stamp}:{get_language()}"
    lists: dict[str, Any] | None = cache.get(key)
    if lists is None:
        lists = make()
        cache.set(key, lists, KEEP_SECONDS)
    return lists


def etag(request: HttpRequest, club_stamp: str, organiser: bool, above: str = "") -> str:
    """The page's ETag: its stamp, what the apps above show on it (``above``, their
    text), and what of the reader it shows (language, account, organiser's buttons, the
    CSRF token its forms carry, ?jugadores=)."""
    user = request.user.pk if request.user.is_authenticated else ""
    get_token(request)  # the page's forms carry it: the secret their tokens are made from
    reader = [club_stamp, above, get_language(), user, organiser,
              request.META.get("CSRF_COOKIE"), request.get_full_path()]
    return '"c' + hashlib.sha256(repr(reader).encode()).hexdigest()[:24] + '"'


def mark(response: HttpResponse, tag: str) -> HttpResponse:
    """The ETag, and never a shared cache's copy (the page holds the reader's token)."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    return response
