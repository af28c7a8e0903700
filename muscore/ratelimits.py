"""Abuse limits per client: table creation, imports and writes (issue #10 point 5), an
organiser's password tries (login, the admin's login and new-password links), and the
creation of accounts, clubs, invitations and password links (issue #21 points 4 and 7),
and the reads that are expensive when nothing is cached: a league's export and CSV files,
a round's or a night's card (issue #21 point 1).

Counted by django-ratelimit in the Django cache (settings.CACHES, so shared by every
worker and server when CACHE_URL names a Redis), per client address: REMOTE_ADDR, or
behind a trusted proxy (MUSCORE_BEHIND_PROXY) the address that proxy appended to
X-Forwarded-For, and where the request names an account (the username typed at a login,
the organiser logged in) per account too: many addresses guessing one account's password
are held back as one. Each group has one or more rates (settings.MUSCORE_RATE_LIMITS, from
the environment); a request over any of them is answered 429 with Retry-After, before
the view runs, so nothing of it is saved: the API's error object for the API, a page a
phone can read for the pages.
"""

from __future__ import annotations

import functools
import ipaddress
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

View = Callable[..., HttpResponse]

CREATE = "create"
IMPORT = "import"
WRITE = "write"
LOGIN = "login"
ACCOUNT = "account"
EXPORT = "export"
# The site's ceiling on new accounts (counted for the whole site, not per address): each
# is a password hash (PBKDF2, a quarter of a second of a core), and 60 of them from 60
# addresses took PostgreSQL's other writes from a p50 of 82 ms to 1,787 ms (issue 28).
SIGNUP = "signup"
# A championship's public entry form (issue 28 point 3: 1,000 entries from one address in
# 24 s): per address, and per championship whoever sends them (its ceiling: a form shared
# on social media by many addresses at once). A venue's organiser entering his pairs is
# counted by neither (his entries are his, and confirmed).
ENTRY = "entry"
ENTRY_CHAMPIONSHIP = "entry_championship"
GROUPS = (CREATE, IMPORT, WRITE, LOGIN, ACCOUNT, EXPORT, SIGNUP, ENTRY, ENTRY_CHAMPIONSHIP)
SITE = "site"


def client_address(request: HttpRequest) -> str:
    """The client's IP address as far as it can be trusted (RATELIMIT_IP_META_KEY).

    X-Forwarded-For is a list anyone can start; only its last entry was written by our
    own proxy (nginx's $proxy_add_x_forwarded_for appends the address it saw), and only
    when there is such a proxy. django-ratelimit then counts an IPv6 client by its /64.
    """
    remote: str = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    if settings.MUSCORE_BEHIND_PROXY:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if hops and hops[-1]:
            try:
                return str(ipaddress.ip_address(hops[-1]))
            except ValueError:
                pass
    return remote


def account_keys(request: HttpRequest, field: str | None = "username") -> list[str]:
    """The accounts a request speaks for: the one logged in, and the username typed in
    the form's `field` (a login names the account it tries), case-insensitively, as
    usernames are told apart (muscore.clubs.forms)."""
    keys: list[str] = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        keys.append(f"user:{user.pk}")
    if field and request.method == "POST":
        typed = request.POST.get(field, "")
        if isinstance(typed, str) and typed.strip():
            # Bounded: the cache key of a megabyte-long "username" is no key.
            # NFKC as Django's login form reads it: "ｂｏｓｓ" tries the account "boss",
            # and must count against it.
            name = unicodedata.normalize("NFKC", typed.strip()[:600]).casefold()
            keys.append("name:" + name[:150])
    return keys


def retry_after(request: HttpRequest, group: str, accounts: Iterable[str] = (),
                *, by_address: bool = True) -> int | None:
    """Count this request in `group`, per address (unless not `by_address`) and per each of
    `accounts`; the seconds to wait if any of them is over a limit, else None."""
    if not settings.RATELIMIT_ENABLE:
        return None
    keys: list[str | Callable[[str, HttpRequest], str]] = ["ip"] if by_address else []
    keys += [functools.partial(lambda value, _group, _request: value, a) for a in accounts]
    wait: int | None = None
    for key in keys:
        for rate in settings.MUSCORE_RATE_LIMITS.get(group, []):
            usage = get_usage(request, group=f"muscore.{group}", key=key, rate=rate, increment=True)
            if usage is not None and usage["should_limit"]:
                # time_left is 0 in the window's last second; the next one starts a second later.
                wait = max(wait or 0, int(usage["time_left"]) + 1)
    return wait


def too_many_requests(request: HttpRequest, seconds: int, api: bool,
                      site: bool = False, championship: str = "") -> HttpResponse:
    """The 429: the API's error object, or a page saying how long to wait (and, with
    `site` or `championship`, that the whole site or that championship's entry form is
    busy rather than this address)."""
    if api:
        response: HttpResponse = JsonResponse(
            {
                "error": f"too many requests from this address: try again in {seconds} seconds",
                "retry_after": seconds,
            },
            status=429,
        )
    else:
        # A long wait in minutes: "9950 seconds" means nothing to a player.
        minutes = -(-seconds // 60) if seconds >= 120 else 0
        context = {"seconds": seconds, "minutes": minutes, "site": site,
                   "championship": championship}
        response = render(request, "429.html", context, status=429)
        if getattr(request, "htmx", False):
            # A tap in the hand entry (htmx): show the page instead of a form that does nothing.
            response["HX-Retarget"] = "body"
            response["HX-Reswap"] = "innerHTML"
    response["Retry-After"] = str(seconds)
    return response


def limit(
    group: str,
    *,
    api: bool,
    methods: tuple[str, ...] = ("POST",),
    account_field: str | None = None,
    per_account: bool = False,
) -> Callable[[View], View]:
    """Refuse requests of `methods` over the `group`'s rates with a 429 before the view runs.

    Counted per address; with `per_account` also per the account logged in and, with
    `account_field`, per the username typed in that field of the form.
    """
    if group not in GROUPS:
        raise ValueError(f"unknown rate-limit group {group!r}")

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods:
                accounts = account_keys(request, account_field) if per_account else []
                seconds = retry_after(request, group, accounts)
                if seconds is not None:
                    return too_many_requests(request, seconds, api)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def entry_wait(request: HttpRequest, championship: int) -> tuple[int | None, bool]:
    """Count a public entry: per address first, then (only if the address may) per
    championship, so one address's flood does not use up the championship's ceiling for
    everyone else. The seconds to wait and whether it is the championship's ceiling."""
    seconds = retry_after(request, ENTRY)
    if seconds is not None:
        return seconds, False
    seconds = retry_after(request, ENTRY_CHAMPIONSHIP, [f"championship:{championship}"],
                          by_address=False)
    return seconds, seconds is not None


def site_ceiling(group: str, *, when: Callable[[HttpRequest], bool]) -> Callable[[View], View]:
    """Refuse the requests `when` says count (a new account: a form that makes one) past the
    `group`'s rates for the whole site, whoever sends them, with a 429 page saying the site
    is busy, before the view runs (so before the password is hashed)."""
    if group not in GROUPS:
        raise ValueError(f"unknown rate-limit group {group!r}")

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and when(request):
                seconds = retry_after(request, group, [SITE], by_address=False)
                if seconds is not None:
                    return too_many_requests(request, seconds, api=False, site=True)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
