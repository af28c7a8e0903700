"""The two command lines on JSON nested 100,000 levels deep (issue 28 point 8): exit 2 with
one `{"error": ...}` line, never a RecursionError's traceback, whatever the command, the
document's shape, or whether it is nested so deep that Python's reader gives up or just
deep enough to be read and then walked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEEP = 100_000


def documents() -> list[str]:
    return ["[" * DEEP + "]" * DEEP,
            '{"a":' * DEEP + "1" + "}" * DEEP,
            '{"hands":' * DEEP + "{}" + "}" * DEEP,
            '{"pairs":' + "[" * DEEP + "]" * DEEP + "}",
            # Read whole by Python (under its limit), deep enough for a walk to give up.
            '{"matches": ' + "[" * 900 + "]" * 900 + ', "pairs": ' + "[" * 900 + "]" * 900 + "}"]


@pytest.mark.parametrize(("module", "command"), [
    ("muscore.leagues", "standings"), ("muscore.leagues", "fixtures"),
    ("muscore.leagues", "ratings"), ("muscore.leagues", "quotas"),
    ("muscore.rules", "score"), ("muscore.rules", "replay")])
def test_a_deep_document_is_an_error_line_and_exit_2(module: str, command: str) -> None:
    for text in documents():
        done = subprocess.run([sys.executable, "-m", module, command], input=text,
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert "Traceback" not in done.stderr, done.stderr[-500:]
        lines = done.stdout.splitlines()
        assert done.returncode == 2, (text[:30], done.returncode, lines)
        assert lines and all("error" in json.loads(line) for line in lines), lines
