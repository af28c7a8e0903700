"""Run at HEAD on an upgraded database (tests/upgrade/test_upgrade.py runs it in its own
process, with that database's SQLITE_FILE or DATABASE_URL): every model's rows, and every
page of every club, competition, player, championship and table with its status, as JSON
on standard output."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.test import Client  # noqa: E402


def pages() -> list[str]:
    from muscore.championships.models import Championship
    from muscore.clubs.models import Club, Player
    from muscore.leagues.models import Competition
    from muscore.tables.models import Table

    urls = ["/", "/clubs/", "/api/", "/nivel/"]
    for club in Club.objects.order_by("pk"):
        base = f"/club/{club.slug}/"
        urls += [base, f"{base}niveles/", f"{base}lideres/", f"{base}tv/"]
        for player in Player.objects.filter(club=club).order_by("pk")[:3]:
            urls.append(f"{base}jugador/{player.pk}/")
    for competition in Competition.objects.select_related("club").order_by("pk"):
        base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
        urls += [base, f"{base}jornadas", f"/api/v1/leagues/{competition.pk}",
                 f"/api/v1/leagues/{competition.pk}/export",
                 f"/api/v1/leagues/{competition.pk}/standings.csv"]
    for championship in Championship.objects.order_by("pk"):
        urls += [f"/campeonatos/{championship.pk}/", f"/api/v1/championships/{championship.pk}"]
        urls += [f"/campeonatos/{championship.pk}/fases/{phase.pk}/"
                 for phase in championship.phases.order_by("pk")]
        urls += [f"/campeonatos/{championship.pk}/sedes/{sede.pk}/"
                 for sede in championship.sedes.order_by("pk")]
    for table in Table.objects.order_by("pk"):
        urls += [f"/t/{table.pk}/", f"/t/{table.pk}/historial", f"/api/v1/tables/{table.pk}"]
    return urls


def main() -> None:
    rows = {model._meta.label: model._default_manager.count() for model in apps.get_models()}
    client = Client()
    status = {url: client.get(url).status_code for url in pages()}
    from muscore.leagues import imports

    pending = [job.competition_id for job in
               imports.LeagueImport.objects.filter(finished_at__isnull=True)]
    json.dump({"rows": rows, "pages": status, "importing": pending, "results": results(),
               "slots": slots(), "knockout": knockouts(), "old_games": old_games(),
               "held": held(), "orders": orders()}, sys.stdout)


def orders() -> dict[str, Any]:
    """Each competition's kept final order, with the revision it was kept for."""
    from muscore.leagues.models import Competition

    return {str(pk): [order, revision] for pk, order, revision in Competition.objects.filter(
        final_order__isnull=False).values_list("pk", "final_order", "order_revision")}


def _figures(result: Any) -> Any:
    """A result as tests/upgrade/make_fixture.py wrote what the earlier commit stored."""
    if result is None:
        return None
    return [result.source, list(result.juegos), list(result.tantos) if result.tantos else None,
            list(result.no_show)]


def results() -> dict[str, Any]:
    """Every match's, claim's and audit entry's result, read through today's code."""
    from muscore.leagues.models import Correction, Match, ResultClaim

    matches = {str(m.pk): [_figures(m.outcome), m.outcome.winner if m.outcome else None]
               for m in Match.objects.with_outcome()}
    claims = {str(c.pk): [c.match_id, c.status, _figures(c.claimed)]
              for c in ResultClaim.objects.select_related("result")}
    corrections = {
        str(c.pk): [c.match_id, c.action, c.reason,
                    *[_figures(row.value() if row is not None else None)
                      for row in (c.before_result, c.after_result)],
                    (c.players_before, c.players_after)]
        for c in Correction.objects.select_related("before_result", "after_result")}
    return {"matches": matches, "claims": claims, "corrections": corrections}


def knockouts() -> dict[str, Any]:
    """Each drawn knockout phase's bracket read through today's code as
    tests/upgrade/make_fixture.py wrote the earlier code's (each tie's pairs, bye, games
    won, winner, games' match ids; the third place, the champion), and its championship's
    API document."""
    from muscore.championships import knockout
    from muscore.championships.models import Phase

    def tie(t: Any) -> list[Any]:
        return [t.first, t.second, t.bye, list(t.wins), t.winner, [g.pk for g in t.games]]

    out = {}
    for phase in Phase.objects.filter(knockout=True).select_related("championship"):
        state = knockout.bracket(phase)
        if state is None:
            continue
        api = Client().get(f"/api/v1/championships/{phase.championship_id}",
                           HTTP_ACCEPT_LANGUAGE="es").json()
        out[str(phase.pk)] = {
            "bracket": {"rounds": [[tie(t) for t in ties] for ties in state.rounds],
                        "third": tie(state.third) if state.third else None,
                        "champion": state.champion}, "api": api}
    return out


def old_games() -> dict[str, Any]:
    """Every competition id no competition has now, up to the highest one has, asked as
    an old knockout game's (a competition of its own before championships 0011): its API
    document's status, and where a 301 leads, the match whose page its own page leads to
    (through the knockout club's address)."""
    from django.urls import resolve

    from muscore.leagues.models import Competition, Match

    client = Client()
    live = set(Competition.objects.values_list("pk", flat=True))
    out: dict[str, Any] = {}
    for pk in sorted(set(range(1, max(live, default=0) + 1)) - live):
        api = client.get(f"/api/v1/leagues/{pk}")
        if api.status_code != 301:
            out[str(pk)] = api.status_code
            continue
        league = Competition.objects.select_related("club").get(
            pk=resolve(api["Location"]).kwargs["league_id"])
        page = client.get(f"/club/{league.club.slug}/liga/{pk}/")
        number = resolve(page["Location"]).kwargs["number"] if page.status_code == 301 else 0
        found = Match.objects.filter(competition=league, number=number).first()
        out[str(pk)] = found.pk if found is not None else page.status_code
    return out


def slots() -> dict[str, str]:
    """Every game of a cup's tie named as the earlier code named its match's slot (its
    tie's place in the bracket), and a second game of a tie (none before ties) by its
    number too; a championship's knockout is read by `knockouts`."""
    from muscore.leagues.models import Match
    from muscore.leagues.models.knockout import name, rounds_of

    return {str(m.pk): name(m.tie.round, m.tie.order, rounds_of(m.competition))
            + ("" if m.game == 1 else f" {m.game}")
            for m in Match.objects.exclude(tie=None).filter(competition__format="groups")
            .select_related("tie", "competition")}


def held() -> dict[str, Any]:
    """What holds each competition and pair and what depends on each played match, as the
    league and the clubs answer from their own rows after the upgrade (the stages and
    pairs the migrations wrote: championships 0014, 0015), beside the championships' own
    rows read as their registered answers read them before (muscore/championships/
    results.py's dependents, holders, siblings and pair_holders)."""
    from django.db.models import Q

    from muscore.championships.models import Championship, Phase, PhaseGroup, Sede
    from muscore.clubs import holders as pair_holders
    from muscore.clubs.models import Pair
    from muscore.leagues.models import Competition, Match
    from muscore.leagues.results import consequences

    def dependents(competition_id: int) -> list[str]:
        drawn = Phase.objects.exclude(drawn_at=None)
        sede = Sede.objects.filter(heat_id=competition_id).values_list(
            "championship_id", "region_id").first()
        if sede is not None:
            drawn = drawn.filter(championship_id=sede[0], level=1)
            region_id = sede[1]
        else:
            group = (PhaseGroup.objects.filter(competition_id=competition_id,
                                               phase__knockout=False)
                     .values_list("phase__championship_id", "phase__level",
                                  "phase__region_id").first())
            if group is None:
                return []
            drawn = drawn.filter(championship_id=group[0], level=group[1] + 1)
            region_id = group[2]
        if region_id is not None:
            drawn = drawn.filter(Q(region_id=None) | Q(region_id=region_id))
        return list(drawn.order_by("level", "id").values_list("name", flat=True))

    def holders(pk: int) -> list[str]:
        phase = PhaseGroup.objects.filter(competition_id=pk).values_list(
            "phase__championship__name", "phase__name").first()
        if phase is not None:
            return [" · ".join(phase)]
        return [f"{c} · {s}" for c, s in Sede.objects.filter(heat_id=pk).values_list(
            "championship__name", "name")]

    def siblings(pk: int) -> list[int]:
        phase = PhaseGroup.objects.filter(competition_id=pk).values_list(
            "phase_id", flat=True).first()
        return [] if phase is None else sorted(
            c for c in PhaseGroup.objects.filter(phase_id=phase).values_list(
                "competition_id", flat=True) if c != pk)

    before: dict[str, Any] = {"matches": {}, "competitions": {}, "pairs": {}}
    now: dict[str, Any] = {"matches": {}, "competitions": {}, "pairs": {}}
    for match in Match.objects.select_related("competition").order_by("pk"):
        if match.played and match.competition.format != "knockout":
            before["matches"][match.pk] = dependents(match.competition_id)
            now["matches"][match.pk] = consequences.drawn_from(match.competition_id)
    for competition in Competition.objects.order_by("pk"):
        before["competitions"][competition.pk] = [holders(competition.pk),
                                                  siblings(competition.pk)]
        now["competitions"][competition.pk] = [
            [str(h) for h in consequences.holders(competition)],
            sorted(consequences.siblings(competition))]
    for pair in Pair.objects.order_by("pk"):
        before["pairs"][pair.pk] = list(Championship.objects.filter(
            Q(enrolments__heat_pair=pair) | Q(enrolments__phase_pair=pair)).order_by("id")
            .values_list("name", flat=True).distinct())
        now["pairs"][pair.pk] = pair_holders.of_pair(pair)
    return {"before": before, "now": now}


if __name__ == "__main__":
    main()
