"""The benchmark scripts still name what the code has.

The benchmarks are run by hand on a quiet machine, not in the suite, so a module that
moves (as `muscore.leagues.services` did when the leagues package was split) breaks
them silently until someone needs a figure. This reads every `from muscore... import`
in `benchmarks/*.py` and checks that each name exists.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def muscore_imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) for each import of muscore in the script; name None for `import x`."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("muscore"):
            found += [(node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names
                      if alias.name.startswith("muscore")]
    return found


def missing(module: str, name: str | None) -> str | None:
    try:
        imported = importlib.import_module(module)
    except ImportError as error:
        return f"{module}: {error}"
    if name is None or hasattr(imported, name):
        return None
    try:
        importlib.import_module(f"{module}.{name}")
    except ImportError:
        return f"{module} has no {name}"
    return None


@pytest.mark.parametrize("script", sorted(BENCHMARKS.glob("*.py")), ids=lambda p: p.name)
def test_every_muscore_name_a_benchmark_imports_exists(script: Path) -> None:
    problems = [problem for module, name in muscore_imports(script)
                if (problem := missing(module, name)) is not None]
    assert problems == []


def test_the_check_sees_a_name_that_is_gone(tmp_path: Path) -> None:
    script = tmp_path / "bench_old.py"
    script.write_text("def f():\n    from muscore.leagues import services\n", encoding="utf-8")
    problems = [missing(module, name) for module, name in muscore_imports(script)]
    assert problems == ["muscore.leagues has no services"]
