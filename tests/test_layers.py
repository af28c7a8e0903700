"""The import contracts of .importlinter fail when a module breaks them (./scripts/test runs
`lint-imports` on muscore itself, once): a copy of muscore gets one offending module and
lint-imports, run on the copy, must name the contract that it breaks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(cwd: Path, package_parent: Path) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH first: grimp finds the copy, not the muscore installed in the venv.
    # COLUMNS: one contract a line in the report (it wraps at 80 otherwise).
    env = {**os.environ, "PYTHONPATH": str(package_parent), "COLUMNS": "300"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / ".importlinter"), "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("where", "source", "contract"),
    [
        ("rules/_offender.py", "import django\n", "muscore.rules (the engine)"),
        # Inside a function counts too: the old app-level scan of test_project saw these,
        # but not the layers below.
        ("rules/_offender.py", "def f():\n    from muscore import text\n", "muscore.rules"),
        # The error base the engine may import stays as pure as the engine.
        ("errors.py", "import django\n", "muscore.errors (the coded error base)"),
        (
            "leagues/compute/_offender.py",
            "from django.db import models\n",
            "muscore.leagues.compute (the pure league computations)",
        ),
        (
            "leagues/compute/_offender.py",
            "from muscore.leagues import models\n",
            "muscore.leagues.compute",
        ),
        (
            "championships/compute/_offender.py",
            "from muscore.championships import models\n",
            "muscore.championships.compute (quotas, a phase's draw)",
        ),
        # tables sits below leagues: an import upward breaks the layers, and closes a cycle.
        (
            "tables/_offender.py",
            "def f():\n    from muscore.leagues import models\n",
            "muscore's apps import downward only",
        ),
        ("tables/_offender.py", "import muscore.leagues.models\n", "No import cycles"),
        # clubs and tables are one layer of independent apps.
        ("clubs/_offender.py", "from muscore.tables import models\n", "import downward only"),
    ],
)
def test_an_offending_module_breaks_its_contract(
    tmp_path: Path, where: str, source: str, contract: str
) -> None:
    copy = tmp_path / "muscore"
    shutil.copytree(ROOT / "muscore", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / where).write_text(source)
    result = lint_imports(tmp_path, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    # A contract with ignored imports ends "BROKEN (1 ignored import)".
    broken = [line for line in result.stdout.splitlines() if " BROKEN" in line]
    assert any(contract in line for line in broken), result.stdout
