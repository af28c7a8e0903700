"""Probe: how long each expensive request holds a worker, and the longest lock it holds.

    .venv/bin/python benchmarks/probe_requests.py --db /tmp/muscore-bench-leagues.sqlite3
    .venv/bin/python benchmarks/probe_requests.py --db ... --root /path/to/an/older/checkout

Needs the large club of `manage.py build_large_club` (benchmarks/bench_leagues.py builds
it): works on a copy of --db, so every run starts from the same data. --root runs another
checkout's code (an older commit: today's figures beside the new ones) on the same data.
Through Django's whole stack (the test client, the organiser logged in) it asks, for the
200-pair league: its export (cold: every cache cleared; then warm), a round's card and
the latest night's card (cold, warm), the organiser's correction of the club's earliest
rated match (its winner flipped: every later match re-rated), and an undo at the
earliest table-played match's table, then the account storms of issue 21 (`storms`:
8 invitations, invitation links, passwords set, logins and new clubs with their account,
8 each, 4 at a time as gunicorn's 4 workers take them). Meanwhile a watcher thread
takes the database's write lock (SQLite: BEGIN IMMEDIATE) every 5 ms and records the
longest it had to wait: the longest lock any request held. Where the code has a rating
worker, it then times the catch-up, with the same watcher. Prints a table; asserts
nothing. Target: every request under 2 s, no lock over 200 ms (a line past either says so:
PAST 2000 ms, LOCK PAST 200 ms).

Where the code makes the export and the night card outside the request (the document
worker, muscore.leagues.prepared), the reads before it has run and after it, and the
worker itself (no request), are timed too; likewise the league's matches.csv (issue 28)
and the club's page.

--championship-db (a database of `manage.py build_large_championship`; benchmarks/
bench_championship.py builds /tmp/muscore-bench-championship.sqlite3) probes the large
championship instead, on a copy: a new phase of every qualified pair (448, 112 groups)
and its draw through the organiser's page, then the championship's page, a province
final's page and its hall screen read cold, then polled as 200 visitors do (If-None-Match:
the 304 of its kept body), each with the longest lock meanwhile (the watcher takes the
phase's row and the championship's on PostgreSQL, in the draw's order).

On PostgreSQL (--database-url postgres://..., a database where `build_large_club` ran:
benchmarks/probe_postgres.py makes a throwaway cluster for it) the watcher takes the
competition's row FOR UPDATE and then the club's FOR NO KEY UPDATE instead (what a
result's write takes, in its order), and
the run changes that database (no copy is made).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


class Watcher:
    """Takes the write lock every 5 ms; `longest` is the longest wait for it (seconds).
    SQLite: the database's one write lock (BEGIN IMMEDIATE). PostgreSQL: the rows a
    result's write locks, in its order (`rows`: (table, id, mode)): the competition's
    FOR UPDATE (lock_match's select_related("competition") locks the joined row too),
    then the club's FOR NO KEY UPDATE (rating_store). Taken the other way round they
    deadlocked with every correction (PostgreSQL's 1 s deadlock_timeout read as a lock,
    and the watcher died); an error is counted in `failed` and printed, it never ends the watcher.

    It runs in a process of its own (`root`'s Django, the same DATABASE_URL): as a thread
    of the probe it waited for the GIL whenever a request or a worker ran Python or C
    code that holds it (a 33 MB json, four requests of a storm), and that read as a lock."""

    def __init__(self, root: Path, rows: list[tuple[str, int, str]]) -> None:
        context = multiprocessing.get_context("spawn")
        self._longest = context.Value("d", 0.0)
        self._failed = context.Value("i", 0)
        self._over = context.Value("i", 0)  # waits past the 200 ms limit since reset()
        self.stop = context.Event()
        self._ready = context.Event()
        self._process = context.Process(
            target=_watch, args=(str(root), rows, self._longest, self._failed, self.stop,
                                 self._ready, self._over), daemon=True)

    def start(self) -> None:
        self._process.start()
        self._ready.wait(120)

    def join(self) -> None:
        self._process.join(30)

    def reset(self) -> None:
        self._longest.value = 0.0
        self._over.value = 0

    @property
    def over(self) -> int:
        """How many of its waits since reset() were past 200 ms."""
        return int(self._over.value)

    @property
    def longest(self) -> float:
        return float(self._longest.value)

    @property
    def failed(self) -> int:
        return int(self._failed.value)


def _watch(root: str, rows: list[tuple[str, int, str]], longest: Any, failed: Any,
           stop: Any, ready: Any, over: Any) -> None:
    """The watcher's process: Django set up from `root`, then the loop."""
    sys.path.insert(0, root)
    os.chdir(root)
    import django

    django.setup()
    from django.db import DatabaseError, connection, transaction

    sqlite = connection.vendor == "sqlite"
    if sqlite:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout = 60000")
    ready.set()
    while not stop.is_set():
        started = time.perf_counter()
        try:
            with transaction.atomic():  # SQLite: BEGIN IMMEDIATE, waits for any writer
                if not sqlite:
                    with connection.cursor() as cursor:
                        for table, pk, mode in rows:
                            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s {mode}",
                                           [pk])
        except DatabaseError as error:
            failed.value += 1
            print(f"  (watcher: {type(error).__name__}: {str(error).splitlines()[0]})",
                  flush=True)
        waited = time.perf_counter() - started
        longest.value = max(longest.value, waited)
        if waited > 0.2:
            over.value += 1
        time.sleep(0.005)
    connection.close()


# The limits, printed beside each figure past them.
REQUEST_LIMIT, LOCK_LIMIT, POLL_LIMIT = 2.0, 0.2, 0.3


def past(took: float | None, lock: float, limit: float = REQUEST_LIMIT) -> str:
    """What of a line is past its limit: the request's time (None: a worker's run, no
    limit) and the longest lock."""
    marks = []
    if took is not None and took > limit:
        marks.append(f"PAST {limit * 1000:.0f} ms")
    if lock > LOCK_LIMIT:
        marks.append(f"LOCK PAST {LOCK_LIMIT * 1000:.0f} ms")
    return f"  {', '.join(marks)}" if marks else ""


STORM = 8  # requests at once in each storm (the 8 creators)
WORKERS = 4  # gunicorn's workers in the README's layout
PASSWORD = "Tormenta-de-claves-2026"


def storms(club: Any, organiser: Any, only: str, watcher: Watcher) -> None:
    """The account requests of issue 21's storms, STORM each: invitations of new accounts,
    their links asked again, their passwords set through the links, their logins, and
    clubs made with a new account. Each storm goes through WORKERS processes (forked from
    this one, as gunicorn's workers are), a request's time taken from its worker starting
    it. Prints the slowest request of each storm (and the median) and the longest lock
    meanwhile. The password hash is slow by design (Django's PBKDF2): WORKERS of them at
    once share the machine's cores, which is why the rate limits bound how many one
    address or account sends. (Threads, tried first, shared one GIL: a transaction waited
    for it behind the other requests' Python, which read as locks.)"""
    from django.db import connections

    from muscore.clubs import services
    from muscore.clubs.models import Membership

    run = f"{time.time_ns() % 10**9}"
    names = [f"tormenta{run}-{i}" for i in range(STORM)]

    organisers = f"/club/{club.slug}/organizadores"
    pools: list[Any] = []

    def storm(label: str, requests: list[tuple[int | None, str, dict[str, str]]]) -> None:
        if only not in label:
            return
        if not pools:
            connections.close_all()  # the workers open their own
            # The workers, started once and warmed (each has read the storms' pages, as a
            # gunicorn worker has long before a storm): fresh ones paid Django's first
            # request in the storm.
            pools.append(multiprocessing.get_context("fork").Pool(
                WORKERS, initializer=_warm,
                initargs=(organiser.pk, [organisers], ["/cuentas/entrar", "/clubs/nuevo"])))
        pool = pools[0]
        time.sleep(0.05)
        watcher.reset()
        answers = pool.map(_post, requests, chunksize=1)
        time.sleep(0.05)
        times = sorted(took for took, _s in answers)
        statuses = ",".join(str(code) for code in sorted({code for _t, code in answers}))
        print(f"{label:44} {times[-1] * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms  "
              f"{statuses}  (median {times[len(times) // 2] * 1000:.0f} ms)"
              f"{past(times[-1], watcher.longest)}", flush=True)

    storm(f"{STORM} invitations of new accounts, 4 workers", [
        (organiser.pk, organisers, {"username": name}) for name in names])
    invited = list(Membership.objects.filter(club=club, user__username__in=names))
    storm(f"{STORM} invitation links asked again, 4 workers", [
        (organiser.pk, f"{organisers}/{m.pk}/clave", {}) for m in invited])
    storm(f"{STORM} passwords set through links, 4 workers", [
        (None, services.invitation_link(m),
         {"new_password1": PASSWORD, "new_password2": PASSWORD}) for m in invited])
    # One alone first: what a request costs itself; with WORKERS at once on the machine's
    # cores each also waits for the others' password hashes (CPU, not a lock).
    storm("1 login alone (right password)", [
        (None, "/cuentas/entrar", {"username": names[0], "password": PASSWORD})])
    storm(f"{STORM} logins (right password), 4 workers", [
        (None, "/cuentas/entrar", {"username": name, "password": PASSWORD})
        for name in names])
    storm(f"{STORM} clubs with a new account, 4 workers", [
        (None, "/clubs/nuevo", {"name": f"Club {name}", "account-username": f"c{name}",
                                "account-password1": PASSWORD,
                                "account-password2": PASSWORD}) for name in names])
    for pool in pools:
        pool.close()
        pool.join()


def _warm(user_pk: int, organisers: list[str], visitors: list[str]) -> None:
    """A storm worker's start: the organiser's pages read once as the organiser, the
    visitors' pages once logged in and once not."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(pk=user_pk))
    for url in organisers + visitors:
        client.get(url)
    for url in visitors:
        Client().get(url)


def _post(request: tuple[int | None, str, dict[str, str]]) -> tuple[float, int]:
    """One storm request in a worker process: (its time, its status). `request` is the
    user to log in first (None: a visitor), the URL and the form."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user_pk, url, data = request
    client = Client()
    if user_pk is not None:
        client.force_login(get_user_model().objects.get(pk=user_pk))
    started = time.perf_counter()
    status = client.post(url, data).status_code
    return time.perf_counter() - started, status


def _time_transactions() -> list[float]:
    """Each outermost transaction's time from now on, in this process (the lock it held:
    SQLite's write lock from BEGIN IMMEDIATE, PostgreSQL's rows until COMMIT)."""
    from django.db import connection, transaction

    held: list[float] = []
    began: list[float] = []
    enter, leave = transaction.Atomic.__enter__, transaction.Atomic.__exit__

    def timed_enter(self: Any) -> None:
        outermost = not connection.in_atomic_block
        enter(self)
        if outermost:
            began.append(time.perf_counter())

    def timed_exit(self: Any, *exc: Any) -> Any:
        result = leave(self, *exc)
        if not connection.in_atomic_block and began:
            held.append(time.perf_counter() - began.pop())
        return result

    transaction.Atomic.__enter__ = timed_enter  # type: ignore[method-assign]
    transaction.Atomic.__exit__ = timed_exit  # type: ignore[method-assign]
    return held


def championship_probe(root: Path, only: str) -> None:
    """The large championship's draw and pages (--championship-db), with the watcher."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.test import Client

    from muscore.championships.models import Championship, Phase
    from muscore.championships.services import phase_field

    championship = Championship.objects.order_by("-pk").first()
    assert championship is not None, "no championship: run manage.py build_large_championship"
    membership = championship.club.memberships.select_related("user").first()
    assert membership is not None
    organiser = Client()
    organiser.force_login(get_user_model().objects.get(pk=membership.user_id))
    base = f"/campeonatos/{championship.pk}"
    name = f"Sondeo {time.time_ns() % 10**6}"
    organiser.post(f"{base}/fases/", {"name": name, "level": 1, "advance": 2, "region": "",
                                     "best_of": 1})
    phase = Phase.objects.get(championship=championship, name=name)
    pairs = len(phase_field(phase))
    from django.db import connection

    print(f"{connection.vendor}, load average {os.getloadavg()[0]:.1f}", flush=True)
    # In the draw's order: the phase's row (its first lock), then the championship's (its
    # stamp, last). The other way round the watcher deadlocked with every draw on
    # PostgreSQL (its 1 s deadlock_timeout read as the draw's lock).
    watcher = Watcher(root, [(Phase._meta.db_table, phase.pk, "FOR UPDATE"),
                             (Championship._meta.db_table, championship.pk, "FOR UPDATE")])
    watcher.start()
    time.sleep(1)  # its loop running
    held = _time_transactions()
    try:
        def probe(label: str, client: Any, url: str, data: dict[str, str] | None = None,
                  headers: dict[str, str] | None = None) -> Any:
            if only not in label:
                return None
            time.sleep(0.05)
            watcher.reset()
            held.clear()
            started = time.perf_counter()
            response = (client.post(url, data) if data is not None
                        else client.get(url, headers=headers or {}))
            took = time.perf_counter() - started
            time.sleep(0.05)
            print(f"{label:44} {took * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms  "
                  f"{response.status_code}  (its longest transaction "
                  f"{max(held, default=0) * 1000:.0f} ms){past(took, watcher.longest)}",
                  flush=True)
            return response

        probe(f"draw of a phase of {pairs} pairs", organiser,
              f"{base}/fases/{phase.pk}/sorteo/", {"seed": "sondeo"})
        print(f"  ({phase.groups.count()} groups drawn)", flush=True)
        final = max(championship.phases.exclude(draw=None), key=lambda p: p.groups.count())
        for label, url in (("championship page", f"{base}/"),
                           (f"phase page ({final.groups.count()} groups)",
                            f"{base}/fases/{final.pk}/"),
                           ("phase hall screen", f"{base}/fases/{final.pk}/tv/")):
            cache.clear()
            first = probe(f"{label}, cold", Client(), url)
            etag = first["ETag"] if first is not None and first.has_header("ETag") else ""
            if only in f"{label}, polled" and etag:
                # 200 visitors polling every 2 s: each poll a conditional GET of the kept body.
                times = []
                watcher.reset()
                for _ in range(200):
                    started = time.perf_counter()
                    Client().get(url, headers={"If-None-Match": etag})
                    times.append(time.perf_counter() - started)
                times.sort()
                print(f"{label + ', 200 polls (304)':44} {times[189] * 1000:9.0f} ms  lock "
                      f"{watcher.longest * 1000:7.0f} ms  (p95; median "
                      f"{times[100] * 1000:.1f} ms)"
                      f"{past(times[189], watcher.longest, POLL_LIMIT)}", flush=True)
    finally:
        watcher.stop.set()
        watcher.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/muscore-bench-leagues.sqlite3"))
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose code runs")
    parser.add_argument("--only", default="", help="only the requests whose label has this")
    parser.add_argument("--database-url", default="",
                        help="probe this database (PostgreSQL) itself instead of a copy of --db")
    parser.add_argument("--championship-db", type=Path, default=None,
                        help="probe the large championship of this database (a copy) instead")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="muscore-probe-")
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        copy = Path(folder) / "probe.sqlite3"
        shutil.copy(args.championship_db or args.db, copy)
        os.environ["DATABASE_URL"] = f"sqlite:///{copy}"
    os.environ["MUSCORE_RATELIMIT"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
    sys.path.insert(0, str(args.root.resolve()))
    os.chdir(args.root)
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from muscore.leagues import rating_store
    from muscore.leagues.models import Competition, Match, RatingMatch, from_q

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", "--no-input", verbosity=0)
    if args.championship_db is not None or "championship" in args.only:
        championship_probe(args.root.resolve(), args.only.replace("championship", ""))
        shutil.rmtree(folder, ignore_errors=True)
        return
    league = max(Competition.objects.all(), key=lambda c: c.matches.count())
    club = league.club
    organiser = club.memberships.first().user  # type: ignore[union-attr]
    client = Client()
    client.force_login(organiser)
    base = f"/club/{club.slug}/liga/{league.pk}"
    first = RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id").first()
    assert first is not None
    early = Match.objects.get(pk=first.match_id)
    played = Match.objects.filter(
        pk__in=RatingMatch.objects.filter(club=club).order_by("arrived_at", "match_id")
        .values("match_id")[:2000]).filter(from_q("table")).select_related("table").first()
    from django.db import connection

    print(f"{connection.vendor}, load average {os.getloadavg()[0]:.1f}", flush=True)
    watcher = Watcher(args.root.resolve(), [
        (league._meta.db_table, league.pk, "FOR UPDATE"),
        (club._meta.db_table, club.pk, "FOR NO KEY UPDATE")])
    watcher.start()
    rows: list[tuple[str, float, float, int]] = []
    try:
        from muscore.leagues import prepared
    except ImportError:  # older code: everything is made in the request
        prepared = None  # type: ignore[assignment]

    def worker(label: str, run: Any, only: str) -> None:
        """The worker in a process of its own, as it runs beside gunicorn (`manage.py
        rating_worker --once --only ...`; its time includes Django's start, about a
        second): in the probe's process its C calls (a 33 MB json) held the GIL and kept
        the watcher from the database, which read as a lock. Older code without that
        command is run here as before."""
        if args.only not in label:
            return
        watcher.reset()
        started = time.perf_counter()
        command = args.root / "muscore/leagues/management/commands/rating_worker.py"
        if command.exists() and '"--only"' in command.read_text():
            subprocess.run([sys.executable, "manage.py", "rating_worker", "--once", "--only",
                            only], cwd=args.root, env=os.environ, check=True)
        else:
            run()
        took = time.perf_counter() - started
        print(f"{label:44} {took * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms  "
              f"({watcher.over} waits past 200 ms){past(None, watcher.longest)}", flush=True)

    def probe(label: str, method: str, url: str, data: dict[str, Any] | None = None,
              cold: bool = True) -> None:
        if args.only not in label:
            return
        if cold:
            cache.clear()
        time.sleep(0.05)
        watcher.reset()
        started = time.perf_counter()
        response = client.post(url, data or {}) if method == "POST" else client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        took = time.perf_counter() - started
        time.sleep(0.05)
        rows.append((label, took, watcher.longest, response.status_code))
        print(f"{label:44} {took * 1000:9.0f} ms  lock {watcher.longest * 1000:7.0f} ms  "
              f"{response.status_code}{past(took, watcher.longest)}", flush=True)

    export = f"/api/v1/leagues/{league.pk}/export"
    night = f"{base}/noche/ultima/tarjeta.png"
    if prepared is not None:
        probe("export, never made yet", "GET", export)
        probe("night card png (ultima), never made yet", "GET", night)
        worker("document worker: export and cards", prepared.catch_up, "documents")
        probe("export, made by the worker (streamed)", "GET", export)
    else:
        probe("export, cold", "GET", export)
        probe("export, warm", "GET", export, cold=False)
        # The benchmark's tables are bulk-made without their stored vacas: the first read
        # of each replays and stores them (as a table loaded by hand). Cold again, as
        # after a new result in a club whose tables were played on muscore:
        probe("export, cold again (vacas stored)", "GET", export)
    matches_csv = f"/api/v1/leagues/{league.pk}/matches.csv"
    probe("matches.csv (made by the worker or here)", "GET", matches_csv)
    probe("matches.csv again", "GET", matches_csv, cold=False)
    probe("club page, cold", "GET", f"/club/{club.slug}/")
    probe("club page, warm", "GET", f"/club/{club.slug}/", cold=False)
    probe("round card png, cold", "GET", f"{base}/jornada/1/tarjeta.png")
    probe("round card png, warm", "GET", f"{base}/jornada/1/tarjeta.png", cold=False)
    probe("night card png (ultima), cold", "GET", night)
    probe("night card png (ultima), warm", "GET", night, cold=False)
    # Its result as a value (the match's juegos and tantos columns went to ResultRow).
    result = early.outcome
    assert result is not None
    tantos = result.tantos or ("", "")
    flipped = {"juegos_first": result.juegos[1], "juegos_second": result.juegos[0],
               "tantos_first": tantos[1], "tantos_second": tantos[0],
               "reason": "probe_requests"}
    probe(f"correction of the earliest match ({early.pk})", "POST",
          f"{base}/partida/{early.number}/resultado", flipped)
    if played is not None and played.table is not None:
        probe(f"undo at an early match's table ({played.pk})", "POST",
              f"/t/{played.table.id}/k/{played.table.edit_key}/deshacer")
    if "200" in args.only or not args.only:
        # A new liguilla of the club's 200 pairs through the organiser's form, then its
        # draw (19,900 matches made in the request).
        from muscore.clubs.models import Pair
        from muscore.leagues.forms import CompetitionForm

        blank = CompetitionForm(club=club)
        form = {name: blank[name].value() for name in blank.fields}
        form = {k: v for k, v in form.items() if v is not None}
        form.update(name="Sondeo de 200", format="liguilla", legs=1, pairs=[
            str(pk) for pk in Pair.objects.filter(club=club).values_list("pk", flat=True)[:200]])
        probe("new competition of 200 pairs", "POST", f"/club/{club.slug}/ligas/nueva", form)
        new = Competition.objects.filter(club=club, name="Sondeo de 200").first()
        if new is not None:
            probe(f"draw of that liguilla ({len(form['pairs'])} pairs)", "POST",
                  f"/club/{club.slug}/liga/{new.pk}/sorteo", {"order": ""})
    if "import" in args.only:  # asked for by name only: it adds a 39,800-match league
        from django.core.files.uploadedfile import SimpleUploadedFile

        from muscore.leagues import documents

        text = json.dumps(documents.league_document(league), ensure_ascii=False).encode()
        from muscore.leagues import prepared as kept

        if hasattr(kept, "FINGERPRINT"):
            # The fingerprint the document worker keeps of the club's league (the copy check
            # compares with it), made first as the worker would after the league's last change.
            kept.store(league.pk, kept.FINGERPRINT, league.revision, [
                documents.document_fingerprint(documents.league_document(
                    league, hands=True)).encode()])
        probe(f"import of the league, no hands ({len(text) / 2**20:.1f} MB)", "POST",
              f"/club/{club.slug}/ligas/importar", {
                  "file": SimpleUploadedFile("liga.json", text), "format": "liguilla",
                  "name": "Importada", "rated": "0"})
        # Where the worker writes a large import (muscore.leagues.imports), that too.
        if (args.root / "muscore/leagues/imports.py").exists():
            from muscore.leagues import imports

            worker("import written by the worker (no request)",
                   lambda: imports.catch_up(None), "imports")
    if prepared is not None:
        probe("export after the correction (the previous)", "GET", export)
        probe("night card after the correction (previous)", "GET", night)
    storms(club, organiser, args.only, watcher)
    catch_up = getattr(rating_store, "catch_up", None)
    if catch_up is not None:
        worker("rating worker catching up (no request)", catch_up, "ratings")
    if prepared is not None:
        worker("document worker after the correction", prepared.catch_up, "documents")
        probe("export after the document worker", "GET", export)
        probe("night card after the document worker", "GET", night)
    watcher.stop.set()
    watcher.join()
    if watcher.failed:
        print(f"the watcher's lock failed {watcher.failed} times (printed above)")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
