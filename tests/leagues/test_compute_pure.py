"""Every module of muscore.leagues.compute imports no Django (issue 17: the league's pure
computations in one package, each checked alone in a fresh interpreter, so a module that
only works because another test imported Django first is caught)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPUTE = ROOT / "muscore" / "leagues" / "compute"
MODULES = sorted(
    "muscore.leagues.compute" + ("" if p.stem == "__init__" else f".{p.stem}")
    for p in COMPUTE.glob("*.py")
)


def test_the_package_holds_the_pure_computations() -> None:
    names = {m.rsplit(".", 1)[-1] for m in MODULES}
    assert {"standings", "fixtures", "ratings", "ceros", "handstats", "document", "errors",
            "cli"} <= names


@pytest.mark.parametrize("module", MODULES)
def test_the_module_imports_no_django(module: str) -> None:
    code = (
        "import importlib, sys\n"
        "sys.modules['django'] = None  # any import of django fails here\n"
        f"importlib.import_module({module!r})\n"
        "assert not [k for k in sys.modules if k.startswith('django') and sys.modules[k]]\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
