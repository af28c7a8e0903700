"""The addresses of a knockout game from before each game was a match of its phase's one
competition (championships 0011): each game was a competition of its own then, with its
page, round, pairs, match, cards and API document, and clubs shared and bookmarked them.
Those competitions are gone, so their addresses answer 404; :class:`OldGameMiddleware`
sends a reader of one (GET or HEAD) on, for good (301), to the same page of the game now:
the competition's and its rounds' pages to the game's, its round's pages to the round the
game is in, a pair to the same pair, the match and its pages (a pair's result link too)
to the game's, its night card and the bar's screen to the knockout's, its API document
to the knockout's. Anything else, or an id no game had, stays 404; a form sent to one of
them (POST) is not sent on (it was made for a competition that is no longer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from muscore import addresses
from muscore.championships.models import OldGame
from muscore.leagues.models import Match

#: The game's competition was its match: its page, its rounds' list and its draw.
GAME = {"competition", "rounds", "draw"}
#: Its one match (number 1) and that match's pages.
MATCH = {"match", "play", "result", "no_show", "substitute", "own_players", "clear",
         "confirm_pair", "confirm_pair_action", "confirm_decide"}
#: Its one round (number 1) and that round's pages.
ROUND = {"round", "schedule", "confirm_round", "round_card"}
#: The competition's pages that are the knockout's now (the night's card, the API's).
SAME = {"night_card", "league", "league_export", "league_standings_csv",
        "league_matches_csv"}


def _game(old: int, slug: str | None) -> Match | None:
    """The match the old competition ``old`` became (of the club ``slug`` when the
    address names one), or None."""
    row = (OldGame.objects.filter(competition_id=old)
           .select_related("match__competition__club", "match__round", "match__first",
                           "match__second").first())
    if row is None or (slug is not None and row.match.competition.club.slug != slug):
        return None
    return row.match


def new_address(path: str, query: dict[str, str]) -> str | None:
    """Where the old game's address ``path`` (with its query) is now, or None: not an old
    game's address, or none of its pages."""
    try:
        found = resolve(path)
    except Resolver404:
        return None
    name, kwargs = found.url_name or "", dict(found.kwargs)
    if name == "tv":
        raw = query.get("liga", "")
        match = _game(int(raw), kwargs["slug"]) if raw.isdigit() else None
        if match is None:
            return None
        query = {**query, "liga": str(match.competition_id)}
        return _with_query(_reverse(path, found.view_name, kwargs), query)
    key = "league_id" if "league_id" in kwargs else "competition_id"
    if key not in kwargs or name not in GAME | MATCH | ROUND | SAME | {"entry"}:
        return None
    match = _game(kwargs[key], kwargs.get("slug"))
    if match is None:
        return None
    changed = _moved(name, kwargs, match)
    if changed is None:
        return None
    changed[key] = match.competition_id
    view = found.view_name if name not in GAME else f"{found.namespace}:match"
    return _with_query(_reverse(path, view, changed), query)


def _moved(name: str, kwargs: dict[str, Any], match: Match) -> dict[str, Any] | None:
    """The address's arguments for the game ``match`` is now (the competition's id aside),
    or None: a round, match or pair the old game's competition did not have."""
    if name in GAME:
        return {"slug": kwargs["slug"], "number": match.number}
    if name in MATCH or name in ROUND:
        if kwargs["number"] != 1:
            return None
        return {**kwargs, "number": match.number if name in MATCH else match.round.number}
    if name == "entry":
        # The game's first pair was its competition's first entry (index 0).
        side = (match.first, match.second)[kwargs["index"]] if kwargs["index"] in (0, 1) \
            else None
        return {**kwargs, "index": side.index} if side is not None else None
    return dict(kwargs)


def _reverse(path: str, view: str, kwargs: dict[str, Any]) -> str:
    # In the language of the address asked for (none: Spanish, without a prefix).
    with translation.override(addresses.language_of(path)):
        return reverse(view, kwargs=kwargs)


def _with_query(url: str, query: dict[str, str]) -> str:
    return f"{url}?{urlencode(query)}" if query else url


class OldGameMiddleware:
    """A 404 to GET or HEAD an old knockout game's address becomes a 301 to the game now
    (:func:`new_address`); every other answer passes as it is."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.status_code != 404 or request.method not in ("GET", "HEAD"):
            return response
        target = new_address(request.path_info, request.GET.dict())
        return HttpResponsePermanentRedirect(target) if target is not None else response
