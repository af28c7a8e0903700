"""python -m muscore.leagues: one JSON line out, exit 2 with {"error"} on a bad document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .helpers import league, won

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str = "") -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "muscore.leagues", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    return done.returncode, done.stdout.splitlines()


def test_standings_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "liga.json"
    path.write_text(json.dumps(league(3, [won(1, 0, 3, 2)]), indent=2), encoding="utf-8")
    status, lines = cli("standings", str(path))
    assert status == 0 and len(lines) == 1
    rows = json.loads(lines[0])["standings"]
    assert [r["name"] for r in rows] == ["P1", "P2", "P0"]  # P2: 0 juegos, difference 0


def test_ratings_and_fixtures_from_standard_input() -> None:
    status, lines = cli("ratings", stdin=json.dumps(league(2, [won(0, 1, 3, 0)])))
    assert status == 0
    assert [r["player"] for r in json.loads(lines[0])["ratings"]][:2] == ["p0-a", "p0-b"]
    status, lines = cli("fixtures", stdin='{"pairs": 4, "legs": 2}')
    assert status == 0 and len(json.loads(lines[0])["rounds"]) == 6


def test_errors_exit_2() -> None:
    for command, stdin, words in [
        ("standings", json.dumps(league(2, [{"pairs": [0, 0]}])), "cannot play itself"),
        ("ratings", "{not json", "not valid JSON"),
        ("fixtures", '{"pairs": 1}', "at least 2 pairs"),
    ]:
        status, lines = cli(command, stdin=stdin)
        assert status == 2, command
        assert len(lines) == 1 and words in json.loads(lines[0])["error"]


def test_no_django_and_no_openskill_for_standings() -> None:
    code = ("import sys, muscore.leagues.__main__ as m; "
            "assert not [k for k in sys.modules if k.startswith(('django', 'openskill'))]")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0
