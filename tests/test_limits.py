"""The size limits of issue 20 hold on muscore, and each guard fails when code breaks it.

- No module of muscore over 800 lines, no function over 80 (from its `def` line to its
  last line, docstring included; migrations aside), but for the exceptions named below.
- Ruff, run with the project's own configuration (pyproject.toml), refuses a function
  more complex, with more branches or more statements than its limits, and a Django model
  that breaks the DJ rules: a temporary module built here shows it. docs/layers.md says
  the limits and how to run them.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).with_name("ruff")
MODULE_MAX = 800
FUNCTION_MAX = 80

#: "path" or "path:function" -> why it may be longer; each one named in docs/layers.md too.
#: None today.
EXCEPTIONS: dict[str, str] = {}


def oversized(root: Path, package: str = "muscore") -> list[str]:
    """Every module of ``package`` under ``root`` over MODULE_MAX lines and function over
    FUNCTION_MAX, as "path (N lines)" and "path:function (N lines)"."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        name = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        lines = len(source.splitlines())
        if lines > MODULE_MAX and name not in EXCEPTIONS:
            found.append(f"{name} ({lines} lines)")
        for node in ast.walk(ast.parse(source, filename=name)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_MAX and f"{name}:{node.name}" not in EXCEPTIONS:
                    found.append(f"{name}:{node.name} ({length} lines)")
    return found


def test_no_module_or_function_of_muscore_is_over_the_limits() -> None:
    found = oversized(ROOT)
    assert not found, (
        f"over {MODULE_MAX} lines a module or {FUNCTION_MAX} a function (split it, or name it "
        f"with why in EXCEPTIONS here and in docs/layers.md): {found}"
    )


def test_the_size_check_finds_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    package = tmp_path / "muscore"
    (package / "migrations").mkdir(parents=True)
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_MAX - 1))
    (package / "long_function.py").write_text(f"def long():\n{body}    return 0\n")
    (package / "short_function.py").write_text(f"def short():\n{body}")
    (package / "long_module.py").write_text("x = 1\n" * (MODULE_MAX + 1))
    (package / "migrations" / "0001_long.py").write_text("x = 1\n" * (MODULE_MAX + 1))
    assert oversized(tmp_path) == [
        f"muscore/long_function.py:long ({FUNCTION_MAX + 1} lines)",
        f"muscore/long_module.py ({MODULE_MAX + 1} lines)",
    ]


def ruff_limits() -> dict[str, int]:
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    return {
        "complexity": lint["mccabe"]["max-complexity"],
        "branches": lint["pylint"]["max-branches"],
        "statements": lint["pylint"]["max-statements"],
    }


def ruff_on(tmp_path: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    """`ruff check` of one module placed in a copy of the project's layout, with its
    pyproject.toml (so its select, limits and per-file ignores are the ones that apply)."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = tmp_path / "muscore" / name
    module.parent.mkdir(parents=True, exist_ok=True)
    module.write_text(source)
    return subprocess.run(
        [str(RUFF), "check", "--no-cache", "--output-format", "concise", str(module)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )


def branchy(ifs: int) -> str:
    """A function of ``ifs`` if-statements: that many branches, complexity one more."""
    cases = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(ifs))
    return f'"""Offender."""\n\n\ndef f(x: int) -> int:\n{cases}    return -1\n'


def long_body(statements: int) -> str:
    """A function of ``statements`` statements."""
    body = "".join(f"    print({i})\n" for i in range(statements))
    return f'"""Offender."""\n\n\ndef f() -> None:\n{body}'


def test_ruff_passes_a_module_at_the_limits(tmp_path: Path) -> None:
    limits = ruff_limits()
    at_most = min(limits["complexity"] - 1, limits["branches"])
    result = ruff_on(tmp_path, "at_limits.py", branchy(at_most))
    assert result.returncode == 0, result.stdout + result.stderr
    result = ruff_on(tmp_path, "at_limits.py", long_body(limits["statements"]))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("rule", ["C901", "PLR0912", "PLR0915", "DJ001"])
def test_ruff_with_the_project_config_fails_on_an_offender(tmp_path: Path, rule: str) -> None:
    limits = ruff_limits()
    source = {
        "C901": branchy(limits["complexity"]),  # complexity: one more than the limit
        "PLR0912": branchy(limits["branches"] + 1),
        "PLR0915": long_body(limits["statements"] + 1),
        "DJ001": '"""Offender."""\n\nfrom django.db import models\n\n\n'
                 "class Offender(models.Model):\n"
                 "    name = models.CharField(max_length=9, null=True)\n\n"
                 "    def __str__(self) -> str:\n        return str(self.name)\n",
    }[rule]
    result = ruff_on(tmp_path, "offender.py", source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f" {rule} " in result.stdout, result.stdout
