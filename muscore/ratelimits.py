"""Abuse limits per client: table creation, imports and writes (issue #10 point 5), an
organiser's password tries (login, the admin's login and new-password links), and the
creation of accounts, clubs, invitations and password links (issue #21 points 4 and 7),
and the reads that are expensive when nothing is cached: a league's export and CSV files,
a round's or a night's card (issue #21 point 1).

Counted by django-ratelimit in the Django cache (settings.CACHES, so shared by every
worker and server when CACHE_URL names a Redis), per client address: REMOTE_ADDR, or
behind a trusted proxy (MUSCORE_BEHIND_PROXY) the address that proxy appended to
X-Forwarded-For, and where the request names an account (the organiser logged in) per
account too. A login counts per address, per account and address, and per account from
every address but a browser that logged into it before (login_wait): many addresses
guessing one password are held back, never the organiser's own phone, and a new address
only for a short window. Each group has one or more rates (settings.MUSCORE_RATE_LIMITS,
from the environment); a request over any of them is answered 429 with Retry-After, before
the view runs, so nothing of it is saved (and it is counted in none of them: _wait): the
API's error object for the API, a page a phone can read for the pages.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

from muscore import problems

View = Callable[..., HttpResponse]

CREATE = "create"
IMPORT = "import"
WRITE = "write"
LOGIN = "login"
# An account's password tries from every address together (issue 40: 60 wrong passwords
# from 60 addresses locked an organiser out for the hour). A short window, and a browser
# that has logged into that account before (its signed cookie, DEVICE_COOKIE) is not
# counted in it: the right password from a known device gets in at once, from a new
# address after the window, as django-axes and GitHub do it.
LOGIN_ACCOUNT = "login_account"
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
GROUPS = (CREATE, IMPORT, WRITE, LOGIN, LOGIN_ACCOUNT, ACCOUNT, EXPORT, SIGNUP, ENTRY,
          ENTRY_CHAMPIONSHIP)
SITE = "site"
#: The signed cookie of a browser that logged in: the accounts it logged into (a hash of
#: each name), for DEVICE_DAYS.
DEVICE_COOKIE = "muscore_device"
DEVICE_SALT = "muscore.ratelimits.device"
DEVICE_DAYS = 180
DEVICE_ACCOUNTS = 8


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


def _address_key(request: HttpRequest) -> str:
    """The client's address as django-ratelimit counts it: an IPv6 client by its /64."""
    address = client_address(request)
    if ":" in address:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return address


def typed_account(request: HttpRequest, field: str = "username") -> str:
    """The account a login form names ("name:<username>", as account_keys counts it), or ""."""
    typed = request.POST.get(field, "") if request.method == "POST" else ""
    if not isinstance(typed, str) or not typed.strip():
        return ""
    # Bounded: the cache key of a megabyte-long "username" is no key. NFKC as Django's
    # login form reads it: "ｂｏｓｓ" tries the account "boss", and must count against it.
    name = unicodedata.normalize("NFKC", typed.strip()[:600]).casefold()
    return "name:" + name[:150]


def account_keys(request: HttpRequest, field: str | None = "username") -> list[str]:
    """The accounts a request speaks for: the one logged in, and the username typed in
    the form's `field` (a login names the account it tries), case-insensitively, as
    usernames are told apart (muscore.clubs.forms)."""
    keys: list[str] = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        keys.append(f"user:{user.pk}")
    typed = typed_account(request, field) if field else ""
    if typed:
        keys.append(typed)
    return keys


Key = str | Callable[[str, HttpRequest], str]


def _value(value: str) -> Callable[[str, HttpRequest], str]:
    return functools.partial(lambda value, _group, _request: value, value)


def _wait(request: HttpRequest,
          counters: list[tuple[str, Key]]) -> tuple[int | None, set[str]]:
    """Count this request in each ``(group, key)`` of ``counters``, at every rate of the
    group; the seconds to wait and the groups that refused, or (None, an empty set).

    Every counter is read first: a request over any of them is refused and counted in
    none. A refused request so never counts again: the posts one window refuses do not
    fill a longer one (60 refused in ten minutes took the day's 500 and shut an entry
    form for ten hours), and an address refused does not spend an account's tries.
    Then it is counted in all of them; a count past a limit then is a race, refused too."""
    if not settings.RATELIMIT_ENABLE:
        return None, set()
    wait: int | None = None
    refused: set[str] = set()
    for increment in (False, True):
        for group, key in counters:
            for rate in settings.MUSCORE_RATE_LIMITS.get(group, []):
                usage = get_usage(request, group=f"muscore.{group}", key=key, rate=rate,
                                  increment=increment)
                if usage is None:  # the cache did not answer: the limits are off
                    continue
                full = usage["count"] > usage["limit"] if increment else (
                    usage["count"] >= usage["limit"])
                if full:
                    # time_left is 0 in the window's last second; the next starts a second later.
                    wait = max(wait or 0, int(usage["time_left"]) + 1)
                    refused.add(group)
        if wait is not None:
            return wait, refused
    return None, set()


def retry_after(request: HttpRequest, group: str, accounts: Iterable[str] = (),
                *, by_address: bool = True) -> int | None:
    """Count this request in `group`, per address (unless not `by_address`) and per each of
    `accounts`; the seconds to wait if any of them is over a limit, else None (a refused
    request is counted in none)."""
    keys: list[Key] = ["ip"] if by_address else []
    keys += [_value(a) for a in accounts]
    return _wait(request, [(group, key) for key in keys])[0]


def too_many_requests(request: HttpRequest, seconds: int, api: bool,
                      site: bool = False, championship: str = "",
                      account: bool = False) -> HttpResponse:
    """The 429: the API's error object, or a page saying how long to wait (and, with
    `site` or `championship`, that the whole site or that championship's entry form is
    busy rather than this address; with `account`, that the account had too many tries
    and a device that logged into it before gets in)."""
    if api:
        response: HttpResponse = problems.problem(
            429, "api", "too_many_requests",
            f"too many requests from this address: try again in {seconds} seconds",
            retry_after=seconds)
    else:
        # A long wait in minutes: "9950 seconds" means nothing to a player.
        minutes = -(-seconds // 60) if seconds >= 120 else 0
        context = {"seconds": seconds, "minutes": minutes, "site": site,
                   "championship": championship, "account": account}
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


def _device_mark(account: str) -> str:
    return hashlib.sha256(account.encode()).hexdigest()[:24]


def _device_marks(request: HttpRequest) -> list[str]:
    try:
        marks = signing.loads(request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_SALT,
                              max_age=DEVICE_DAYS * 24 * 3600)
    except signing.BadSignature:
        return []
    return [m for m in marks if isinstance(m, str)] if isinstance(marks, list) else []


def known_device(request: HttpRequest, account: str) -> bool:
    """Whether this browser has logged into ``account`` (typed_account's key) before."""
    return _device_mark(account) in _device_marks(request)


def remember_device(request: HttpRequest, response: HttpResponse, account: str) -> None:
    """This browser logged into ``account``: its signed cookie says so from now on."""
    mark = _device_mark(account)
    marks = [m for m in _device_marks(request) if m != mark][-(DEVICE_ACCOUNTS - 1):] + [mark]
    response.set_cookie(DEVICE_COOKIE, signing.dumps(marks, salt=DEVICE_SALT),
                        max_age=DEVICE_DAYS * 24 * 3600, httponly=True, samesite="Lax",
                        secure=settings.SESSION_COOKIE_SECURE)


def login_wait(request: HttpRequest) -> tuple[int | None, bool]:
    """Count a password try: per address (one address guessing many accounts), per account
    and address (one address guessing one account), and per account from every address
    but a known device's (many addresses guessing one account: a short window). The
    seconds to wait and whether it is the account's window alone (the page then says a known
    device gets in)."""
    counters: list[tuple[str, Key]] = [(LOGIN, "ip")]
    account = typed_account(request)
    if account:
        counters.append((LOGIN, _value(f"{account}@{_address_key(request)}")))
        if not known_device(request, account):
            counters.append((LOGIN_ACCOUNT, _value(account)))
    seconds, refused = _wait(request, counters)
    return seconds, refused == {LOGIN_ACCOUNT}


def login_limit(view: View) -> View:
    """A login page's limits (login_wait) before the view runs, and, once it has logged
    someone in, the browser remembered as a known device of that account."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            seconds, whole = login_wait(request)
            if seconds is not None:
                return too_many_requests(request, seconds, api=False, account=whole)
        response = view(request, *args, **kwargs)
        user = getattr(request, "user", None)
        if (request.method == "POST" and user is not None and user.is_authenticated
                and response.status_code in (301, 302, 303)):
            typed = typed_account(request)
            if typed:
                remember_device(request, response, typed)
        return response

    return wrapper


def entry_wait(request: HttpRequest, championship: int) -> tuple[int | None, bool]:
    """Count a public entry per address and per championship (its ceiling, whoever sends
    them: a bounded window, ten minutes, so that a flood shuts the form for minutes,
    never hours; a venue's organiser enters his pairs past it). A post refused by either
    counts in neither, so one address's flood does not use up the championship's ceiling
    for everyone else. The seconds to wait and whether it is the championship's ceiling
    alone (not this address's)."""
    ceiling = _value(f"championship:{championship}")
    seconds, refused = _wait(request, [(ENTRY, "ip"), (ENTRY_CHAMPIONSHIP, ceiling)])
    return seconds, refused == {ENTRY_CHAMPIONSHIP}


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
