"""A championship's quotas (championship.md): every example exactly, every bad document refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from muscore.championships.compute.quotas import QuotaError, Sede, compute_quotas, quotas_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [json.loads(line) for line in
            (Path(__file__).parent / "data" / "quotas.jsonl").read_text("utf-8").splitlines()
            if line.strip()]


def cli(stdin: str, *args: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "muscore.leagues", "quotas", *args],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60)
    return done.returncode, done.stdout.splitlines()


def test_the_examples_are_there() -> None:
    assert len(EXAMPLES) == 8


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["doc"]["name"] for e in EXAMPLES])
def test_every_example_exactly(example: dict[str, Any]) -> None:
    assert quotas_json(example["doc"]) == example["expect"]


def test_the_command_line_answers_every_example_in_one_line(tmp_path: Path) -> None:
    for number, example in enumerate(EXAMPLES):
        status, lines = cli(json.dumps(example["doc"]))
        assert status == 0 and len(lines) == 1
        assert json.loads(lines[0]) == example["expect"], number
    path = tmp_path / "quotas.json"
    path.write_text(json.dumps(EXAMPLES[0]["doc"]), encoding="utf-8")
    status, lines = cli("", str(path))
    assert status == 0 and json.loads(lines[0]) == EXAMPLES[0]["expect"]


def test_the_contracts_own_example() -> None:
    doc = {"name": "Txapelketa 2026", "seats": 16, "min_per_sede": 1,
           "sedes": [{"name": "Bar Txoko", "pairs": 24}, {"name": "Herriko Taberna", "pairs": 9},
                     {"name": "Sociedad Gure Etxea", "pairs": 0}]}
    assert [q["seats"] for q in quotas_json(doc)["quotas"]] == [11, 5, 0]


def test_the_arithmetic_is_kept_for_the_page() -> None:
    answer = compute_quotas(16, [Sede("Bar Txoko", 24), Sede("Herriko Taberna", 9),
                                 Sede("Sociedad Gure Etxea", 0)])
    assert (answer.total, answer.left) == (33, 14)
    first, second, third = answer.rows
    assert (first.minimum, first.share, first.remainder, first.extra) == (1, 10, 6, 0)
    assert (second.minimum, second.share, second.remainder, second.extra) == (1, 3, 27, 1)
    assert third.seats == 0


def test_remainder_ties_go_to_more_pairs_then_the_first_listed() -> None:
    answer = compute_quotas(2, [Sede("A", 1), Sede("B", 1), Sede("C", 2)], min_per_sede=0)
    # L*p: 2, 2, 4 over 4: C gets 1 whole, remainders 2, 2, 0: A (listed first) gets the last.
    assert [r.seats for r in answer.rows] == [1, 0, 1]
    answer = compute_quotas(2, [Sede("A", 1), Sede("B", 3)], min_per_sede=0)
    # L*p: 2, 6 over 4: B 1 whole, remainders 2, 2: B has more pairs.
    assert [r.seats for r in answer.rows] == [0, 2]


def test_a_venue_that_sends_all_its_pairs_is_skipped() -> None:
    answer = compute_quotas(4, [Sede("A", 1), Sede("B", 4)], min_per_sede=1)
    assert [r.seats for r in answer.rows] == [1, 3]
    assert compute_quotas(5, [Sede("A", 1), Sede("B", 4)]).rows[1].seats == 4


BAD: list[tuple[Any, str, str]] = [
    ([], "not_object", "must be a JSON object"),
    ({"seats": 1}, "no_sedes", "'sedes' must be a list of one venue or more, not null"),
    ({"seats": 1, "sedes": []}, "no_sedes", "not []"),
    ({"seats": 1, "sedes": ["Bar"]}, "sede_not_object", 'Venue 0 must be an object'),
    ({"seats": 1, "sedes": [{"pairs": 3}]}, "sede_name", "Venue 0 needs a name"),
    ({"seats": 1, "sedes": [{"name": " ", "pairs": 3}]}, "sede_name", "Venue 0 needs a name"),
    ({"seats": 1, "sedes": [{"name": "A", "pairs": 3}, {"name": "B", "pairs": -1}]},
     "sede_pairs", "Venue 1 (B): 'pairs' must be a whole number, 0 or more, not -1"),
    ({"seats": 1, "sedes": [{"name": "A", "pairs": 2.5}]}, "sede_pairs", "not 2.5"),
    ({"seats": 1, "sedes": [{"name": "A", "pairs": True}]}, "sede_pairs", "not true"),
    ({"seats": True, "sedes": [{"name": "A", "pairs": 3}]}, "seats", "not true"),
    ({"seats": 0, "sedes": [{"name": "A", "pairs": 3}]}, "seats", "1 or more, not 0"),
    ({"sedes": [{"name": "A", "pairs": 3}]}, "seats", "not null"),
    ({"seats": "2", "sedes": [{"name": "A", "pairs": 3}]}, "seats", 'not "2"'),
    ({"seats": 4, "sedes": [{"name": "A", "pairs": 3}]}, "seats_too_many",
     "'seats' is 4, but only 3 pairs entered"),
    ({"seats": 2, "min_per_sede": -1, "sedes": [{"name": "A", "pairs": 3}]}, "min_per_sede",
     "0 or more, not -1"),
    ({"seats": 2, "min_per_sede": False, "sedes": [{"name": "A", "pairs": 3}]}, "min_per_sede",
     "not false"),
    ({"seats": 2, "min_per_sede": 1,
      "sedes": [{"name": "A", "pairs": 3}, {"name": "B", "pairs": 1}, {"name": "C", "pairs": 2}]},
     "minimums", "The minimums alone need 3 seats"),
]


@pytest.mark.parametrize(("doc", "code", "words"), BAD,
                         ids=[f"{b[1]}{i}" for i, b in enumerate(BAD)])
def test_every_bad_document_is_refused_naming_what_is_wrong(doc: Any, code: str,
                                                            words: str) -> None:
    with pytest.raises(QuotaError) as caught:
        quotas_json(doc)
    assert caught.value.code == code
    assert words in str(caught.value)


def test_the_command_line_refuses_with_exit_2() -> None:
    for stdin, words in [("{nope", "not valid JSON"),
                         ('{"seats": 9, "sedes": [{"name": "A", "pairs": 3}]}', "only 3 pairs")]:
        status, lines = cli(stdin)
        assert status == 2 and len(lines) == 1
        assert words in json.loads(lines[0])["error"]


@given(st.lists(st.integers(0, 60), min_size=1, max_size=20), st.integers(0, 3), st.data())
def test_every_seat_is_placed_and_no_venue_sends_more_than_it_has(
        pairs: list[int], minimum: int, data: st.DataObject) -> None:
    total = sum(pairs)
    needed = sum(min(minimum, p) for p in pairs)
    if total == 0 or needed > total:
        return
    seats = data.draw(st.integers(max(1, needed), total))
    answer = compute_quotas(seats, [Sede(f"S{i}", p) for i, p in enumerate(pairs)], minimum)
    assert sum(r.seats for r in answer.rows) == seats
    for row, p in zip(answer.rows, pairs, strict=True):
        assert min(minimum, p) <= row.seats <= p
