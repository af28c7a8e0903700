"""Releases (issue 39): CHANGELOG.md has the entry of the version pyproject.toml declares,
scripts/changelog writes a release's entry from the commits since the last tag and
scripts/tag makes the release's annotated tag, on a repository of their own; every release
of this checkout's CHANGELOG.md has its annotated tag."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


def tag(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    who = {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "tag"), *args,
                           "--repo", str(repo)], capture_output=True, text=True,
                          env={**os.environ, **who})


def out(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_a_release_is_an_annotated_tag_with_its_entry(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "m"\nversion = "0.1.0"\n')
    git(tmp_path, "add", "CHANGELOG.md", "pyproject.toml")
    commit(tmp_path, "a", "Before any release")
    # A version without its entry is no release.
    refused = tag(tmp_path)
    assert refused.returncode != 0 and "no entry for its version 0.1.0" in refused.stderr
    commit(tmp_path, "b", "The feature of the first release")
    assert changelog(tmp_path, "0.1.0").returncode == 0
    git(tmp_path, "add", "CHANGELOG.md")
    # The entry written but not committed: the tag would not name what was reviewed.
    refused = tag(tmp_path)
    assert refused.returncode != 0 and "commit the release first" in refused.stderr
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
        "-m", "Release 0.1.0")
    done = tag(tmp_path)
    assert done.returncode == 0, done.stderr
    assert out(tmp_path, "cat-file", "-t", "v0.1.0") == "tag"  # annotated, not a bare ref
    assert out(tmp_path, "rev-parse", "v0.1.0^{commit}") == out(tmp_path, "rev-parse", "HEAD")
    message = out(tmp_path, "tag", "-l", "--format=%(contents)", "v0.1.0")
    assert message.startswith("muscore 0.1.0\n")
    assert "- The feature of the first release (" in message
    assert out(tmp_path, "describe", "HEAD") == "v0.1.0"  # git describe without --tags
    # A release's tag never moves.
    again = tag(tmp_path)
    assert again.returncode != 0 and "v0.1.0 is tagged already" in again.stderr
    # The next release's entry starts after the tag.
    commit(tmp_path, "c", "A fix after the release")
    assert changelog(tmp_path, "0.2.0").returncode == 0
    entry = (tmp_path / "CHANGELOG.md").read_text().split("## 0.1.0", 1)[0]
    assert "1 commit since v0.1.0" in entry and "- A fix after the release (" in entry


def test_every_release_of_the_changelog_has_its_annotated_tag() -> None:
    """Each version CHANGELOG.md names is the annotated tag vX.Y.Z on a commit whose
    pyproject.toml declares it (scripts/tag); only a release commit not yet tagged, HEAD
    itself, may wait for its tag."""
    if out(ROOT, "rev-parse", "--is-shallow-repository") == "true":
        pytest.skip("a shallow clone has no tags: git fetch --unshallow --tags")
    if not out(ROOT, "tag", "--list", "v*"):
        # A copy made without them (git clone --no-tags, an archive) cannot say; a clone
        # that carries any tag must carry every release's.
        pytest.skip("this clone holds no tags: git fetch --tags")
    versions = re.findall(r"^## (\d+\.\d+\.\d+) \(", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert versions
    head = out(ROOT, "rev-parse", "HEAD")
    wrong = []
    for version in versions:
        name = f"v{version}"
        kind = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-t", name],
                              capture_output=True, text=True).stdout.strip()
        if not kind:
            added = out(ROOT, "log", "-1", "--format=%H", "-S", f"## {version} (", "--",
                        "CHANGELOG.md")
            if added != head:
                wrong.append(f"{name}: no tag (scripts/tag {added[:12]})")
            continue
        if kind != "tag":
            wrong.append(f"{name}: a lightweight tag, not an annotated one")
            continue
        declared = tomllib.loads(out(ROOT, "show", f"{name}:pyproject.toml"))
        if declared["project"]["version"] != version:
            wrong.append(f"{name}: its pyproject.toml says {declared['project']['version']}")
    assert not wrong, wrong
