"""A club's whole season through `backup` and `restore` (issue 21 point 6): a liguilla with
results played at a table and entered on paper, a claim waiting for its confirmation, the
ratings and the hand stats they make, a ceros tournament, a second organiser, restored
into an empty database; every page and export reached from the club page reads as before,
and an undo at the table still reaches its match."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test import Client
from django.utils import translation
from pytest_django import DjangoDbBlocker

from muscore.clubs import services as clubs
from muscore.clubs.models import Club
from muscore.leagues import ceros_rounds, competitions, confirmations, results
from muscore.leagues.models import (
    Match,
    PairHandStats,
    PlayerRating,
    RatingPoint,
    ResultClaim,
)
from muscore.tables import services as tables
from muscore.tables.models import Table
from tests.clubs.factory import PASSWORD, make_pair
from tests.leagues.factory import liguilla
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

VACA = [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]  # the first pair wins 3-1
# Links a crawl must not follow: they write, or leave the site's own pages.
SKIP = re.compile(r"/(deshacer|rehacer|salir|logout)\b|^/(static|admin|i18n)/")
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="'
                  rb'|(?i:csrf)[_-]?(?i:token)["\']?\s*[:=]\s*["\'])'
                  rb'[^"\']+|name="client_id" value="[^"]+')


def season() -> tuple[Club, Any, Table]:
    """A club's season: what a backup must hold whole."""
    competition, organiser = liguilla(4, legs=2)
    club = competition.club
    matches = list(competition.matches.order_by("number"))
    table = competitions.open_table(matches[0], by=organiser)
    for record in VACA:
        tables.add_hand(table, record, via="edit_link")
    results.record_result(matches[1], by=organiser, juegos=[3, 2], tantos=[130, 110])
    results.record_no_show(matches[2], by=organiser, who=1)
    confirmations.keys_for(matches[3:5])
    confirmations.claim(matches[3], side=0, juegos=[3, 1], tantos=[120, 80])
    # A second organiser, invited by the first.
    clubs.invite(club, "iñaki", by=organiser)
    # A ceros tournament of the same club, its first round played.
    pairs = [make_pair(club, f"C{i}a", f"C{i}b") for i in range(4)]
    ceros = competitions.create_competition(
        club, by=organiser, name="Torneo a ceros", pairs=pairs, format="ceros", ceros=2,
        draw=[0, 1, 2, 3])
    ceros_rounds.make_round(ceros, by=organiser)
    round_ = ceros_rounds.publish_round(ceros, by=organiser)
    for match in round_.matches.all():
        results.record_result(match, by=organiser, juegos=[3, 1])
    return club, organiser, table


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and ((tag == "a" and name == "href") or (tag == "img" and name == "src")):
                self.found.append(value)


def crawl(client: Client, start: list[str]) -> dict[str, tuple[int, bytes]]:
    """Every page and export reached by links from `start`, with its status and body."""
    seen: dict[str, tuple[int, bytes]] = {}
    todo = list(start)
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        response = client.get(url)
        body = response.content if not hasattr(response, "streaming_content") else b"".join(
            response.streaming_content)
        seen[url] = (response.status_code, CSRF.sub(rb"\1-", body))
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = Links()
        parser.feed(body.decode())
        for link in parser.found:
            parts = urlsplit(urljoin(url, link))
            if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
                continue
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if not SKIP.search(parts.path) and path not in seen:
                todo.append(path)
    return seen


def pages(club: Club, table: Table) -> dict[str, tuple[int, bytes]]:
    organiser = get_user_model().objects.get(username="maite")
    client = Client()
    client.force_login(organiser)
    start = [f"/club/{club.slug}/", f"/t/{table.id}/", f"/t/{table.id}/k/{table.edit_key}/"]
    start += [f"/api/v1/leagues/{c.pk}{end}" for c in club.competitions.all()
              for end in ("", "/export", "/standings.csv", "/matches.csv")]
    start += [f"/api/v1/tables/{table.id}", f"/api/v1/tables/{table.id}/export"]
    return crawl(client, start)


def first_difference(before: bytes, after: bytes) -> tuple[bytes, bytes]:
    at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
              min(len(before), len(after)))
    return before[max(0, at - 60):at + 60], after[max(0, at - 60):at + 60]


def wipe() -> None:
    """An empty database: what a club has after losing its server."""
    if connection.vendor == "postgresql":
        # The test's transaction holds deferred checks, and TRUNCATE refuses to run past them.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not Club.objects.exists() and not Table.objects.exists()
    assert not get_user_model().objects.exists()


Read = tuple[Club, Any, Table, dict[str, tuple[int, bytes]]]


@pytest.fixture(scope="module")
def season_read(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[Read]:
    """season() and every page and export it gives, once for the module's tests, each of
    which runs in a savepoint inside this transaction, rolled back after it (as Django's
    TestCase.setUpTestData): a test starts from the rows the pages were read from."""
    with django_db_blocker.unblock(), translation.override(settings.LANGUAGE_CODE), \
            transaction.atomic():
        club, organiser, table = season()
        yield club, organiser, table, pages(club, table)
        transaction.set_rollback(True)


@pytest.fixture
def a_season(season_read: Read) -> Read:
    """The module's season, its rows read again (a test's changes die with its savepoint,
    and so must the objects it changed)."""
    club, organiser, table, before = season_read
    return (Club.objects.get(pk=club.pk), get_user_model().objects.get(pk=organiser.pk),
            Table.objects.get(pk=table.pk), before)


def test_a_season_restored_into_an_empty_database_reads_as_before(a_season, tmp_path, capsys):
    club, _organiser, table, before = a_season
    assert len(before) > 40, sorted(before)
    # A ceros tournament has no league document (409) and its page redirects to its rounds.
    assert all(status in (200, 302, 409) for status, _ in before.values()), [
        (url, status) for url, (status, _) in before.items() if status != 200]
    assert any(url.endswith(".png") for url in before), "the cards are among the pages"
    counts = (PlayerRating.objects.count(), RatingPoint.objects.count(),
              PairHandStats.objects.count(), ResultClaim.objects.count())
    assert all(counts), counts
    backup = tmp_path / "season.json"
    call_command("backup", str(backup))
    assert "2 competitions" in capsys.readouterr().out

    wipe()
    call_command("restore", str(backup))
    assert (PlayerRating.objects.count(), RatingPoint.objects.count(),
            PairHandStats.objects.count(), ResultClaim.objects.count()) == counts
    club = Club.objects.get(pk=club.pk)
    after = pages(club, Table.objects.get(pk=table.pk))
    assert sorted(after) == sorted(before)
    changed = [url for url in before if after[url] != before[url]]
    assert not changed, {url: first_difference(before[url][1], after[url][1])
                         for url in changed}

    # A later undo at the table still reaches its match: the vaca is no longer won.
    match = Match.objects.get(table_id=table.pk)
    assert match.outcome.source == "table"
    tables.undo_last(Table.objects.get(pk=table.pk), via="edit_link")
    match.refresh_from_db()
    assert match.outcome is None and match.table_id == table.pk


def log_in(username: str, password: str = PASSWORD, url: str = "/cuentas/entrar") -> int:
    """The login page, as a person uses it: the status of the answer (302: in)."""
    return Client().post(url, {"username": username, "password": password}).status_code


def test_a_default_backup_restored_into_an_empty_database_is_logged_into(
        a_season, tmp_path, capsys):
    # Issue 40: `backup F` then `restore F` into an empty database, and nobody, the admin
    # included, could log in (the hashes were left out unless --with-passwords).
    get_user_model().objects.create_superuser("jefa", password=PASSWORD)
    backup = tmp_path / "default.json"
    call_command("backup", str(backup))
    assert "with their passwords" in capsys.readouterr().out
    assert oct(backup.stat().st_mode & 0o777) == "0o600"  # readable by its owner alone
    wipe()
    call_command("restore", str(backup))
    assert "password" not in capsys.readouterr().err
    assert log_in("maite") == 302
    assert log_in("jefa", url="/admin/login/") == 302


def test_a_backup_without_passwords_says_so_before_the_restore_and_gives_the_links(
        a_season, tmp_path, capsys):
    plain, full = tmp_path / "plain.json", tmp_path / "full.json"
    call_command("backup", str(plain), without_passwords=True)
    call_command("backup", str(full), with_passwords=True)  # the old flag: the default now
    assert '"password"' not in plain.read_text() and '"password"' in full.read_text()
    capsys.readouterr()

    wipe()
    # Said before it starts: a restore that then fails has said it all the same.
    data = json.loads(plain.read_text())
    next(i for i in data if i["model"] == "leagues.match")["fields"]["round"] = 999_999
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="cannot be restored whole"):
        call_command("restore", str(broken))
    said = capsys.readouterr().err
    assert "accounts carry no password" in said and "maite" in said
    assert "manage.py password_link USERNAME" in said

    call_command("restore", str(plain))
    assert "have no password yet" in capsys.readouterr().err
    maite = get_user_model().objects.get(username="maite")
    assert not maite.has_usable_password() and maite.club_memberships.exists()
    assert log_in("maite") == 400  # refused: no password yet
    call_command("password_link", "MAITE", site="http://testserver/")
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://testserver/cuentas/clave/")
    client = Client()
    new = "otra-clave-del-mus-2027"
    chosen = client.post(link.removeprefix("http://testserver"),
                         {"new_password1": new, "new_password2": new})
    assert chosen.status_code == 302
    assert log_in("maite", new) == 302
    with pytest.raises(CommandError, match="no account is called"):
        call_command("password_link", "nadie")

    wipe()
    call_command("restore", str(full))
    assert "password" not in capsys.readouterr().err
    assert get_user_model().objects.get(username="maite").check_password(PASSWORD)


def test_an_account_already_there_keeps_its_password(a_season, tmp_path):
    club, _organiser, _table, _before = a_season
    backup = tmp_path / "plain.json"
    call_command("backup", str(backup))
    call_command("restore", str(backup), replace=True)
    maite = get_user_model().objects.get(username="maite")
    assert maite.check_password(PASSWORD)
    assert list(maite.club_memberships.values_list("club", flat=True)) == [club.pk]


def test_replace_gives_the_season_back_with_its_links(a_season, tmp_path):
    club, organiser, table, before = a_season
    backup = tmp_path / "season.json"
    call_command("backup", str(backup))
    # Changes after the backup: a result, and a new club.
    match = club.competitions.get(format="liguilla").matches.get(number=6)
    results.record_result(match, by=organiser, juegos=[3, 0])
    make_pair(Club.objects.create(name="Otro", slug="otro"), "X", "Y")
    with pytest.raises(CommandError, match=r"already holds 1 tables, .*\b2 clubs"):
        call_command("restore", str(backup))

    call_command("restore", str(backup), replace=True)
    assert list(Club.objects.values_list("pk", flat=True)) == [club.pk]
    assert Match.objects.get(table_id=table.pk).outcome.source == "table"
    after = pages(Club.objects.get(pk=club.pk), Table.objects.get(pk=table.pk))
    # The same pages and exports, but for the revisions: one above the old ones (the edit
    # board's next hand says its revision in JSON, its quotes escaped: &quot;revision&quot;).
    revision = re.compile(rb'revision(?:&quot;)?\W{1,4}(?:value=\W)?\d+|etag="[^"]*"',
                          re.IGNORECASE)
    assert sorted(after) == sorted(before)
    changed = [url for url in before
               if revision.sub(b"", after[url][1]) != revision.sub(b"", before[url][1])]
    assert not changed, {url: first_difference(before[url][1], after[url][1])
                         for url in changed}


def test_a_backup_that_cannot_be_taken_whole_changes_nothing(a_season, tmp_path):
    club, _organiser, table, _before = a_season
    backup = tmp_path / "season.json"
    call_command("backup", str(backup))
    data = json.loads(backup.read_text())
    match = next(item for item in data if item["model"] == "leagues.match")
    match["fields"]["round"] = 999_999  # a round the backup does not hold
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    wipe()
    with pytest.raises(CommandError, match="cannot be restored whole"):
        call_command("restore", str(broken))
    assert not Club.objects.exists() and not Table.objects.exists()
    assert not get_user_model().objects.exists()

    # A kind of object a backup never holds is refused before anything is read.
    data = json.loads(backup.read_text()) + [{"model": "sessions.session", "pk": "x",
                                              "fields": {}}]
    broken.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="not a muscore backup"):
        call_command("restore", str(broken))
    call_command("restore", str(backup))
    assert Club.objects.filter(pk=club.pk).exists() and Table.objects.filter(pk=table.pk).exists()


def test_a_backup_of_the_tables_alone_keeps_the_leagues_linked(a_season, tmp_path):
    club, _organiser, table, _before = a_season
    backup = tmp_path / "tables.json"
    call_command("backup", str(backup))
    data = [item for item in json.loads(backup.read_text())
            if item["model"].startswith("tables.")]
    backup.write_text(json.dumps(data))
    call_command("restore", str(backup), replace=True)
    assert Club.objects.filter(pk=club.pk).exists()
    assert Match.objects.get(table_id=table.pk).outcome.source == "table"
