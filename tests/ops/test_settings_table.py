"""One table of every setting (issue 39): every environment variable muscore's code reads
(muscore/settings.py, and the modules that read one themselves: the workers' limit, the
metrics' token, gunicorn's configuration, the version) has its row in docs/operations.md's
"Every setting", and the table names nothing the code no longer reads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# settings.py's readers: envbool("X", ...) and the rest.
HELPERS = {"envbool", "envint", "envfloat", "envlist", "envrates"}


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def variable(node: ast.AST) -> str | None:
    """The variable `node` reads: os.environ.get("X") / ["X"], os.getenv("X"), the settings'
    helpers (envbool("X", ...)), and dj_database_url.config()'s DATABASE_URL."""
    if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(
            node.slice, ast.Constant):
        return str(node.slice.value)
    if not isinstance(node, ast.Call):
        return None
    function = node.func
    if isinstance(function, ast.Attribute) and function.attr == "config" and isinstance(
            function.value, ast.Name) and function.value.id == "dj_database_url":
        return "DATABASE_URL"
    first = node.args[0] if node.args else None
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    reads = (isinstance(function, ast.Attribute) and (
        function.attr == "getenv" or (function.attr in ("get", "pop")
                                      and _is_environ(function.value)))) or (
        isinstance(function, ast.Name) and function.id in HELPERS)
    return first.value if reads else None


def read_by_the_code() -> dict[str, set[str]]:
    """Each variable read, with the files that read it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "muscore").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            name = variable(node)
            if name:
                found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def in_the_table() -> set[str]:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("\n## Every setting\n", 1)[1]
    section = re.split(r"\n## ", section, maxsplit=1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, re.M))


def test_every_variable_the_code_reads_is_in_the_table() -> None:
    read = read_by_the_code()
    table = in_the_table()
    assert len(read) > 50  # the walk finds them (it found 56 when written)
    missing = {name: sorted(files) for name, files in read.items() if name not in table}
    assert not missing, f"read by the code, not in docs/operations.md's Every setting: {missing}"
    stale = table - set(read)
    assert not stale, f"in the table, read by no code: {sorted(stale)}"
