"""The two command lines on what Python's JSON reader takes, or stops at, that is no document
(issue 40.10): a 5,000-digit number (past Python's 4,300 digits) and a lone surrogate in a
name (a JSON escape, or a byte that is no UTF-8 read under the C locale). Each is one
`{"error": ...}` line naming what is wrong, and exit 2, never a traceback and exit 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LONG = "1" + "0" * 4999  # 5,000 digits
COMMANDS = [("muscore.leagues", "standings"), ("muscore.leagues", "fixtures"),
            ("muscore.leagues", "ratings"), ("muscore.leagues", "quotas"),
            ("muscore.rules", "score"), ("muscore.rules", "replay")]


def documents() -> dict[str, tuple[str, str]]:
    """Each hostile document, with the words its error line must hold."""
    venues = '{{"seats": {seats}, "sedes": [{{"name": "{name}", "pairs": 3}}, ' \
             '{{"name": "B", "pairs": 2}}]}}'
    return {
        "long seats": (venues.format(seats=LONG, name="A"), "A number of 5,000 digits"),
        "long pairs": (f'{{"pairs": {LONG}, "legs": 1}}', "A number of 5,000 digits"),
        "long piedras": ('{"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", '
                         f'"3": "S S 7 7"}}, "target": {LONG}}}', "A number of 5,000 digits"),
        "lone surrogate": (venues.format(seats=4, name="Bilbo \\ud800"), "U+D800"),
        "lone low surrogate": (venues.format(seats=4, name="\\udc00 Donostia"), "U+DC00"),
    }


def run(module: str, command: str, text: str | bytes,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    data = text.encode() if isinstance(text, str) else text
    return subprocess.run([sys.executable, "-m", module, command], input=data,
                          capture_output=True, cwd=ROOT, timeout=60, env=env)


@pytest.mark.parametrize(("module", "command"), COMMANDS)
def test_a_number_too_long_or_a_lone_surrogate_is_an_error_line_and_exit_2(
        module: str, command: str) -> None:
    for name, (text, words) in documents().items():
        done = run(module, command, text)
        stderr = done.stderr.decode(errors="replace")
        assert "Traceback" not in stderr, (name, stderr[-500:])
        assert done.returncode == 2, (name, done.returncode, done.stdout[-300:])
        lines = done.stdout.decode().splitlines()
        assert len(lines) == 1 and words in json.loads(lines[0])["error"], (name, lines)


def test_a_valid_pair_of_surrogates_is_one_character() -> None:
    """'\\ud83c\\udfb4' is 🎴 written as JSON may write it: a name like any other."""
    text = ('{"seats": 4, "sedes": [{"name": "\\ud83c\\udfb4 Bilbo", "pairs": 3}, '
            '{"name": "B", "pairs": 2}]}')
    done = run("muscore.leagues", "quotas", text)
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["quotas"][0]["name"] == "🎴 Bilbo"


def test_json_lines_answer_each_line_and_refuse_the_unreadable_one() -> None:
    hand = ('{"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}')
    text = "\n".join([hand, '{"hands": {"0": "R R 5 \\ud800"}}', f'{{"target": {LONG}}}', hand])
    done = run("muscore.rules", "score", text)
    assert done.returncode == 2 and not done.stderr, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [("error" in line) for line in lines] == [False, True, True, False], lines
    assert lines[1]["error"].startswith("Line 2: A text holds U+D800")
    assert lines[2]["error"].startswith("Line 3: A number of 5,000 digits")
    assert lines[0] == lines[3] and lines[0]["score"] == {"A": 2, "B": 8}


def test_a_byte_that_is_no_utf8_under_the_c_locale() -> None:
    """Python reads standard input with surrogateescape under the C locale: the byte becomes
    a lone surrogate, which no answer could be written with."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0",
           "PYTHONIOENCODING": ""}
    text = b'{"seats": 4, "sedes": [{"name": "Bilbo \xed", "pairs": 3}, ' \
           b'{"name": "B", "pairs": 2}]}'
    done = run("muscore.leagues", "quotas", text, env)
    assert b"Traceback" not in done.stderr, done.stderr[-500:]
    assert done.returncode == 2
    assert "half of a UTF-16 pair" in json.loads(done.stdout)["error"]
