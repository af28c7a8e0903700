"""Make the upgrade tests' fixtures with an EARLIER commit's code (docs/operations.md, "Upgrading"):

    git worktree add /tmp/old COMMIT           # or: git archive COMMIT | tar -x -C /tmp/old
    cp tests/upgrade/make_fixture.py /tmp/old/
    cd /tmp/old && SQLITE_FILE=/tmp/old.sqlite3 PYTHONPATH=. \\
        /path/to/.venv/bin/python make_fixture.py OUT_DIR COMMIT

It migrates a new SQLite database with that commit's migrations, fills it through that
commit's own code with every kind of row (a club's league with its tables and hands, its
ratings and hand stats, a championship with its heats and phases, a large import the worker
has not written yet, the backlogs), then writes OUT_DIR/db.sqlite3 (the file; the PostgreSQL
test copies its rows into a database at the same migrations) and OUT_DIR/meta.json (the
commit, the migrations applied, the rows of each model). Only the public API of that
commit's code is used, so the script runs on commits from before it existed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.recorder import MigrationRecorder  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402


def main(out: Path, commit: str) -> None:
    call_command("migrate", "--no-input", verbosity=0)
    call_command("build_large_club", pairs=8, legs=1, hands_share=0.3, templates=4, seed=3,
                 stdout=StringIO())
    call_command("build_large_championship", pairs=40, venues=4, seats=8, seed=5,
                 stdout=StringIO())
    from muscore.clubs.models import Club, Membership
    from muscore.leagues import documents, imports
    from muscore.leagues.models import Competition, DocumentBacklog, RatingBacklog

    league = Competition.objects.filter(club__pairs__isnull=False).order_by("pk").first()
    assert league is not None
    organiser = get_user_model().objects.create_user("organiser-upgrade")
    other = Club.objects.create(name="Peña de la importación", slug="pena-importacion")
    Membership.objects.create(club=other, user=organiser)
    document = documents.league_document(league, hands=True)
    # Larger than a request writes: left "importing" for the worker, which never ran.
    with override_settings(MUSCORE_IMPORT_IN_REQUEST_MAX=1):
        pending = imports.import_competition(other, document, by=organiser,
                                             name="Liga importada", rated=False)
    assert imports.of(pending.pk) is not None, "the import was written in the request"
    claims_and_corrections(league)
    cups(league)
    knockout = knockout_championship()
    RatingBacklog.objects.get_or_create(
        club_id=league.club_id, defaults={"since_at": timezone.now() - timedelta(days=1),
                                          "since_match": league.matches.order_by("pk")[0].pk})
    DocumentBacklog.add([league.pk])
    connection.close()

    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(settings.DATABASES["default"]["NAME"], out / "db.sqlite3")
    applied: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        applied[app] = max(applied.get(app, ""), name)
    rows = {model._meta.label: model._default_manager.count() for model in apps.get_models()
            if model._meta.app_label not in ("contenttypes", "sessions", "admin")
            and model._meta.label != "auth.Permission"}
    (out / "meta.json").write_text(json.dumps(
        {"commit": commit, "migrations": applied, "rows": rows, "results": results(),
         "slots": slots(), "knockout": knockout},
        indent=1, sort_keys=True))


def claims_and_corrections(league: Any) -> None:
    """Results of every kind the audit and the pairs' links keep, through that commit's own
    doors: a liguilla of the league's club whose matches are a claim confirmed by the other
    pair, a claim pending, and a result corrected by the organiser with its reason (then
    a no-show over it); and a correction of one of the league's own results."""
    from muscore.leagues import competitions, confirmations
    from muscore.leagues import results as doors
    from muscore.leagues.models import Match

    boss = get_user_model().objects.get(username="bench-organiser")
    pairs = list(league.club.pairs.order_by("pk")[:3])
    cup = competitions.create_competition(league.club, by=boss, name="Liguilla del acta",
                                          pairs=pairs, draw=[0, 1, 2])
    first, second, third = cup.matches.order_by("number")
    confirmations.claim(first, side=0, juegos=[3, 1], tantos=[120, 60])
    confirmations.confirm(Match.objects.get(pk=first.pk), side=1)
    confirmations.claim(second, side=1, juegos=[2, 3])
    doors.record_result(third, by=boss, juegos=[3, 2])
    doors.record_result(Match.objects.get(pk=third.pk), by=boss, juegos=[2, 3],
                        reason="el acta decía otra cosa")
    doors.record_no_show(Match.objects.get(pk=third.pk), by=boss, who=0,
                         reason="no vinieron")
    played = league.matches.exclude(source="").order_by("number").first()
    doors.record_result(played, by=boss, juegos=[0, 3] if played.winner == 0 else [3, 0],
                        reason="corregido al revisar")


def cups(league: Any) -> None:
    """Two cups of the league's club, their knockouts part played: with two groups (the
    groups played, one semifinal played, so the final has one pair and the third place
    one), and with four (the groups and the quarterfinals played, a no-show among them,
    one semifinal played)."""
    from muscore.leagues import competitions
    from muscore.leagues import results as doors
    from muscore.leagues.models import Competition, Match

    boss = get_user_model().objects.get(username="bench-organiser")
    pairs = list(league.club.pairs.order_by("pk")[:8])
    for groups, knockout in ((2, ["sf1"]), (4, ["qf1", "qf2", "qf3", "qf4", "sf2"])):
        cup = competitions.create_competition(
            league.club, by=boss, name=f"Copa de {groups} grupos", pairs=pairs,
            format=Competition.Format.GROUPS, groups=groups, draw=list(range(len(pairs))))
        for match in cup.matches.filter(slot="").order_by("number"):
            doors.record_result(match, by=boss, juegos=[3, 1] if match.number % 2 else [2, 3])
        for slot in knockout:
            match = Match.objects.get(competition=cup, slot=slot)
            if slot == "qf2":
                doors.record_no_show(match, by=boss, who=1)
            else:
                doors.record_result(match, by=boss, juegos=[3, 2])


def knockout_championship() -> dict[str, Any]:
    """A championship whose last phase is a knockout (best of 3, with the third place),
    part played through that commit's own doors: a first-round tie won 2-0 with a game on
    a table (its hand kept), one at one all with its third game, a game by the pairs' link
    (a claim confirmed), a game corrected by the organiser with its reason, a no-show in a
    semifinal; the other semifinal waiting. What the upgrade must keep: its bracket as
    that commit read it (each tie's pairs, games won, games' matches, winner; the
    champion) and its API document (tests/upgrade/check.py reads both again)."""
    from django.test import Client

    from muscore.championships import knockout, services
    from muscore.clubs.services import create_club
    from muscore.leagues import competitions, confirmations
    from muscore.leagues import results as doors
    from muscore.leagues.models import Match
    from muscore.tables import services as tables

    user = get_user_model().objects.create_user
    boss = user("federacion-upgrade")
    championship = services.create_championship(
        create_club("Federación del cuadro", organiser=boss), by=boss,
        name="Txapelketa del cuadro", seats=6, rules={"juegos": 1})
    region = services.add_region(championship, by=boss, name="Gipuzkoa")
    barmen = []
    for number, (name, pairs) in enumerate([("Bar Txoko", 5), ("Herriko Taberna", 3),
                                            ("Gure Etxea", 4)]):
        barman = user(f"barra-upgrade-{number}")
        sede = services.add_sede(championship, by=boss, name=name,
                                 club=create_club(f"{name} (cuadro)", organiser=barman),
                                 region=region if number % 2 == 0 else None)
        for i in range(pairs):
            services.enter_pair(sede, name=f"{name} {i + 1}",
                                players=[f"{name} {i + 1}a", f"{name} {i + 1}b"],
                                contact=f"6100000{number}{i}", by=barman)
        barmen.append(barman)
    services.close_entries(championship, by=boss)
    for sede, barman in zip(championship.sedes.order_by("id"), barmen, strict=True):
        heat = services.start_heat(sede, by=barman, draw=list(range(
            sede.enrolments.filter(status="entered").count())))
        while match := (heat.matches.filter(source="").select_related("first", "second")
                        .order_by("number").first()):
            first = match.first.index < match.second.index
            doors.record_result(match, by=barman, juegos=[1, 0] if first else [0, 1])
    phase = services.draw_phase(
        services.add_phase(championship, by=boss, name="Cuadro final", knockout=True,
                           best_of=3, third_place=True), by=boss, seed="upgrade")

    def game(tie: Any, number: int) -> Any:
        state = knockout.bracket(phase)
        groups = state.rounds[tie[0] - 1][tie[1]].games
        return Match.objects.get(competition_id=groups[number - 1].competition_id)

    ties = [(1, t.order) for t in knockout.bracket(phase).rounds[0] if not t.bye]
    # The first tie 2-0: game 1 on its table, game 2 by the pairs' link (its second pair,
    # sitting first in game 2, claims; the other confirms).
    table = competitions.open_table(game(ties[0], 1), by=boss)
    tables.add_hand(table, {"hands": {"0": "R R R 5", "1": "1 1 4 4", "2": "6 6 7 7",
                                      "3": "5 5 6 4"},
                            "lances": {"grande": {"bets": [{"side": "A", "n": "ordago"}],
                                                  "end": "quiero"}}}, via="edit_link")
    match = game(ties[0], 2)
    confirmations.claim(match, side=1, juegos=[0, 1])
    confirmations.confirm(Match.objects.get(pk=match.pk), side=0)
    # The second tie at one all, then its third game, corrected by the organiser.
    doors.record_result(game(ties[1], 1), by=boss, juegos=[1, 0])
    doors.record_result(game(ties[1], 2), by=boss, juegos=[1, 0])
    doors.record_result(game(ties[1], 3), by=boss, juegos=[0, 1])
    doors.record_result(game(ties[1], 3), by=boss, juegos=[1, 0], reason="acta firmada")
    # A semifinal: its first game a no-show, its second played.
    semi = next(t for t in knockout.bracket(phase).rounds[1] if t.games)
    doors.record_no_show(game((2, semi.order), 1), by=boss, who=1)
    doors.record_result(game((2, semi.order), 2), by=boss, juegos=[0, 1])
    return {"phase": phase.pk, "bracket": bracket_of(phase),
            "games": phase.groups.count(), "phases": 1,
            "api": Client().get(f"/api/v1/championships/{championship.pk}",
                                HTTP_ACCEPT_LANGUAGE="es").json()}


def bracket_of(phase: Any) -> dict[str, Any]:
    """A knockout phase's bracket as that commit read it: each tie's pairs (enrolment ids),
    games won, winner and its games' match ids; the third place and the champion."""
    from muscore.championships import knockout
    from muscore.leagues.models import Match

    state = knockout.bracket(phase)

    def tie(t: Any) -> list[Any]:
        return [t.first, t.second, t.bye, list(t.wins), t.winner,
                [Match.objects.get(competition_id=g.competition_id).pk for g in t.games]]

    return {"rounds": [[tie(t) for t in ties] for ties in state.rounds],
            "third": tie(state.third) if state.third else None, "champion": state.champion}


def slots() -> dict[str, str]:
    """Every knockout match by its slot ("qf1".."final", "third"), for the upgrade test to
    find again as its tie's place (tests/upgrade/check.py)."""
    from muscore.leagues.models import Match

    return {str(pk): slot for pk, slot in Match.objects.exclude(slot="").values_list(
        "pk", "slot")}


def _figures(source: Any, juegos: Any, tantos: Any, no_show: Any) -> Any:
    """A result as the upgrade test compares it, whatever the code that stored it."""
    if not source:
        return None
    return [source, list(juegos), list(tantos) if tantos and tantos[0] is not None else None,
            list(no_show)]


def results() -> dict[str, Any]:
    """Every match's, claim's and audit entry's result, as this commit stored them, for
    the upgrade test to find again through today's code (tests/upgrade/check.py)."""
    from muscore.leagues.models import Correction, Match, ResultClaim

    matches = {str(pk): [_figures(s, (jf, js), (tf, ts), (nf, ns)), winner]
               for pk, s, jf, js, tf, ts, nf, ns, winner in Match.objects.values_list(
                   "pk", "source", "juegos_first", "juegos_second", "tantos_first",
                   "tantos_second", "no_show_first", "no_show_second", "winner")}
    claims = {str(pk): [match_id, status, _figures("manual", (jf, js), (tf, ts),
                                                   (False, False))]
              for pk, match_id, status, jf, js, tf, ts in ResultClaim.objects.values_list(
                  "pk", "match_id", "status", "juegos_first", "juegos_second",
                  "tantos_first", "tantos_second")}
    corrections = {
        str(c.pk): [c.match_id, c.action, c.reason,
                    *[_figures(f.get("source"), f.get("juegos"), f.get("tantos"),
                               f.get("no_show")) for f in (c.before, c.after)],
                    (c.before.get("players") or [None, None],
                     c.after.get("players") or [None, None])]
        for c in Correction.objects.all()}
    return {"matches": matches, "claims": claims, "corrections": corrections}


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
