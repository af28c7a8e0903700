"""The release (issue 31, docs/operations.md "Releases"): the checkout at a commit, installed
from uv.lock; no wheel is built broken (a wheel would hold no templates, static files or
translations), and the documented production steps serve pages from the checkout."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tests.multiserver.servers import ROOT, Server, base_env, http, manage, running, sqlite_copy


def backend() -> object:
    spec = importlib.util.spec_from_file_location(
        "muscore_build", ROOT / "scripts" / "build_backend" / "muscore_build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pyproject_names_the_backend_that_builds_no_wheel() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'build-backend = "muscore_build"' in pyproject
    assert 'backend-path = ["scripts/build_backend"]' in pyproject


def test_a_wheel_is_refused_saying_why(tmp_path: Path) -> None:
    module = backend()
    with pytest.raises(RuntimeError, match=r"not released as a wheel.*docs/operations\.md"):
        module.build_wheel(str(tmp_path))  # type: ignore[attr-defined]
    assert not list(tmp_path.iterdir())


def test_the_editable_install_is_setuptools_own() -> None:
    pytest.importorskip("setuptools")
    from setuptools import build_meta

    module = backend()
    for hook in ("build_editable", "get_requires_for_build_editable",
                 "prepare_metadata_for_build_wheel", "build_sdist"):
        assert getattr(module, hook) is getattr(build_meta, hook)


def test_the_documented_release_serves_its_pages(tmp_path: Path, migrated_sqlite: Path) -> None:
    """docs/operations.md's production steps from the checkout: collectstatic (hashed),
    migrate, check --deploy's environment, gunicorn: the home page with its templates and
    hashed CSS, an admin page, /healthz's version."""
    # The database of the release before, as an upgrade finds it: the run's migrated file
    # (tests/conftest.py's migrated_sqlite, the same `manage.py migrate` on an empty file,
    # made once for the whole run) rather than all the migrations again here (7 s of CPU).
    database = tmp_path / "db.sqlite3"
    sqlite_copy(migrated_sqlite, database)
    env = base_env(STATIC_MANIFEST="true", STATIC_ROOT=str(tmp_path / "static"),
                   SQLITE_FILE=str(database), MUSCORE_VERSION="release-test")
    manage(env, "collectstatic", "--no-input")
    manage(env, "migrate", "--no-input")
    server = Server(env, tmp_path / "logs", workers=1)
    with running(server):
        status, _headers, page = http("GET", f"{server.url}/")
        assert status == 200, page[:500]
        css = re.search(r'/static/css/muscore\.[0-9a-f]{12}\.css', page.decode())
        assert css, "the home page has no hashed stylesheet"
        assert http("GET", f"{server.url}{css.group(0)}")[0] == 200
        assert http("GET", f"{server.url}/admin/login/")[0] == 200
        status, headers, _body = http("GET", f"{server.url}/api/v1/tables/nope")
        assert headers.get("X-Muscore-Version") == "release-test"
