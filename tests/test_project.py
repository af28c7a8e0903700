"""Project-wide checks that ruff, mypy and lint-imports do not make (./scripts/test runs
those three once, before pytest): the engine on the standard library alone, no game rule
in the pages' scripts, no path to ../shared, migrations, translations, the lock."""

from __future__ import annotations

import ast
import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "muscore" / "rules"
SKIP_DIRS = {".git", ".venv", "node_modules", "staticfiles", "test-artifacts", "build"}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300
    )


def project_files(*suffixes: str) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith("_cache")]
        found += [Path(dirpath) / f for f in filenames if f.endswith(suffixes)]
    return found


def rules_imports() -> list[tuple[str, str]]:
    """(file, module) for every absolute import under muscore/rules."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                found += [(path.name, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((path.name, node.module))
    return found


def test_rules_engine_imports_only_the_standard_library_and_itself() -> None:
    # lint-imports' rules-pure forbids Django and the rest of muscore; this forbids any
    # other package too (an installed library is not the standard library).
    imports = rules_imports()
    assert imports, "muscore/rules should import something; is the scan reading its files?"
    outside = [
        (name, module)
        for name, module in imports
        if module.split(".")[0] not in sys.stdlib_module_names
        and not (module == "muscore.rules" or module.startswith("muscore.rules."))
        # The coded error base, standard library only itself (tests/test_layers.py).
        and module != "muscore.errors"
    ]
    assert not outside, f"muscore.rules must use the standard library only: {outside}"


# Words only the engine works out: a script that knows them is counting (issue 30.3: the
# calculator, the lector and the entry offline say what they cannot know, never a rule).
RULE_WORDS = ("deje",)


def rule_words_in(folder: Path) -> list[tuple[str, str]]:
    return [
        (path.name, word)
        for path in sorted(folder.glob("*.js"))
        for word in RULE_WORDS
        if word in path.read_text(encoding="utf-8").lower()
    ]


def test_no_game_rule_in_the_pages_javascript(tmp_path: Path) -> None:
    scripts = ROOT / "static" / "js"
    assert list(scripts.glob("*.js")), "no script found: is the check reading static/js?"
    assert rule_words_in(scripts) == []
    # Not blind: a script that works out a deje is found.
    (tmp_path / "count.js").write_text("function deje(score) { return 40 - score; }\n")
    assert rule_words_in(tmp_path) == [("count.js", "deje")]


# Documentation may say where the specs came from; code and tests may not read them.
SHARED_PATH = re.compile(r"\.\./shared|\bshared/(spec|examples|design)")


def test_nothing_reads_the_shared_folder_at_run_or_test_time() -> None:
    checked = [
        path
        for path in project_files(".py", ".html", ".js", ".json", ".jsonl", ".toml", ".cfg", ".sh")
        if path != Path(__file__).resolve()  # this file names the pattern it looks for
    ]
    checked += [ROOT / ".ci" / "run", ROOT / "scripts" / "run", ROOT / "scripts" / "test"]
    offenders = [
        str(path.relative_to(ROOT)) for path in checked if SHARED_PATH.search(path.read_text())
    ]
    assert not offenders, f"these files point at ../shared: {offenders}"


@pytest.mark.django_db
def test_every_model_change_has_its_migration() -> None:
    result = run("manage.py", "makemigrations", "--check", "--dry-run")
    assert result.returncode == 0, "missing migrations:\n" + result.stdout + result.stderr


def catalog(mo_file: Path) -> dict[object, str]:
    with mo_file.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


def test_compiled_translations_match_their_po_files(tmp_path: Path) -> None:
    # A stale .mo shows the old (or Spanish) text to English readers with no error anywhere.
    po_files = sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po"))
    assert ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po" in po_files
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt (Debian's gettext) is needed: ./scripts/test installs it as root"
    for po in po_files:
        fresh = tmp_path / f"{po.parent.parent.name}-{po.stem}.mo"
        subprocess.run([msgfmt, "--check", "-o", str(fresh), str(po)], check=True)
        committed = po.with_suffix(".mo")
        assert committed.exists(), f"{committed.relative_to(ROOT)} missing: run compilemessages"
        assert catalog(committed) == catalog(fresh), (
            f"{committed.relative_to(ROOT)} is older than its .po: run manage.py compilemessages"
        )


def pinned_uv() -> Path:
    """The uv that scripts/_setup.sh pins and installs beside .venv (ensure_venv)."""
    version = re.search(r"^UV_VERSION=(\S+)$", (ROOT / "scripts" / "_setup.sh").read_text(),
                        re.MULTILINE)
    assert version, "scripts/_setup.sh no longer pins UV_VERSION"
    uv = ROOT / ".venv" / f"uv-{version.group(1)}" / "bin" / "uv"
    if not uv.exists():
        found = shutil.which("uv")
        if found is None:
            pytest.fail(f"{uv} is missing: ./scripts/test installs it (ensure_venv)")
        return Path(found)
    return uv


def uv_run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(pinned_uv()), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_the_lock_matches_pyproject() -> None:
    """uv.lock is what pyproject.toml asks for: a dependency added, removed or re-pinned
    without ./scripts/lock fails here (and `uv sync --locked` refuses to install it)."""
    result = uv_run("lock", "--check", "--offline")
    assert result.returncode == 0, (
        "uv.lock does not match pyproject.toml: run ./scripts/lock and commit uv.lock and "
        "requirements/ with it\n" + result.stdout + result.stderr)


def test_the_lock_check_catches_a_changed_pyproject(tmp_path: Path) -> None:
    """The check above can fail: the same lock beside a pyproject with one more dependency."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"pyuca==1.2",' in pyproject, "the test's anchor moved: pick another dependency"
    (tmp_path / "pyproject.toml").write_text(
        pyproject.replace('"pyuca==1.2",', '"pyuca==1.2",\n    "six==1.17.0",'))
    shutil.copy(ROOT / "uv.lock", tmp_path / "uv.lock")
    result = uv_run("lock", "--check", "--offline", cwd=tmp_path)
    if "network was disabled" in result.stderr:
        # A fresh machine's uv cache holds only what `uv sync` fetched (the wheels, not the
        # registry's lists of versions), and resolving the changed pyproject needs those
        # lists: asked of the registry (PyPI answers on CI's machines).
        result = uv_run("lock", "--check", cwd=tmp_path)
    assert result.returncode != 0
    assert "needs to be updated" in result.stderr, result.stderr


@pytest.mark.parametrize("extras", ["app", "test"])
def test_the_pip_fallback_installs_the_locked_versions(extras: str, tmp_path: Path) -> None:
    """requirements/*.txt (pip's fallback, with hashes) are uv.lock exported as it is now."""
    out = tmp_path / "out.txt"
    args = ["export", "--frozen", "--quiet", "--no-emit-project", "--output-file",
            f"requirements/{extras}.txt"]
    if extras == "test":
        args[4:4] = ["--extra", "test"]
    # The export's header names its own command (with requirements/...); compare the rest.
    result = uv_run(*[a if not a.startswith("requirements/") else str(out) for a in args])
    assert result.returncode == 0, result.stderr
    committed = (ROOT / "requirements" / f"{extras}.txt").read_text().splitlines()
    exported = out.read_text().splitlines()
    assert committed[2:] == exported[2:], (
        f"requirements/{extras}.txt is not uv.lock's export: run ./scripts/lock")
    assert all("--hash=sha256:" in line or not line.startswith(" ") or "#" in line
               for line in committed[2:])


def test_every_install_goes_through_the_lock() -> None:
    """The README's two commands and CI install with `uv sync --locked` (scripts/_setup.sh)."""
    setup = (ROOT / "scripts" / "_setup.sh").read_text()
    assert "sync --locked" in setup and "uv pip install" not in setup
    for script in ("run", "test"):
        assert "ensure_venv" in (ROOT / "scripts" / script).read_text()
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text()
