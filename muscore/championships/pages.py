"""What a championship's pages show, gathered in a fixed number of queries per section:
the venues with their entries and quotas, each heat's qualified and reserves, the phases'
groups with their standings, the champion, and a pair's path through them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from muscore.championships import knockout, services
from muscore.championships.models import Championship, Enrolment, Phase
from muscore.leagues import competitions
from muscore.leagues import pages as league_pages
from muscore.leagues.models import Competition, Match


def championship_url(championship: Championship) -> str:
    return reverse("championships:detail", args=[championship.pk])


def sede_rows(championship: Championship) -> list[dict[str, Any]]:
    """Each venue: its region, pairs entered and waiting, quota, heat."""
    counts = {
        row["sede_id"]: row for row in Enrolment.objects.filter(championship=championship)
        .values("sede_id").annotate(
            entered=Count("id", filter=Q(status=Enrolment.Status.ENTERED)),
            waiting=Count("id", filter=Q(status=Enrolment.Status.WAITING)))
    }
    rows = []
    for sede in championship.sedes.select_related("region", "heat__club"):
        count: Any = counts.get(sede.pk, {})
        rows.append({
            "sede": sede, "entered": count.get("entered", 0), "waiting": count.get("waiting", 0),
            "url": reverse("championships:sede", args=[championship.pk, sede.pk]),
            "heat_url": league_pages.competition_url(sede.heat) if sede.heat else "",
            "heat_status": league_pages.status(sede.heat) if sede.heat else "",
        })
    return rows


def quota_rows(championship: Championship) -> list[dict[str, Any]]:
    """The stored quotas with the words of their arithmetic."""
    quotas = championship.quotas or {}
    return list(quotas.get("rows", []))


def heat_rows(championship: Championship) -> list[dict[str, Any]]:
    """Each finished heat's qualified pairs and reserves, with their path links."""
    rows = []
    # One reverse() for the page's 2,539 links (each one is 0.1 ms of URL resolving).
    head, tail = reverse("championships:pair", args=[championship.pk, 1]).rsplit("/1/", 1)

    def link(enrolment: Enrolment) -> str:
        return f"{head}/{enrolment.pk}/{tail}"

    for sede_id, heat in services.qualified(championship).items():
        rows.append({
            "sede": heat.sede, "sede_id": sede_id,
            "qualified": [(e, link(e)) for e in heat.qualified],
            "reserves": [(e, link(e)) for e in heat.reserves],
        })
    return rows


def pair_url(enrolment: Enrolment) -> str:
    return reverse("championships:pair", args=[enrolment.championship_id, enrolment.pk])


def bracket_view(phase: Phase) -> dict[str, Any] | None:
    """A knockout phase's bracket for people: each round's ties (pairs, games won, the
    games' links), the third place and the champion. Only reads: the result's write made
    the games the bracket waits for (championships.results)."""
    state = knockout.bracket(phase)
    if state is None:
        return None
    names = {pk: e.name for pk, e in state.enrolments.items()}
    urls = {g.competition_id: league_pages.competition_url(g.competition)
            for g in phase.groups.select_related("competition__club")}
    total = len(state.rounds)

    def tie_view(tie: knockout.Tie) -> dict[str, Any]:
        return {"first": names.get(tie.first or 0, ""), "second": names.get(tie.second or 0, ""),
                "wins": tie.wins, "bye": tie.bye, "winner": names.get(tie.winner or 0, ""),
                "games": [urls[g.competition_id] for g in tie.games if g.competition_id in urls]}

    rounds = [{"name": knockout.round_name(total, n + 1), "ties": [tie_view(t) for t in ties]}
              for n, ties in enumerate(state.rounds)]
    if state.third is not None:
        rounds.append({"name": knockout.round_name(total, total, third=True),
                       "ties": [tie_view(state.third)]})
    return {"rounds": rounds, "champion": names.get(state.champion or 0, ""),
            "best_of": phase.best_of}


def phase_views(championship: Championship) -> list[dict[str, Any]]:
    """Each phase: its groups with their standings and links, or its bracket."""
    views = []
    phases = list(championship.phases.prefetch_related("groups__competition__club"))
    # Every group's standings at once: the page's queries do not grow with the groups.
    tables_of = competitions.standings_of([g.competition for p in phases if not p.knockout
                                           for g in p.groups.all()])
    for phase in phases:
        if phase.knockout:
            views.append({"phase": phase, "groups": [], "bracket": bracket_view(phase),
                          "tv_url": reverse("championships:tv",
                                            args=[championship.pk, phase.pk])})
            continue
        groups = []
        for group in phase.groups.all():
            competition = group.competition
            tables = tables_of.get(competition.pk, [])
            groups.append({
                "number": group.order + 1, "url": league_pages.competition_url(competition),
                "rows": tables[0].rows if tables else [], "advance": phase.advance,
                "finished": competition.status == Competition.Status.FINISHED,
            })
        views.append({"phase": phase, "groups": groups,
                      "tv_url": reverse("championships:tv", args=[championship.pk, phase.pk])})
    return views


def championship_context(championship: Championship) -> dict[str, Any]:
    champion = services.champion(championship)
    return {
        "championship": championship,
        "open": services.entries_open(championship),
        "sedes": sede_rows(championship),
        "quotas": quota_rows(championship),
        "quota_sums": championship.quotas or {},
        "heats": heat_rows(championship),
        "phases": phase_views(championship),
        "champion": champion,
        "champion_url": pair_url(champion) if champion else "",
    }


def pair_path(enrolment: Enrolment) -> list[dict[str, Any]]:
    """A pair's way through the championship: its heat, then each phase's group."""
    steps: list[dict[str, Any]] = []
    sede = enrolment.sede
    if sede.heat is not None and enrolment.heat_pair_id is not None:
        order = services.heat_order(sede.heat) if sede.heat.status == "finished" else []
        index = sede.heat.entries.filter(pair_id=enrolment.heat_pair_id).values_list(
            "index", flat=True).first()
        steps.append({"title": sede.name, "url": league_pages.competition_url(sede.heat),
                      "place": order.index(index) + 1 if index in order else None,
                      "status": league_pages.status(sede.heat)})
    if enrolment.phase_pair_id is not None:
        for competition in Competition.objects.filter(
                entries__pair_id=enrolment.phase_pair_id,
                phase_group__isnull=False).select_related("club").order_by("id"):
            order = services.heat_order(competition) if competition.status == "finished" else []
            index = competition.entries.filter(pair_id=enrolment.phase_pair_id).values_list(
                "index", flat=True).first()
            steps.append({"title": competition.name,
                          "url": league_pages.competition_url(competition),
                          "place": order.index(index) + 1 if index in order else None,
                          "status": league_pages.status(competition)})
    return steps


def tv_groups(phase: Phase, now: datetime | None = None) -> list[dict[str, Any]]:
    """The hall's screen: each group's current round, its matches and the round clock
    (started when the organiser starts it; a table past the time limit is flagged)."""
    now = now or timezone.now()
    limit = timedelta(minutes=phase.championship.round_minutes)
    out = []
    groups = list(phase.groups.select_related("competition"))
    ids = [g.competition_id for g in groups]
    # Each group's current round (its first unplayed match's) and that round's matches,
    # two queries for the whole hall, and every group's standings at once.
    current: dict[int, Match] = {}
    for match in (Match.objects.filter(competition_id__in=ids, source="")
                  .select_related("round").order_by("competition_id", "number")):
        current.setdefault(match.competition_id, match)
    shown: dict[int, list[Match]] = {}
    for match in (Match.objects.filter(round_id__in=[m.round_id for m in current.values()])
                  .select_related("first__pair", "second__pair").order_by("number")):
        shown.setdefault(match.competition_id, []).append(match)
    tables_of = competitions.standings_of([g.competition for g in groups
                                           if not phase.knockout or g.competition_id in current])
    for group in groups:
        competition = group.competition
        now_playing = current.get(competition.pk)
        if phase.knockout and now_playing is None:
            continue  # a decided game: the bracket above shows it
        matches, deadline = [], None
        if now_playing is not None:
            starts = now_playing.round.starts_at
            deadline = starts + limit if starts else None
            for match in shown.get(competition.pk, []):
                matches.append({
                    "first": league_pages.pair_name(match.first),
                    "second": league_pages.pair_name(match.second),
                    "result": league_pages.result_text(match) if match.source else "",
                    "late": bool(deadline and not match.source and now > deadline),
                    "table": match.table_number,
                })
        tables = tables_of.get(competition.pk, [])
        out.append({"number": group.order + 1,
                    "round": now_playing.round.number if now_playing else None,
                    "title": competition.name if phase.knockout else "",
                    "deadline": deadline, "matches": matches,
                    "rows": tables[0].rows if tables else []})
    return out


def player_enrolments(championship: Championship, name: str) -> list[Enrolment]:
    """The pairs a person (by name, folded) entered, withdrawn ones included."""
    key = services.fold(name)
    if not key:
        return []
    return list(championship.enrolments.filter(Q(key_a=key) | Q(key_b=key))
                .select_related("sede"))

