"""The test harness's own behaviour (tests/conftest.py), and which tests run on both databases."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management.base import CommandError
from django.db.utils import OperationalError

from tests import conftest
from tests.conftest import _flush_retrying


def test_the_flush_after_a_live_server_test_is_tried_again_when_a_request_holds_a_lock() -> None:
    """A deadlock or a locked database (a request still in flight) makes the flush wait
    and try again; any other failure is not hidden."""
    calls: list[int] = []

    def deadlocked_once(case: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise CommandError("couldn't be flushed") from OperationalError("deadlock detected")

    _flush_retrying(deadlocked_once)(object())
    assert len(calls) == 2

    def broken(case: object) -> None:
        raise CommandError("couldn't be flushed") from OperationalError("no such table")

    with pytest.raises(CommandError):
        _flush_retrying(broken)(object())


# --- which tests run on both databases ------------------------------------------------------

TESTS = Path(__file__).resolve().parent
#: What a test of the database's own behaviour uses: a real transaction or a rollback, a
#: constraint, a lock, SQL of its own, the vendor, migrations, a backup and its restore,
#: a server on the configured database, a real Redis.
DATABASE_SIGNS = re.compile(
    r"transaction=True|transactional_db|transaction\.atomic|IntegrityError|on_commit"
    r"|select_for_update|connection\.(cursor|vendor)|\"migrate\"|MigrationExecutor"
    r"|call_command\(\"(backup|restore|loaddata|dumpdata)\"|MUSCORE_TEST_REDIS_URL|DATABASE_URL"
)
#: Modules that show such a sign and still run once, on SQLite: why once is enough.
ONCE = {
    "api/test_fuzz.py": "the API's answers against its OpenAPI document; a live server for "
                        "real HTTP, whatever database is under it",
    "api/test_openapi.py": "the OpenAPI document and the answers it describes, over HTTP",
    "api/test_tables_api.py": "the table API's answers; one game over real HTTP (ETags, "
                              "keys); its database behaviour is test_concurrency's and "
                              "test_golden_answers'",
    "championships/test_kept.py": "the pages kept until a change commits (on_commit, the "
                                  "same on both)",
    "leagues/test_every_door_properties.py": "every door's figures against a recount; its "
                                             "one atomic block groups a refill",
    "live/test_render.py": "a board drawn without the WSGI handler, as its poll draws it",
    "live/test_streams.py": "a uvicorn's streams, on a SQLite file of its own",
    "ops/test_head_gunicorn.py": "HEAD answered like GET through gunicorn",
    "ops/test_release.py": "the documented release steps, on a SQLite file of their own",
    "ops/test_settings_table.py": "the settings table against the code's reads (it names "
                                  "DATABASE_URL; no database)",
    "tables/test_live_servers.py": "gunicorn processes on a SQLite file of their own",
    "test_gunicorn_control_socket.py": "where gunicorn keeps its control socket",
    "test_log_format.py": "the log lines' two formats, from gunicorn, a worker and uvicorn",
    "test_logging.py": "the log lines of a real gunicorn",
    "test_logging_request_ids.py": "the request ids in the log lines",
    "test_settings.py": "the production settings' checks",
}


def once_or_on_both() -> tuple[list[str], list[str]]:
    """(modules showing a database sign, neither marked postgres nor in ONCE; ONCE's
    modules that no longer need to be there)."""
    forgotten, stale = [], []
    for path in sorted(TESTS.rglob("test_*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name.startswith(("browser/", "multiserver/")):
            continue  # browser: once, what a person sees; multiserver: always on both
        text = path.read_text(encoding="utf-8")
        marked = "pytest.mark.postgres" in text
        if DATABASE_SIGNS.search(text) and not marked and name not in ONCE:
            forgotten.append(name)
        if name in ONCE and (marked or not DATABASE_SIGNS.search(text)):
            stale.append(name)
    stale += [name for name in ONCE if not (TESTS / name).exists()]
    return forgotten, stale


def test_every_test_of_the_database_s_behaviour_runs_on_both_databases() -> None:
    """.ci/run runs the suite on SQLite, then only the tests marked `postgres` again on
    PostgreSQL and Redis (docs/layers.md, "Which tests run on both databases"): a module
    that uses a transaction, a lock, SQL of its own, migrations, a backup, a server on
    the configured database or a real Redis is marked, or says in ONCE why once is enough."""
    forgotten, stale = once_or_on_both()
    assert not forgotten, f"mark these pytest.mark.postgres, or say why not in ONCE: {forgotten}"
    assert not stale, f"no longer needed in ONCE: {stale}"


@pytest.mark.xdist_group("harness")
def test_a_grouped_test_s_id_carries_its_group_to_xdist_s_scheduler(
        request: pytest.FixtureRequest) -> None:
    """--dist loadgroup deals a group to one worker only if the ids that worker sends end
    with "@group" (tests/conftest.py, pytest_collection_finish): in a loadgroup worker, this
    test's own id says so; anywhere, the hook gives the suffix once, to grouped items only."""
    if getattr(request.config.option, "loadgroup", False):
        assert request.node.nodeid.endswith("::" + request.node.name + "@harness")
    # pytest reads an item's id from the structured id the hook sets.
    assert str(request.node._id) == request.node.nodeid
    node_id = type(request.node._id)

    class Item:
        def __init__(self, nodeid: str, *groups: str) -> None:
            self._id = node_id.parse(nodeid)
            self.marks = [pytest.mark.xdist_group(group).mark for group in groups]

        @property
        def nodeid(self) -> str:
            return str(self._id)

        def iter_markers(self, name: str) -> list[object]:
            return self.marks if name == "xdist_group" else []

    items = [Item("t.py::a[1]", "g"), Item("t.py::b"), Item("t.py::c@g", "g")]
    session = SimpleNamespace(config=SimpleNamespace(option=SimpleNamespace(loadgroup=True)),
                              items=items)
    conftest.pytest_collection_finish(session)  # type: ignore[arg-type]
    conftest.pytest_collection_finish(session)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == ["t.py::a[1]@g", "t.py::b", "t.py::c@g"]
    session.config.option.loadgroup = False
    items[1] = Item("t.py::d", "g")
    conftest.pytest_collection_finish(session)  # type: ignore[arg-type]
    assert items[1].nodeid == "t.py::d"


def test_no_two_tests_share_an_id(request: pytest.FixtureRequest) -> None:
    """pytest-xdist deals tests out by id: of the tests sharing one, it runs the first only
    (schemathesis' 18 operations of a test did, tests/conftest.py's _name_in_id). Among the
    tests collected with this one (the whole suite under ./scripts/test)."""
    ids = Counter(item.nodeid for item in request.session.items)
    assert not [nodeid for nodeid, count in ids.items() if count > 1]
    node_id = type(request.node._id)

    class Item:
        def __init__(self, nodeid: str, name: str) -> None:
            self._id, self.name = node_id.parse(nodeid), name

        @property
        def nodeid(self) -> str:
            return str(self._id)

    items = [Item("t.py::test", "test[POST /api/v1/score]"), Item("t.py::test[1]", "test[1]"),
             Item("t.py::test", "test")]
    for item in items:
        conftest._name_in_id(item)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [
        "t.py::test[POST /api/v1/score]", "t.py::test[1]", "t.py::test"]


def test_a_browser_test_runs_again_only_when_a_playwright_action_timed_out(
        tmp_path: Path) -> None:
    """tests/conftest.py's BROWSER_RERUN, in a pytest of its own: a Playwright timeout
    (Chromium starved of frames) gets one more run, which passes; a failed check never runs
    again, and a second timeout fails."""
    (tmp_path / "test_marked.py").write_text(
        "from pathlib import Path\n"
        "from playwright.sync_api import TimeoutError as PlaywrightTimeout\n"
        "from tests.conftest import BROWSER_RERUN\n"
        "def once(name):\n"
        "    seen = Path(__file__).with_name(name)\n"
        "    first = not seen.exists()\n"
        "    seen.write_text('x')\n"
        "    return first\n"
        "@BROWSER_RERUN\n"
        "def test_timed_out_once():\n"
        "    if once('a'): raise PlaywrightTimeout('Locator.click: Timeout 10000ms exceeded.')\n"
        "@BROWSER_RERUN\n"
        "def test_timed_out_twice():\n"
        "    raise PlaywrightTimeout('Locator.click: Timeout 10000ms exceeded.')\n"
        "@BROWSER_RERUN\n"
        "def test_wrong_page():\n"
        "    if once('b'): raise AssertionError('Locator expected to contain text')\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "pytest_rerunfailures", "-rA", "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent),
             "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    out = run.stdout
    assert re.search(r"PASSED .*test_timed_out_once", out), out
    assert re.search(r"FAILED .*test_timed_out_twice", out), out
    assert re.search(r"FAILED .*test_wrong_page", out), out
    assert "2 failed, 1 passed, 2 rerun" in out, out
