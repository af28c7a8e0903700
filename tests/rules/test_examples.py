"""Every shared example, through the engine and through the command line: the pairs
game's (hands.jsonl, vacas.jsonl) and individual play's of 2 to 6 players (issue 37:
individual.jsonl, individual_vacas.jsonl).

The cases are the project's own copy of the examples (tests/rules/data), so the
suite runs from a bare clone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from muscore.rules import RuleError, replay, score
from muscore.rules.errors import MESSAGES

DATA = Path(__file__).parent / "data"
HANDS = [json.loads(line) for line in (DATA / "hands.jsonl").read_text().splitlines() if line]
VACAS = [json.loads(line) for line in (DATA / "vacas.jsonl").read_text().splitlines() if line]
INDIVIDUAL = [json.loads(line) for line in (DATA / "individual.jsonl").read_text().splitlines()
              if line]
INDIVIDUAL_VACAS = [json.loads(line) for line in
                    (DATA / "individual_vacas.jsonl").read_text().splitlines() if line]
ROOT = Path(__file__).resolve().parents[2]


def matches(expect: dict[str, Any], got: dict[str, Any]) -> None:
    """Every field of `expect` matches exactly; recuento steps are compared without `why`
    and the extra fields a result may carry."""
    for key, value in expect.items():
        if key == "recuento":
            steps = [{k: s[k] for k in ("lance", "side", "points", "score")} for s in got[key]]
            assert steps == value, key
        elif key == "hands":
            hands = [{k: h[k] for k in v} for h, v in zip(got[key], value, strict=False)]
            assert len(got[key]) == len(value)
            assert hands == value
        else:
            assert got[key] == value, key


@pytest.mark.parametrize("case", HANDS + INDIVIDUAL, ids=[c["name"] for c in HANDS + INDIVIDUAL])
def test_hand_example(case: dict[str, Any]) -> None:
    if case["expect"] == "error":
        with pytest.raises(RuleError) as raised:
            score(case["record"])
        assert str(raised.value)
        assert raised.value.code in MESSAGES
    else:
        matches(case["expect"], score(case["record"]))


@pytest.mark.parametrize("case", VACAS + INDIVIDUAL_VACAS,
                         ids=[c["name"] for c in VACAS + INDIVIDUAL_VACAS])
def test_vaca_example(case: dict[str, Any]) -> None:
    matches(case["expect"], replay(case["record"]))


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "muscore.rules", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, check=False,
    )


def test_cli_scores_every_example_as_json_lines() -> None:
    lines = "\n".join(json.dumps(c["record"]) for c in HANDS) + "\n"
    done = run_cli("score", stdin=lines)
    assert done.returncode == 2  # the error cases are in the file
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(HANDS)
    for case, got in zip(HANDS, out, strict=True):
        if case["expect"] == "error":
            assert set(got) == {"error"} and got["error"], case["name"]
        else:
            matches(case["expect"], got)


def test_cli_scores_every_individual_example() -> None:
    lines = "\n".join(json.dumps(c["record"]) for c in INDIVIDUAL) + "\n"
    done = run_cli("score", stdin=lines)
    assert done.returncode == 2  # five records must be refused
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(INDIVIDUAL) == 29
    assert sum(case["expect"] == "error" for case in INDIVIDUAL) == 5
    for case, got in zip(INDIVIDUAL, out, strict=True):
        if case["expect"] == "error":
            assert set(got) == {"error"} and got["error"], case["name"]
        else:
            matches(case["expect"], got)


def test_cli_replays_individual_vacas() -> None:
    done = run_cli("replay", stdin="\n".join(json.dumps(c["record"]) for c in INDIVIDUAL_VACAS))
    assert done.returncode == 0
    for case, line in zip(INDIVIDUAL_VACAS, done.stdout.splitlines(), strict=True):
        matches(case["expect"], json.loads(line))


def test_cli_exits_0_when_every_record_scores(tmp_path: Path) -> None:
    good = [c for c in HANDS if c["expect"] != "error"]
    path = tmp_path / "good.jsonl"
    path.write_text("\n".join(json.dumps(c["record"]) for c in good))
    done = run_cli("score", str(path))
    assert done.returncode == 0, done.stdout
    assert len(done.stdout.splitlines()) == len(good)


def test_cli_reads_one_pretty_printed_record() -> None:
    done = run_cli("score", stdin=json.dumps(HANDS[0]["record"], indent=2))
    assert done.returncode == 0
    matches(HANDS[0]["expect"], json.loads(done.stdout))


def test_cli_replays_vacas() -> None:
    done = run_cli("replay", stdin="\n".join(json.dumps(c["record"]) for c in VACAS))
    assert done.returncode == 0
    for case, line in zip(VACAS, done.stdout.splitlines(), strict=True):
        matches(case["expect"], json.loads(line))


def test_cli_reports_a_line_that_is_not_json_and_goes_on() -> None:
    done = run_cli("score", stdin=json.dumps(HANDS[0]["record"]) + "\n{oops\n")
    assert done.returncode == 2
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["score"] == HANDS[0]["expect"]["score"]
    assert "Line 2" in second["error"]


def test_cli_empty_input_scores_nothing() -> None:
    done = run_cli("score", stdin="")
    assert done.returncode == 0 and done.stdout == ""
