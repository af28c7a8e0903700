"""A match's result is a value with one owner (issue 36): its row's columns are named only
where the row is defined (muscore/leagues/models/result.py), by the owner that writes it
(muscore/leagues/results/) and by the migrations that made it; every other module reads
the value (`Match.outcome`, `MatchQuerySet.outcomes`) and asks the queryset which matches
are played. Only the owner makes a row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
OWNERS = ("muscore/leagues/models/result.py", "muscore/leagues/results/",
          "muscore/leagues/migrations/",
          # Moves the championships' knockout games onto ties: it reads the stored rows to
          # find each tie's winner, as a migration cannot ask today's code.
          "muscore/championships/migrations/0011_knockout_competitions.py")
# Where a row is made besides its owner: the admin shows rows and never makes one.
MAKERS = (*OWNERS, "muscore/leagues/models/", "muscore/leagues/admin.py")
COLUMNS = re.compile(r"\b(first|second)_(juegos|tantos|absent)\b|result__(source|first|second)")
MAKES = re.compile(r"\bResultRow(\.objects|\.of\b|\()")


def readers(root: Path) -> list[str]:
    """Every line of a module outside the owner that names a row's column, or makes a row."""
    found = []
    for path in sorted((root / "muscore").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            reads = COLUMNS.search(line) and not name.startswith(OWNERS)
            makes = MAKES.search(line) and not name.startswith(MAKERS)
            if reads or makes:
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_module_outside_the_owner_reads_a_result_s_columns() -> None:
    assert readers(ROOT) == []


@pytest.mark.parametrize("offence", [
    'rows = Match.objects.values_list("result__first_juegos")',
    "won = row.second_absent",
    "ResultRow.objects.create(competition=competition)",
])
def test_the_guard_finds_a_reader_or_a_maker_outside_the_owner(
        tmp_path: Path, offence: str) -> None:
    module = tmp_path / "muscore" / "leagues" / "pages.py"
    module.parent.mkdir(parents=True)
    module.write_text(f"def shown():\n    {offence}\n")
    owner = tmp_path / "muscore" / "leagues" / "results" / "store.py"
    owner.parent.mkdir()
    owner.write_text(f"def write():\n    {offence}\n")
    assert readers(tmp_path) == [f"muscore/leagues/pages.py:2: {offence}"]
