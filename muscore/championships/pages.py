"""What a championship's pages show, gathered in a fixed number of queries per section:
the venues with their entries and quotas, each heat's qualified and reserves, the phases'
groups with their standings, the champion, and a pair's path through them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.championships import knockout, parts, services
from muscore.championships.entry_text import fold
from muscore.championships.models import Championship, Enrolment, Phase, PhaseGroup, Sede
from muscore.clubs.models import Club
from muscore.leagues import names as league_names
from muscore.leagues import pages as league_pages
from muscore.leagues.models import Competition, Entry, Match, Round
from muscore.leagues.models.knockout import game_title
from muscore.leagues.results import final, standings


def championship_url(championship: Championship) -> str:
    return reverse("championships:detail", args=[championship.pk])


#: Championships a list shows (the index, a club's page), of each kind: current, past.
LISTED = 50


def club_championships(club: Club) -> QuerySet[Championship]:
    """The championships ``club`` organises or hosts a venue of."""
    return Championship.objects.filter(
        Q(club=club) | Q(pk__in=Sede.objects.filter(club=club).values("championship_id")))


def listed(championships: QuerySet[Championship],
           club: Club | None = None) -> dict[str, list[dict[str, Any]]]:
    """``championships`` split into current and past, newest first, ``LISTED`` of each:
    past is a championship whose champion is known (asked only of those whose phases are
    all drawn and all their games finished: three queries and one per finished one).
    Each is one entry with its state (:func:`parts.stage`); on ``club``'s pages, with the
    venues it hosts and their heats under it (one more query)."""
    rows = list(championships.select_related("club").annotate(
        phase_count=Count("phases", distinct=True),
        undrawn=Count("phases", filter=Q(phases__drawn_at__isnull=True), distinct=True),
        playing=Count("phases__groups", filter=~Q(
            phases__groups__competition__status=Competition.Status.FINISHED), distinct=True),
    ).order_by("-created_at", "-id")[:2 * LISTED])
    phases = parts.playing_phases(c.pk for c in rows)
    hosted = parts.club_sedes(club.pk, [c.pk for c in rows]) if club is not None else {}
    current: list[dict[str, Any]] = []
    past: list[dict[str, Any]] = []
    for championship in rows:
        done = championship.phase_count and not championship.undrawn and not championship.playing
        champion = services.champion(championship) if done else None
        entries_open = services.entries_open(championship)
        row = {"championship": championship, "url": championship_url(championship),
               "champion": champion, "open": entries_open,
               "stage": parts.stage(championship, open=entries_open,
                                    champion=champion.name if champion else "",
                                    phase=phases.get(championship.pk, "")),
               "sedes": [_hosted_row(championship, sede)
                         for sede in hosted.get(championship.pk, [])]}
        (past if champion else current).append(row)
    return {"current": current[:LISTED], "past": past[:LISTED]}


def _hosted_row(championship: Championship, sede: Sede) -> dict[str, Any]:
    """A venue the club hosts: its page, and its heat (a competition of the club) with
    its state, once started."""
    heat = sede.heat
    return {"name": sede.name,
            "url": reverse("championships:sede", args=[championship.pk, sede.pk]),
            "heat_url": league_pages.competition_url(heat) if heat else "",
            "heat_status": league_pages.status(heat) if heat else ""}


#: Venues a championship page lists (by region, then paged; a venue page its entries): 250
#: venues are read and shown 25 at a time, so a page's time does not grow with them.
PER_PAGE = 25
#: A phase of more groups than this is a link to its own page on the championship's page.
INLINE_GROUPS = 4


def region_rows(championship: Championship) -> list[dict[str, Any]]:
    """Each region (and "no region" if a venue has none): its venues, pairs entered and
    seats, in two grouped queries and the regions' names."""
    venues: dict[int | None, Any] = {
        row["region_id"]: row for row in championship.sedes.order_by().values(
            "region_id").annotate(venues=Count("id"), seats=Sum("quota"))}
    pairs: dict[int | None, int] = dict(Enrolment.objects.filter(championship=championship,
                                          status=Enrolment.Status.ENTERED)
                 .order_by().values("sede__region_id").annotate(n=Count("id"))
                 .values_list("sede__region_id", "n"))
    rows = []
    for key, name in [(r.pk, r.name) for r in championship.regions.all()] + [(None, "")]:
        row = venues.get(key)
        if row is None:
            continue
        rows.append({"key": key or 0, "name": name, "venues": row["venues"],
                     "pairs": pairs.get(key, 0), "seats": row["seats"]})
    return rows


def venue_page(championship: Championship, region: str = "", page: str = "") -> Page[Sede]:
    """The venues of one page: of ``region`` (a region's id, "0" for those without one)
    if given, ``PER_PAGE`` at a time."""
    sedes = championship.sedes.select_related("region", "heat__club").order_by("id")
    if region == "0":
        sedes = sedes.filter(region__isnull=True)
    elif region.isdigit():
        sedes = sedes.filter(region_id=int(region))
    return Paginator(sedes, PER_PAGE).get_page(page)


def sede_rows(championship: Championship, sedes: Sequence[Sede]) -> list[dict[str, Any]]:
    """Each venue of the page: its region, pairs entered and waiting, quota, heat."""
    counts = {
        row["sede_id"]: row for row in Enrolment.objects.filter(
            sede_id__in=[s.pk for s in sedes]).order_by()
        .values("sede_id").annotate(
            entered=Count("id", filter=Q(status=Enrolment.Status.ENTERED)),
            waiting=Count("id", filter=Q(status=Enrolment.Status.WAITING)))
    }
    head, tail = reverse("championships:sede", args=[championship.pk, 1]).rsplit("/1/", 1)
    rows = []
    for sede in sedes:
        count: Any = counts.get(sede.pk, {})
        rows.append({
            "sede": sede, "entered": count.get("entered", 0), "waiting": count.get("waiting", 0),
            "url": f"{head}/{sede.pk}/{tail}",
            "heat_url": league_pages.competition_url(sede.heat) if sede.heat else "",
            "heat_status": league_pages.status(sede.heat) if sede.heat else "",
        })
    return rows


def quota_rows(championship: Championship, sedes: Sequence[Sede]) -> list[dict[str, Any]]:
    """The stored quotas (with their arithmetic) of the page's venues."""
    shown = {s.pk for s in sedes}
    return [row for row in (championship.quotas or {}).get("rows", []) if row["sede"] in shown]


def heat_rows(championship: Championship, sedes: Sequence[Sede]) -> list[dict[str, Any]]:
    """The page's finished heats: their qualified pairs and reserves, with path links."""
    rows = []
    # One reverse() for all the links (each one is 0.1 ms of URL resolving).
    head, tail = reverse("championships:pair", args=[championship.pk, 1]).rsplit("/1/", 1)

    def link(enrolment: Enrolment) -> str:
        return f"{head}/{enrolment.pk}/{tail}"

    heats = services.qualified(championship, [s.pk for s in sedes])
    for sede in sedes:
        heat = heats.get(sede.pk)
        if heat is None:
            continue
        rows.append({
            "sede": heat.sede, "sede_id": sede.pk,
            "qualified": [(e, link(e)) for e in heat.qualified],
            "reserves": [(e, link(e)) for e in heat.reserves],
            # Pairs out in one round of a ceros share their place: the rule that decides
            # which goes on at the quota's cut is shown (docs/championship.md).
            "ceros_cut": heat.sede.heat is not None
            and heat.sede.heat.format == Competition.Format.CEROS and bool(heat.reserves),
        })
    return rows


def confirm_url(enrolment: Enrolment, key: str) -> str:
    """The pair's confirmation link (muscore.championships.confirm)."""
    return reverse("championships:confirm", args=[enrolment.championship_id, enrolment.pk, key])


def pair_url(enrolment: Enrolment) -> str:
    return reverse("championships:pair", args=[enrolment.championship_id, enrolment.pk])


def bracket_view(phase: Phase) -> dict[str, Any] | None:
    """A knockout phase's bracket for people: each round's ties (pairs, games won, the
    games' links), the third place and the champion. Only reads: the result's write made
    the games the bracket waits for (muscore.leagues.results.bracket)."""
    state = knockout.bracket(phase)
    if state is None:
        return None
    names = {pk: e.name for pk, e in state.enrolments.items()}
    total = len(state.rounds)

    def tie_view(tie: knockout.Tie) -> dict[str, Any]:
        return {"first": names.get(tie.first or 0, ""), "second": names.get(tie.second or 0, ""),
                "wins": tie.wins, "bye": tie.bye, "winner": names.get(tie.winner or 0, ""),
                "games": [league_pages.match_url(g) for g in tie.games]}

    rounds: list[dict[str, Any]] = [
        {"name": league_names.round_name(total, n + 1), "ties": [tie_view(t) for t in ties]}
        for n, ties in enumerate(state.rounds)]
    if state.third is not None:
        rounds.append({"name": league_names.round_name(total, total, third=True),
                       "ties": [tie_view(state.third)]})
    # The ties being played (their two pairs known, no winner yet) and their rounds: what
    # the hall's screen says is in play, as a groups phase says its groups.
    playing = [(r["name"], sum(1 for t in r["ties"] if t["first"] and t["second"]
                                and not t["bye"] and not t["winner"])) for r in rounds]
    return {"rounds": rounds, "champion": names.get(state.champion or 0, ""),
            "best_of": phase.best_of, "in_play": sum(count for _name, count in playing),
            "playing": ", ".join(name for name, n in playing if n)}


def _group_rows(phase: Phase, groups: Iterable[PhaseGroup],
                tables_of: dict[int, list[standings.GroupStandings]]) -> list[dict[str, Any]]:
    rows = []
    for group in groups:
        competition = group.competition
        tables = tables_of.get(competition.pk, [])
        rows.append({
            "number": group.order + 1, "url": league_pages.competition_url(competition),
            "rows": tables[0].rows if tables else [], "advance": phase.advance,
            "finished": competition.status == Competition.Status.FINISHED,
        })
    return rows


def phase_views(championship: Championship, *,
                inline: int | None = INLINE_GROUPS) -> list[dict[str, Any]]:
    """Each phase: its bracket, or its groups with their standings and links (on the
    championship's page only a phase of at most ``inline`` groups shows them: a larger
    one links to its own page, and its groups are not read)."""
    views = []
    phases = list(championship.phases.annotate(group_total=Count("groups")))
    shown = {p.pk for p in phases
             if not p.knockout and (inline is None or p.group_total <= inline)}
    groups: dict[int, list[PhaseGroup]] = {}
    for group in PhaseGroup.objects.filter(phase_id__in=shown).select_related(
            "competition__club"):
        groups.setdefault(group.phase_id, []).append(group)
    # Every shown group's standings at once: the page's queries do not grow with them.
    tables_of = standings.standings_of([g.competition for gs in groups.values() for g in gs])
    for phase in phases:
        view: dict[str, Any] = {
            "phase": phase, "groups": [], "bracket": None,
            "group_count": 0 if phase.knockout else phase.group_total,
            "url": reverse("championships:phase", args=[championship.pk, phase.pk]),
            "tv_url": reverse("championships:tv", args=[championship.pk, phase.pk])}
        if phase.knockout:
            view["bracket"] = bracket_view(phase)
        elif phase.pk in shown:
            view["groups"] = _group_rows(phase, groups.get(phase.pk, []), tables_of)
        views.append(view)
    return views


def championship_context(championship: Championship, *, region: str = "",
                         page: str = "") -> dict[str, Any]:
    """The championship's page: its regions, one page of venues (with their quotas,
    qualified and reserves), its phases and champion, in a fixed number of queries."""
    champion = services.champion(championship)
    venues = venue_page(championship, region, page)
    sedes = list(venues.object_list)
    return {
        "championship": championship,
        "open": services.entries_open(championship),
        "regions": region_rows(championship),
        "region": region if region.isdigit() else "",
        "venues": venues,
        "sedes": sede_rows(championship, sedes),
        "quotas": quota_rows(championship, sedes),
        "quota_sums": championship.quotas or {},
        "heats": heat_rows(championship, sedes),
        "phases": phase_views(championship),
        "champion": champion,
        "champion_url": pair_url(champion) if champion else "",
    }


def phase_context(phase: Phase) -> dict[str, Any]:
    """A phase's own page: all its groups with their standings, or its bracket."""
    groups = list(phase.groups.select_related("competition__club"))
    tables_of = standings.standings_of([g.competition for g in groups]) \
        if not phase.knockout else {}
    return {
        "championship": phase.championship, "phase": phase,
        "groups": [] if phase.knockout else _group_rows(phase, groups, tables_of),
        "bracket": bracket_view(phase) if phase.knockout else None,
        "tv_url": reverse("championships:tv", args=[phase.championship_id, phase.pk]),
    }


def pair_path(enrolment: Enrolment) -> list[dict[str, Any]]:
    """A pair's way through the championship: its heat, then each phase's group."""
    steps: list[dict[str, Any]] = []
    sede = enrolment.sede
    if sede.heat is not None and enrolment.heat_pair_id is not None:
        order = final.order(sede.heat) if sede.heat.status == "finished" else []
        index = sede.heat.entries.filter(pair_id=enrolment.heat_pair_id).values_list(
            "index", flat=True).first()
        steps.append({"title": sede.name, "url": league_pages.competition_url(sede.heat),
                      "place": order.index(index) + 1 if index in order else None,
                      "status": league_pages.status(sede.heat)})
    if enrolment.phase_pair_id is None:
        return steps
    # Each group phase's group the pair played in, with its place there (the group's
    # standings, all at once): the same queries for one phase or many.
    entries = list(Entry.objects.filter(
        pair_id=enrolment.phase_pair_id, competition__phase_group__isnull=False,
        competition__phase_group__phase__knockout=False)
        .select_related("competition__club").order_by("competition_id"))
    finished = standings.standings_of([e.competition for e in entries
                                       if e.competition.status == "finished"])
    for entry in entries:
        competition, index = entry.competition, entry.index
        tables = finished.get(competition.pk, [])
        # A group is a liguilla: its final order is its one table's (leagues.results.final).
        order = [row.pair for row in tables[0].rows] if tables else []
        steps.append({"title": competition.title,
                      "url": league_pages.competition_url(competition),
                      "place": order.index(index) + 1 if index in order else None,
                      "status": league_pages.status(competition)})
    # A knockout's games, each won or lost, not a place of two.
    for match in (Match.objects.filter(
            competition__phase_group__phase__knockout=True, tie__isnull=False)
            .filter(Q(first__pair_id=enrolment.phase_pair_id)
                    | Q(second__pair_id=enrolment.phase_pair_id))
            .with_outcome().select_related("competition__club", "tie", "first")
            .order_by("competition_id", "number")):
        result = match.outcome
        won = None if result is None or result.winner is None else (
            (match.first is not None and match.first.pair_id == enrolment.phase_pair_id)
            == (result.winner == 0))
        steps.append({"title": game_title(match.competition, match.tie, match.game),
                      "url": league_pages.match_url(match), "place": None,
                      "status": (_("ganada") if won else _("perdida")) if won is not None
                      else league_pages.status(match.competition)})
    return steps


def clock(phase: Phase, groups: list[dict[str, Any]],
          now: datetime | None = None) -> list[dict[str, Any]]:
    """Each group's deadline (its current round's start, read now: an organiser may set it
    on the league's round page too, and the groups may come from the cache) plus the
    championship's time per match, and the tables still playing past it as of ``now``.
    A paused clock (``phase.clock_paused_at``) shows the seconds left at the pause
    (``paused_left``) and flags nothing new. One query for the whole hall."""
    now = now or timezone.now()
    paused = phase.clock_paused_at
    limit = timedelta(minutes=phase.championship.round_minutes)
    starts = dict(Round.objects.filter(pk__in=[g["round_id"] for g in groups if g["round_id"]])
                  .values_list("pk", "starts_at"))
    for group in groups:
        start = starts.get(group["round_id"])
        deadline = group["deadline"] = start + limit if start else None
        left = (max(0, int((deadline - paused).total_seconds()))
                if deadline and paused else None)
        group["paused_left"] = left
        group["paused_text"] = f"{left // 60}:{left % 60:02d}" if left is not None else ""
        at = paused or now
        for match in group["matches"]:
            match["late"] = bool(deadline and not match["done"] and at > deadline)
    return groups


def clock_mark(phase: Phase, groups: Sequence[dict[str, Any]]) -> str:
    """What the clock shows in a few characters (each deadline, the pause, the tables
    past their time), for the hall's ETag: a clock started, paused or reset, or a table
    going past its time, is a new answer to the poll."""
    text = "|".join(f"{g['deadline'].isoformat() if g['deadline'] else ''}:{g['paused_left']}:"
                    + "".join("1" if m["late"] else "0" for m in g["matches"])
                    for g in groups)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


#: Groups a hall panel shows at once (3 columns of 2 at 1920x1080); more turn by panels.
GROUPS_PER_PANEL = 6
#: Ties a bracket column shows at once, and columns a bracket panel holds.
TIES_PER_COLUMN = 8
COLUMNS_PER_PANEL = 4


def hall_panels(groups: Sequence[dict[str, Any]],
                bracket: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The hall's screen in panels that each fit a 1920x1080 screen, whatever the number
    of groups or ties: the bracket (its rounds in columns of at most ``TIES_PER_COLUMN``
    ties, ``COLUMNS_PER_PANEL`` to a panel), then the groups ``GROUPS_PER_PANEL`` at a
    time. static/js/tv.js shows one at a time and turns them, as on the club's TV."""
    panels: list[dict[str, Any]] = []
    if bracket is not None:
        columns = [{"name": r["name"], "ties": r["ties"][i:i + TIES_PER_COLUMN]}
                   for r in bracket["rounds"]
                   for i in range(0, max(1, len(r["ties"])), TIES_PER_COLUMN)]
        for i in range(0, len(columns), COLUMNS_PER_PANEL):
            panels.append({"name": "bracket" if i == 0 else f"bracket-{i // COLUMNS_PER_PANEL + 1}",
                           "kind": "bracket", "columns": columns[i:i + COLUMNS_PER_PANEL]})
    for i in range(0, len(groups), GROUPS_PER_PANEL):
        shown = list(groups[i:i + GROUPS_PER_PANEL])
        panels.append({"name": "groups" if i == 0 else f"groups-{i // GROUPS_PER_PANEL + 1}",
                       "kind": "groups", "groups": shown, "first": shown[0]["number"],
                       "last": shown[-1]["number"], "paged": len(groups) > GROUPS_PER_PANEL})
    return panels


def hall_groups(phase: Phase) -> list[dict[str, Any]]:
    """Each group's current round, its matches and its standings as plain values, kept in
    the cache by the championship's stamp (:func:`clock` adds the deadlines); a knockout's
    games being played, each as a group of its own."""
    if phase.knockout:
        return _hall_games(phase)
    out = []
    groups = list(phase.groups.select_related("competition"))
    ids = [g.competition_id for g in groups]
    # Each group's current round (its first unplayed match's) and that round's matches,
    # two queries for the whole hall, and every group's standings at once.
    current: dict[int, Match] = {}
    for match in (Match.objects.filter(competition_id__in=ids).unplayed()
                  .select_related("round").order_by("competition_id", "number")):
        current.setdefault(match.competition_id, match)
    shown: dict[int, list[Match]] = {}
    for match in (Match.objects.filter(round_id__in=[m.round_id for m in current.values()])
                  .with_outcome().select_related("first__pair", "second__pair")
                  .order_by("number")):
        shown.setdefault(match.competition_id, []).append(match)
    tables_of = standings.standings_of([g.competition for g in groups])
    for group in groups:
        competition = group.competition
        now_playing = current.get(competition.pk)
        tables = tables_of.get(competition.pk, [])
        out.append({
            "number": group.order + 1,
            "round": now_playing.round.number if now_playing else None,
            "round_id": now_playing.round_id if now_playing else None, "title": "",
            "matches": [_hall_match(match) for match in shown.get(competition.pk, [])],
            "rows": [{"name": r.name, "points": r.points}
                     for r in (tables[0].rows if tables else [])]})
    return out


def _hall_match(match: Match) -> dict[str, Any]:
    return {"first": league_pages.pair_name(match.first),
            "second": league_pages.pair_name(match.second),
            "result": league_pages.result_text(match), "done": match.played,
            "table": match.table_number}


def _hall_games(phase: Phase) -> list[dict[str, Any]]:
    """A knockout's games waiting for their result, in the order they were made, each
    with its two pairs at 0 points (a decided game: the bracket above shows it)."""
    out = []
    games = (Match.objects.filter(competition__phase_group__phase=phase, tie__isnull=False)
             .exclude(first=None).exclude(second=None).unplayed()
             .select_related("competition", "tie", "round", "first__pair", "second__pair")
             .order_by("number"))
    for match in games:
        assert match.tie is not None
        out.append({
            "number": match.tie.order + 1, "round": 1, "round_id": match.round_id,
            "title": game_title(match.competition, match.tie, match.game),
            "matches": [_hall_match(match)],
            "rows": [{"name": league_pages.pair_name(entry), "points": 0}
                     for entry in (match.first, match.second)]})
    return out


#: Pairs a player search shows at most (a short query matches many people).
FOUND = 50


def player_enrolments(championship: Championship, name: str) -> list[Enrolment]:
    """The pairs whose players' names hold every word of ``name`` as the start of one of
    theirs (any part of a name, folded as the entries' keys are: case, accents, spelling;
    "irigo" finds Mikel Irigoyen, "1a" not "10a"), withdrawn ones included, at most
    ``FOUND``."""
    words = fold(name).split()
    if not words:
        return []
    where = Q()
    for key in ("key_a", "key_b"):
        each = Q()
        for word in words:  # the start of one of the name's words
            each &= Q(**{f"{key}__startswith": word}) | Q(**{f"{key}__contains": " " + word})
        where |= each
    return list(championship.enrolments.filter(where)
                .exclude(status__in=[Enrolment.Status.PENDING, Enrolment.Status.REJECTED])
                .select_related("sede").order_by("name", "id")[:FOUND])
