"""The examples in the docstrings run as written: a newcomer copies them first."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "muscore").rglob("*.py")
    if "migrations" not in path.parts and ">>> " in path.read_text(encoding="utf-8")
)


def test_the_docstring_examples_are_found() -> None:
    # The public rules API documents itself with examples; if none were found, the
    # test below would pass on nothing.
    assert "muscore.rules" in MODULES and "muscore.rules.draft" in MODULES, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0
    assert results.failed == 0, f"{name}: {results.failed} of its examples fail (run doctest)"
