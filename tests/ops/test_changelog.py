"""Releases (issue 39): CHANGELOG.md has the entry of the version pyproject.toml declares,
and scripts/changelog writes a release's entry from the commits since the last tag, on a
repository of its own."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def commit(repo: Path, name: str, message: str) -> None:
    (repo / name).write_text(message)
    git(repo, "add", name)
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
        "-m", message)


def changelog(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "changelog"), *args,
                           "--repo", str(repo)], capture_output=True, text=True)


def test_the_declared_version_has_its_entry() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    assert re.search(rf"^## {re.escape(version)} \(\d{{4}}-\d\d-\d\d\)$", text, re.M), version


def test_an_entry_holds_the_commits_since_the_last_tag(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n\nEvery release.\n")
    commit(tmp_path, "a", "The first release")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.org", "tag", "-a",
        "v0.1.0", "-m", "0.1.0")
    commit(tmp_path, "b", "A fix, because a hand was lost")
    commit(tmp_path, "c", "A feature")
    done = changelog(tmp_path, "0.2.0")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "CHANGELOG.md").read_text()
    entry = text.split("## 0.2.0 (", 1)[1]
    assert "2 commits since v0.1.0" in entry
    assert "- A feature (" in entry and "- A fix, because a hand was lost (" in entry
    assert "The first release" not in entry  # before the tag
    assert text.index("Every release.") < text.index("## 0.2.0")
    # Written once: a second entry for the same version is refused.
    again = changelog(tmp_path, "0.2.0")
    assert again.returncode != 0 and "has an entry for 0.2.0 already" in again.stderr
    assert changelog(tmp_path, "v1").returncode != 0  # three numbers
