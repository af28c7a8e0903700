"""A club's players as the ratings see them: a player's page (nivel, its history drawn as
an inline SVG, pairs, recent matches), the club's players by nivel, the page explaining
the method, and the win probability shown before a match.

Thin function views over the stored ratings (muscore.leagues.rating_store): each page
reads a fixed number of rows whatever the number of matches the club has played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from muscore.clubs.models import Club, Pair, Player
from muscore.clubs.people import player_ids
from muscore.clubs.views import club_context
from muscore.leagues import competitions, pages, rating_store, stats_store
from muscore.leagues.compute.ratings import (
    PlayerRating as Rated,  # not muscore.leagues.compute.ratings()
)
from muscore.leagues.compute.ratings import win_probability
from muscore.leagues.models import Entry, Match, PlayerRating, RatingPoint

RECENT = 10
BAR_WIDTH = 300
CHART_WIDTH, CHART_HEIGHT = 320, 140
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 30, 10, 10, 20
# A history longer than this is drawn from evenly spaced points (and the last one):
# a polyline of a few hundred points is all a phone's width can show.
CHART_POINTS = 400


def player_url(club: Club, player_id: int) -> str:
    return reverse("clubs:player", args=[club.slug, player_id])


def nivel_chart(history: Sequence[float]) -> dict[str, Any] | None:
    """The nivel after each rated match, from 0 before the first, for an inline SVG.

    The vertical scale runs between multiples of 5 around the lowest and highest nivel
    (0 always inside: every player starts there); None when nothing was rated.
    """
    if not history:
        return None
    values = [0.0, *history]
    count = len(values) - 1
    if len(values) > CHART_POINTS:
        step = (len(values) - 1) / (CHART_POINTS - 1)
        picked = sorted({round(i * step) for i in range(CHART_POINTS)} | {len(values) - 1})
    else:
        picked = list(range(len(values)))
    low = min(0.0, min(values))
    high = max(0.0, max(values))
    bottom_value = 5 * (low // 5)
    top_value = 5 * -(-high // 5) if high > bottom_value else bottom_value + 5
    if top_value == bottom_value:
        top_value += 5
    plot_left, plot_right = CHART_LEFT, CHART_WIDTH - CHART_RIGHT
    plot_top, plot_bottom = CHART_TOP, CHART_HEIGHT - CHART_BOTTOM

    def x(i: int) -> float:
        return round(plot_left + i * (plot_right - plot_left) / max(count, 1), 1)

    def y(value: float) -> float:
        share = (value - bottom_value) / (top_value - bottom_value)
        return round(plot_bottom - share * (plot_bottom - plot_top), 1)

    ticks = sorted({1, count} | set(range(10, count, 10 if count <= 50 else 50 if count <= 400
                                          else 100)))
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": plot_left,
        "right": plot_right,
        "top": plot_top,
        "bottom": plot_bottom,
        "points": " ".join(f"{x(i)},{y(values[i])}" for i in picked),
        "end": {"x": x(count), "y": y(values[-1])},
        "zero_y": y(0.0),
        "top_value": int(top_value),
        "bottom_value": int(bottom_value),
        "top_y": y(top_value),
        "bottom_y": y(bottom_value),
        "x_ticks": [{"n": n, "x": x(n)} for n in ticks if n >= 1],
        "label_y": CHART_HEIGHT - 5,
        "matches": count,
        "last": values[-1],
        "best": max(history),
    }


def _recent(player: Player, history: Sequence[float]) -> list[dict[str, Any]]:
    """The player's last rated matches, newest first, with the nivel each one gave."""
    recent = list(
        RatingPoint.objects.filter(player=player)
        .select_related("match__result", "match__tie", "match__competition__club",
                        "match__first__pair",
                        "match__second__pair", "match__round")
        .order_by("-arrived_at", "-match_id")[:RECENT]
    )
    rows = []
    for k, point in enumerate(recent):
        place = len(history) - 1 - k  # this point's index in the history
        before = history[place - 1] if place > 0 else 0.0
        row = pages.match_row(point.match)
        row.update(won=point.won, side=point.side, nivel=point.nivel,
                   change=point.nivel - before, competition=point.match.competition.title)
        rows.append(row)
    return rows


def _pairs(player: Player) -> list[dict[str, Any]]:
    """The player's pairs, each with its pages in the club's competitions."""
    found: dict[int, dict[str, Any]] = {}
    for pair in Pair.objects.filter(members__player=player).order_by("name"):
        found[pair.pk] = {"name": pair.name, "entries": []}
    for entry in Entry.objects.filter(pair_id__in=list(found)).select_related(
            "competition").order_by("-competition__created_at", "competition_id"):
        found[entry.pair_id]["entries"].append({
            "name": entry.competition.title,
            "url": pages.entry_url(entry.competition, entry.index),
        })
    return list(found.values())


@require_safe
def player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's page: the nivel, its history, the pairs and the latest matches."""
    club = get_object_or_404(Club, slug=slug)
    person = get_object_or_404(Player, pk=player_id, club=club)
    rating = PlayerRating.objects.filter(player=person).first()
    ranked = PlayerRating.objects.filter(club=club, player__retired=False)
    history = rating_store.history(person)
    context = {
        **club_context(request, club),
        "player": person,
        "rating": rating,
        "chart": nivel_chart(history),
        "recent": _recent(person, history) if history else [],
        "pairs": _pairs(person),
        # The rank among the players on the club's lists: a retired one keeps his nivel
        # and history, but has no place in the ranking (nor counts in anyone's).
        "rank": (ranked.filter(nivel__gt=rating.nivel).count() + 1
                 if rating is not None and not person.retired else None),
        "rated_players": ranked.count() if rating else 0,
        "ratings_waiting": rating_store.waiting(club),
        # What the hands say: his side's counts in the table matches he sat in.
        **stats_store.player_context(person),
    }
    return render(request, "leagues/player.html", context)


@require_safe
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players by nivel, highest first (those rated at least once)."""
    club = get_object_or_404(Club, slug=slug)
    # Retired players are off the club's lists, this one too (their page stays).
    rows = list(PlayerRating.objects.filter(club=club, player__retired=False)
                .select_related("player").order_by("-nivel", Lower("player__name")))
    context = {
        **club_context(request, club),
        "rows": [{"position": n, "rating": r, "url": player_url(club, r.player_id)}
                 for n, r in enumerate(rows, 1)],
        "unrated": Player.objects.filter(club=club, rating__isnull=True, retired=False).count(),
        "ratings_waiting": rating_store.waiting(club),
    }
    return render(request, "leagues/player_ranking.html", context)


@require_safe
def method(request: HttpRequest) -> HttpResponse:
    """How the nivel and the win probability are worked out, for anyone who asks."""
    return render(request, "leagues/rating_method.html", {"club": None})


# --- the match page: each pair's chances -----------------------------------------------------


def prediction(match: Match) -> dict[str, Any] | None:
    """Each pair's win probability (openskill's predict_win on the current ratings of
    the players who will sit), for a match not played yet whose pairs are known."""
    if match.played or match.first is None or match.second is None:
        return None
    club = match.competition.club
    sides = competitions.match_players(match)
    # By the Spanish key (muscore.clubs.people): LOWER() in SQLite left Íñigo unfound.
    ids = player_ids(club.pk, [n for side in sides for n in side])
    rows = Player.objects.filter(pk__in=set(ids.values())).select_related("rating").in_bulk()
    found = {name: rows[pk] for name, pk in ids.items()}
    teams: list[list[Rated | None]] = []
    shown: list[list[dict[str, Any]]] = []
    for side in sides:
        team: list[Rated | None] = []
        people = []
        for name in side:
            person = found.get(name)
            stored = getattr(person, "rating", None) if person is not None else None
            team.append(Rated(name, stored.mu, stored.sigma)
                        if stored is not None else None)
            people.append({"name": name, "nivel": stored.nivel if stored is not None else None,
                           "url": player_url(club, person.pk) if person is not None else ""})
        teams.append(team)
        shown.append(people)
    first, _second = win_probability(teams[0], teams[1])
    chance = round(100 * first)  # the two shown add up to 100
    return {
        "first": {"pair": match.first.pair.name, "chance": chance, "players": shown[0]},
        "second": {"pair": match.second.pair.name, "chance": 100 - chance,
                   "players": shown[1]},
        "split": round(first * BAR_WIDTH, 1),
        "rest": round(BAR_WIDTH - first * BAR_WIDTH, 1),
        "bar_width": BAR_WIDTH,
    }


def pair_players(club: Club, pair: Pair) -> list[dict[str, str]]:
    """A pair's players in seat order, each with a link to their page."""
    return [{"name": m.player.name, "url": player_url(club, m.player_id)}
            for m in pair.members.select_related("player").order_by("position")]
