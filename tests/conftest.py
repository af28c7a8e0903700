"""Project-wide test setup: settings for tests, the browser marker, the screenshots folder."""

from __future__ import annotations

import fcntl
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management.base import CommandError
from django.db.utils import OperationalError
from django.test import TransactionTestCase, override_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Playwright's sync API runs an event loop in the test thread, and Django then refuses
# ORM calls from that thread unless told it is safe. That is true in tests only (one
# thread, no real async code), so it is set here and never in muscore/settings.py.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Hypothesis settings profiles (tests/examples.py): `ci`, the default, keeps every example
# each test names and no deadline (a loaded 2-core machine must not fail a test on time);
# `dev` (HYPOTHESIS_PROFILE=dev) tries a tenth of them while editing. Neither is derandomised:
# a failure prints the blob that replays it (@reproduce_failure).
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True)
hypothesis_settings.register_profile(
    "dev", parent=hypothesis_settings.get_profile("ci"), max_examples=10
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
STARTED = time.time()


# Django's own advice for test speed: a password hashed a million PBKDF2 rounds costs
# about half a second on this machine, and the club tests make and log in hundreds of
# accounts. Tests hash with MD5; production keeps Django's PBKDF2 (tests/test_settings.py).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _flush_retrying(flush: Callable[[Any], None]) -> Callable[[Any], None]:
    """`TransactionTestCase._fixture_teardown` (the flush after each live-server test) tried
    again when it collides with a request still in flight: a browser test ends while its
    page's last poll is being served, and on PostgreSQL the flush's TRUNCATE and that
    request's reads can deadlock (PostgreSQL then cancels one of them, here the flush:
    seen once in CI), on SQLite find the database locked. The request ends in
    milliseconds; the flush, tried again, then empties the database for the next test."""

    def teardown(case: Any) -> None:
        for attempt in range(FLUSH_ATTEMPTS):
            try:
                flush(case)
                return
            except (CommandError, OperationalError) as error:
                cause = f"{error} {error.__cause__ or ''}".lower()
                if attempt == FLUSH_ATTEMPTS - 1 or not (
                        "deadlock" in cause or "locked" in cause):
                    raise
                time.sleep(0.1 * (attempt + 1))

    return teardown


FLUSH_ATTEMPTS = 5
# (django-stubs do not declare the private method: set through setattr.)
setattr(TransactionTestCase, "_fixture_teardown",  # noqa: B010
        _flush_retrying(TransactionTestCase._fixture_teardown))  # type: ignore[attr-defined]


@pytest.fixture(autouse=True, scope="session")
def _no_rate_limits() -> Iterator[None]:
    """Tests send far more requests from 127.0.0.1 than any client may: the abuse limits
    are off except in the tests that check them (they turn them on with `settings`).
    Passwords are hashed the fast way (FAST_HASHERS)."""
    with override_settings(RATELIMIT_ENABLE=False, PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture(autouse=True)
def _default_language() -> None:
    """Each test starts in the site's default language: a request through the test client
    leaves its language active in the thread, and under pytest-xdist the next test in that
    worker is whichever the scheduler sends, not the next one in the file."""
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file through every migration, once per run: `migrate` costs a Django start
    and all the migrations (8.6 s of CPU here). Each pytest-xdist worker's test database
    starts as a copy of it (django_db_keepdb below), and the tests of real servers each take
    a copy (`tests.multiserver.servers.sqlite_copy`), instead of migrating one of their own.
    The first worker to ask makes it in the folder the workers share; the other waits for
    it (a lock on a file beside it)."""
    from tests.multiserver.servers import base_env, manage

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # popen-gw0, popen-gw1... are in one run's folder
    path = shared / "migrated" / "migrated.sqlite3"
    path.parent.mkdir(exist_ok=True)
    with (shared / "migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = path.with_name("done")
        if not done.exists():
            manage(base_env(DATABASE_URL=f"sqlite:///{path}"), "migrate", "--no-input", "-v0")
            done.touch()
    return path


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest, django_db_modify_db_settings: None,
                     tmp_path_factory: pytest.TempPathFactory) -> Iterator[bool]:
    """On SQLite, the test database starts as a copy of migrated_sqlite, which Django then
    keeps (its `migrate` finds every migration applied: the same tables, rows and
    django_migrations as it would have made), instead of each worker migrating one of its
    own; removed at the end, as Django removes the one it makes. On PostgreSQL, and with
    --reuse-db, pytest-django's own choice."""
    reuse: bool = request.config.getvalue("reuse_db")
    test_name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    sqlite = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    if reuse or not sqlite or not test_name or request.config.getvalue("create_db"):
        yield reuse
        return
    from tests.multiserver.servers import sqlite_copy

    target = Path(test_name)
    sqlite_copy(request.getfixturevalue("migrated_sqlite"), target)
    yield True
    for suffix in ("", "-wal", "-shm"):
        target.with_name(target.name + suffix).unlink(missing_ok=True)


@pytest.fixture(scope="session")
def screenshots_dir() -> Path:
    """Where browser tests save what a person should be able to look at afterwards."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def _module_fixture(item: pytest.Item) -> bool:
    """Whether item uses a fixture of module or class scope defined by the tests."""
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        for definition in definitions:
            if definition.scope in ("module", "class") and "site-packages" not in str(
                definition.baseid or definition.func.__code__.co_filename
            ):
                return True
    return False


# tryfirst: pytest-xdist reads the xdist_group marks in its own hook, which must see ours.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Everything under tests/browser drives a real Chromium, so `-m "not browser"`
    # gives the quick suite without marking each test by hand; likewise tests/multiserver,
    # which also belongs to .ci/run's PostgreSQL pass (`-m postgres`).
    # The multi-server tests share one session-scoped cluster (two gunicorn servers):
    # under pytest-xdist's --dist loadgroup (./scripts/test) they all go to one worker,
    # which starts the cluster once.
    browser_dir = Path(__file__).parent / "browser"
    multiserver_dir = Path(__file__).parent / "multiserver"
    for item in items:
        _name_in_id(item)
        if _module_fixture(item):
            # A module-scoped fixture (makemessages on a copy, a production server) is built
            # once per worker that runs a test of it: keep such a module's tests together.
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        if browser_dir in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(BROWSER_RERUN)
        if multiserver_dir in item.path.parents:
            item.add_marker(pytest.mark.multiserver)
            item.add_marker(pytest.mark.postgres)  # they need PostgreSQL and Redis
            item.add_marker(pytest.mark.xdist_group("multiserver"))


# trylast: after pytest-django's own hook, which sorts by database use and would otherwise
# deal the long tests that use no database (tests/upgrade, tests/ops, the modules that start
# processes) last.
@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_long_first(items: list[pytest.Item]) -> None:
    """The long tests first: xdist deals the tests out in this order (after the xdist
    groups, which it deals first, largest first), and each worker asks for more when it
    holds two or fewer, so long tests dealt last queue up behind one another on one worker
    while the other has nothing left: .ci/run's PostgreSQL pass ran tests/upgrade's three
    (12-14 s each) one after another on one worker, the other idle for 34 s.

    What pytest-django's order protects stays: the tests of the database come before the
    transactional ones (whose flush would empty what a test inside a transaction may expect
    the migrations to have written), each class long first; the long tests without a
    database, which touch neither, move to the front; the short ones without stay last. The
    order among the rest is the collection's."""
    items.sort(key=lambda item: (-1 if _database_use(item) == 2 and _long(item)
                                 else _database_use(item), not _long(item)))


def _database_use(item: pytest.Item) -> int:
    """pytest-django's order of an item: 0 the database inside a transaction, 1 transactional
    (a flush after the test), 2 no database; as pytest_django.plugin reckons it."""
    from django.test import TestCase
    from pytest_django.fixtures import validate_django_db

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return 0 if issubclass(cls, TestCase) else 1
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    if marker is not None:
        transaction, reset_sequences, *_ = validate_django_db(marker)
        if transaction or reset_sequences:
            return 1
    if fixtures & {"transactional_db", "live_server"}:
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


def _name_in_id(item: pytest.Item) -> None:
    """An item whose name carries parameters its node id lacks gets them in its id too:
    schemathesis names each operation's item `test[POST /api/v1/score]` but leaves the id
    the function's, which pytest 9.2 builds from its structured id (`item._id`), so the 18
    operations of tests/api/test_fuzz.py and test_openapi.py shared one id, and
    pytest-xdist, which deals tests out by id, ran the first operation only."""
    name = item.name
    if "[" in name and name.endswith("]") and not item.nodeid.endswith("]"):
        params = name[name.index("[") + 1:-1]
        item._id = type(item._id).parse(f"{item.nodeid}[{params}]")  # type: ignore[attr-defined]


#: A browser test gets one more run when, and only when, a Playwright action timed out
#: (Chromium drew no frame for 10 s on a busy machine, as CI once saw at load 8); a check
#: that failed (``expect``'s AssertionError, a wrong page) is never run again.
BROWSER_RERUN = pytest.mark.flaky(reruns=1, only_rerun=[PlaywrightTimeout])


#: What marks a test as long: a real browser, real servers or other processes.
LONG_FIXTURES = {"live_server", "migrated_sqlite", "page", "browser"}
LONG_FOLDERS = ("browser", "multiserver", "ops", "upgrade")


def _long(item: pytest.Item) -> bool:
    folder = item.path.relative_to(Path(__file__).parent).parts[0]
    if folder in LONG_FOLDERS or LONG_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    # A module that starts processes (a command line, manage.py, gunicorn, lint-imports).
    module = getattr(item, "module", None)
    return module is not None and "subprocess" in sys.modules and any(
        value is sys.modules["subprocess"] or getattr(value, "__module__", None) in (
            "subprocess", "tests.multiserver.servers")
        for value in vars(module).values())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """The xdist_group of each item, told to pytest-xdist's scheduler as it reads it: an
    "@group" suffix on the node ids a worker sends (xdist/remote.py). pytest-xdist 3.8 adds
    it through `item._nodeid`, which pytest 9.2 no longer reads (its node ids are structured,
    `item._id`; pytest-xdist issue 1386): `--dist loadgroup` then dealt every test alone,
    and a module's fixture (the production server of tests/browser/test_offline_production,
    10,000 accounts in tests/tables/test_backup_live) or the multi-server cluster was built
    on both workers. Runs before xdist's own hook sends the ids; does nothing where the
    suffix is already there (an xdist that sets it) or outside a loadgroup worker."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    for item in session.items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(groups)
        if groups and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)  # type: ignore[attr-defined]


# .ci/run's PostgreSQL run sets MUSCORE_REQUIRE_MULTISERVER=1 with a Redis and a PostgreSQL:
# then a run in which no multi-server test passed (all skipped, deselected or missing) fails.
MULTISERVER_REQUIRED = os.environ.get("MUSCORE_REQUIRE_MULTISERVER", "") == "1"
multiserver_passed: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed and "multiserver" in report.keywords:
        multiserver_passed.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Under pytest-xdist the workers' reports reach the controller's hook above: the
    # controller decides (a worker that got no multi-server test must not fail the run).
    if hasattr(session.config, "workerinput"):
        return
    if MULTISERVER_REQUIRED and not multiserver_passed and exitstatus == 0:
        session.exitstatus = 1
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                "MUSCORE_REQUIRE_MULTISERVER=1, but no multi-server test passed: failing the run",
                red=True,
            )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SCREENSHOTS.is_dir():
        # Only this run's: older files may be from tests that no longer exist.
        shots = [p for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= STARTED]
        if shots:
            terminalreporter.write_sep("-", "screenshots")
            terminalreporter.write_line(f"{len(shots)} screenshots saved in {SCREENSHOTS}")
