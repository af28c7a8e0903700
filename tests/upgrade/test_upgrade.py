"""Last month's database migrated to today's code (issue 31): a database made by an earlier
commit of main (tests/upgrade/fixtures/<commit>/, made once with that commit's code by
tests/upgrade/make_fixture.py) is migrated to HEAD, on SQLite (its file) and on PostgreSQL
(a database migrated to that commit's migrations, the file's rows copied in as they are),
and then every row is still there and every page of every club, competition, player,
championship and table answers.

Each run is its own process (the database is not the test run's): `manage.py migrate`,
then tests/upgrade/check.py, which counts and fetches.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import dj_database_url
import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURES = sorted((Path(__file__).parent / "fixtures").iterdir())
# Pages that may answer other than 200 on purpose: an importing competition is on no page
# (404) and its API answers 202; a league whose export the worker has not made yet 202.
NOT_200 = {202, 404}


def env(**extra: str) -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    base = {k: v for k, v in os.environ.items() if k in keep}
    base.update(DJANGO_SETTINGS_MODULE="muscore.settings", DEBUG="false",
                ALLOWED_HOSTS="testserver,127.0.0.1", MUSCORE_RATELIMIT="false",
                PYTHONPATH=str(ROOT))
    base.update(extra)
    return base


def run(environment: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, *args], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    return result.stdout


def migrate_to(environment: dict[str, str], migrations: dict[str, str]) -> None:
    """The schema as the fixture's commit left it: each app to its migration, in sorted
    order, as `manage.py migrate APP MIGRATION` takes it, but in one process for all of
    them (a process for each app cost a Django start and a read of the migration graph,
    nine times a test)."""
    run(environment, "manage.py", "shell", "--no-imports", "-c",
        "from django.core.management import call_command\n"
        f"for app, migration in {sorted(migrations.items())!r}:\n"
        "    call_command('migrate', app, migration, interactive=False)")


def copy_rows(source: Path, url: str) -> None:
    """Every row of the SQLite file into the PostgreSQL database of the same schema (both at
    the fixture's migrations), column by column as stored: no model of today's code is
    involved, since today's models have fields that schema does not have yet."""
    src = sqlite3.connect(source)
    tables = [name for (name,) in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name != 'django_migrations' ORDER BY name")]
    with psycopg.connect(url) as dst:
        dst.execute("SET timezone TO 'UTC'")
        # The foreign keys are checked by the rows' own consistency, not the load order.
        dst.execute("SET session_replication_role = replica")
        # What `migrate` made itself (content types, permissions) comes from the file.
        dst.execute("TRUNCATE django_content_type, auth_permission CASCADE")
        for table in tables:
            columns = [row[1] for row in src.execute(f'PRAGMA table_info("{table}")')]
            names = ", ".join(f'"{c}"' for c in columns)
            with dst.cursor().copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
                for row in src.execute(f'SELECT {names} FROM "{table}"'):
                    copy.write_row(row)
            sequence = dst.execute("SELECT pg_get_serial_sequence(%s, 'id')",
                                   [f'"{table}"']).fetchone() if "id" in columns else None
            if sequence and sequence[0]:
                dst.execute(f'SELECT setval(%s, max(id)) FROM "{table}" HAVING count(*) > 0',
                            [sequence[0]])
    src.close()


def upgraded(environment: dict[str, str]) -> dict[str, Any]:
    run(environment, "manage.py", "migrate", "--no-input")
    checked: dict[str, Any] = json.loads(run(environment, "-m", "tests.upgrade.check"))
    return checked


def assert_intact(fixture: Path, checked: dict[str, Any]) -> None:
    meta = json.loads((fixture / "meta.json").read_text())
    before = dict(meta["rows"])
    after = checked["rows"]
    if "knockout" in meta:  # each knockout game's competition is one competition per phase
        moved = meta["knockout"]["games"] - meta["knockout"]["phases"]
        for label in ("leagues.Competition", "championships.PhaseGroup"):
            before[label] -= moved
        for label in ("leagues.Entry", "leagues.Round", "leagues.DocumentBacklog"):
            before.pop(label)  # the games' own made into the phase's: checked by its bracket
    changed = {label: (n, after.get(label)) for label, n in before.items()
               if after.get(label) != n}
    assert not changed, f"rows lost or added by the upgrade from {meta['commit']}: {changed}"
    # Every kind of row the issue names is in the fixture, so "intact" says something.
    for label in ("tables.Hand", "clubs.Club", "leagues.Match", "leagues.PlayerRating",
                  "championships.Enrolment", "leagues.LeagueImport", "leagues.RatingBacklog"):
        assert before[label] > 0, label
    assert checked["importing"], "the pending import is no longer pending"
    broken = {url: code for url, code in checked["pages"].items()
              if code != 200 and not (code in NOT_200 and _may_wait(url, checked))}
    assert not broken, json.dumps(broken, indent=1)
    assert len(checked["pages"]) > 80
    if "results" in meta:  # every result, claim and correction, as the earlier code stored it
        assert_results(meta["results"], checked["results"])
    if "knockout" in meta:  # the championship's knockout: its bracket, champion and API
        knockout = meta["knockout"]
        assert knockout["bracket"]["rounds"][0], "the fixture has a knockout phase"
        found = checked["knockout"][str(knockout["phase"])]
        assert found["bracket"] == knockout["bracket"]
        assert found["api"] == knockout["api"]
    # Each old knockout game's competition (gone in championships 0011) leads to the match
    # it became, and no other old id leads anywhere.
    games = old_games(fixture)
    assert {pk: found for pk, found in checked["old_games"].items() if found != 404} == games
    assert "knockout" not in meta or games and 404 in checked["old_games"].values()
    # What depends on each result and what holds each competition and pair, the league's
    # and the clubs' rows as the championships answered before.
    held = checked["held"]
    assert held["now"] == held["before"]
    assert any(held["before"]["matches"].values()), "a phase drawn from a result"
    assert any(h for h, _siblings in held["before"]["competitions"].values())
    assert any(s for _h, s in held["before"]["competitions"].values())
    assert any(held["before"]["pairs"].values()), "a pair a championship placed"
    # Each venue's heat's final order, kept on the venue until championships 0016, is kept
    # on the heat itself (muscore.leagues.results.final), for the same revision.
    kept = heat_orders(fixture)
    assert kept, "the fixture's venues kept their heats' orders"
    assert checked["orders"] == kept
    if "slots" in meta:  # each cup's knockout match is the game of the tie at its place
        assert meta["slots"], "the fixture has cups with their knockouts"
        assert checked["slots"] == meta["slots"]


def old_games(fixture: Path) -> dict[str, int]:
    """Each knockout game's competition in the fixture's own rows (a competition a game
    then) and its match."""
    source = sqlite3.connect(fixture / "db.sqlite3")
    try:
        rows = source.execute(
            "SELECT g.competition_id, m.id FROM championships_phasegroup g JOIN "
            "championships_phase p ON p.id = g.phase_id JOIN leagues_match m ON "
            "m.competition_id = g.competition_id WHERE p.knockout").fetchall()
    finally:
        source.close()
    return {str(competition): match for competition, match in rows}


def heat_orders(fixture: Path) -> dict[str, list[Any]]:
    """Each heat's final order as the fixture's venues kept it, with its revision."""
    source = sqlite3.connect(fixture / "db.sqlite3")
    try:
        rows = source.execute(
            "SELECT heat_id, final_order, order_revision FROM championships_sede "
            "WHERE heat_id IS NOT NULL AND final_order IS NOT NULL").fetchall()
    finally:
        source.close()
    return {str(heat): [json.loads(order), revision] for heat, order, revision in rows}


def assert_results(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before["claims"] and before["corrections"], "the fixture has claims and corrections"
    for kind in ("matches", "claims", "corrections"):
        lost = {pk: (was, after[kind].get(pk)) for pk, was in before[kind].items()
                if after[kind].get(pk) != json.loads(json.dumps(was))}
        assert not lost, f"{kind} changed by the upgrade: {dict(list(lost.items())[:5])}"


def _may_wait(url: str, checked: dict[str, Any]) -> bool:
    return any(f"/{pk}" in url for pk in checked["importing"]) or "/export" in url


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_an_earlier_sqlite_database_migrates_with_every_row_and_page(
        fixture: Path, tmp_path: Path) -> None:
    database = tmp_path / "upgraded.sqlite3"
    shutil.copy(fixture / "db.sqlite3", database)
    checked = upgraded(env(SQLITE_FILE=str(database)))
    assert_intact(fixture, checked)


# Marked postgres, the PostgreSQL test alone: the SQLite one works on a file of its own
# whatever DATABASE_URL says, and .ci/run's PostgreSQL run would only repeat it.
@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith(("postgres://",
                                                                        "postgresql://")),
                    reason="needs DATABASE_URL=postgres://... (.ci/run's PostgreSQL run)")
@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_an_earlier_postgresql_database_migrates_with_every_row_and_page(
        fixture: Path) -> None:
    url = os.environ["DATABASE_URL"]
    config = dj_database_url.parse(url)
    name = f"muscore_upgrade_{os.getpid()}"
    admin = psycopg.connect(dbname="postgres", user=config.get("USER") or None,
                            password=config.get("PASSWORD") or None,
                            host=config.get("HOST") or None, port=config.get("PORT") or None,
                            autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        environment = env(DATABASE_URL=urllib.parse.urlsplit(url)._replace(
            path=f"/{name}").geturl())
        # The schema as that commit left it, then its rows, then today's migrations.
        meta = json.loads((fixture / "meta.json").read_text())
        migrate_to(environment, meta["migrations"])
        copy_rows(fixture / "db.sqlite3", environment["DATABASE_URL"])
        assert_intact(fixture, upgraded(environment))
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
