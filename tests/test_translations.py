"""Every language the switch offers is complete: Spanish (the source), English, Basque, French.

A string missing from a catalogue shows Spanish to an English or Basque table with no
error anywhere, and a fuzzy entry (msgmerge's guess) shows nothing at all: both fail here.
The committed .mo files matching their .po is checked in test_project.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.translations import LOCALE, ROOT, messages, parse_po, problems

SOURCE_LANGUAGE = "es"
# What makemessages reads for the django domain: the code, the templates, and the
# settings it imports. Copied whole so a string in any of them is found.
SOURCES = ("manage.py", "pyproject.toml", "muscore", "templates", "locale")
# How the catalogues are written: no entry the code no longer asks for, no source lines
# (which would change the three files at every edit of a line above a string).
MAKEMESSAGES = ("--no-obsolete", "--no-location")
COMMAND = f"manage.py makemessages -l en -l eu -l fr {' '.join(MAKEMESSAGES)}"


def catalogue(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "django.po"


def translated_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != SOURCE_LANGUAGE]


def test_the_switch_offers_spanish_english_basque_and_french() -> None:
    assert settings.LANGUAGE_CODE == SOURCE_LANGUAGE
    assert [code for code, _name in settings.LANGUAGES] == ["es", "en", "eu", "fr"]


@pytest.mark.parametrize("code", ["en", "eu", "fr"])
def test_every_offered_language_has_its_catalogue(code: str) -> None:
    assert code in translated_languages()
    assert catalogue(code).exists(), f"locale/{code} is missing: run makemessages -l {code}"
    assert messages(catalogue(code)), f"locale/{code} has no messages: is the parser reading it?"


@pytest.mark.parametrize("code", ["en", "eu", "fr"])
def test_committed_catalogue_has_no_untranslated_or_fuzzy_entry(code: str) -> None:
    found = problems(catalogue(code))
    assert not found, f"locale/{code}: fill these in (and drop the fuzzy flag):\n" + "\n".join(
        found
    )


def test_the_parser_sees_fuzzy_and_untranslated_entries(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "Mano %(n)s"\nmsgstr "Hand %(n)s"\n\n'
        'msgid "Recuento"\nmsgstr ""\n\n'
        'msgid "%(n)s piedra"\nmsgid_plural "%(n)s piedras"\nmsgstr[0] "%(n)s harri"\n'
        'msgstr[1] ""\n\n'
        'msgid ""\n"Guardar "\n"la mano"\nmsgstr ""\n"Eskua "\n"gorde"\n\n'
        '#~ msgid "Vieja"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    assert [e.msgid for e in parse_po(po)][1:] == [
        "Mano %(n)s",
        "Recuento",
        "%(n)s piedra",
        "Guardar la mano",
        "Vieja",
    ]
    assert problems(po) == [
        "fuzzy: 'Mano %(n)s'",
        "untranslated: 'Recuento'",
        "untranslated: '%(n)s piedra'",
    ]


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project after `makemessages -l en -l eu -l fr`: what the code asks for now."""
    if not (shutil.which("xgettext") and shutil.which("msgmerge")):
        pytest.fail("makemessages needs Debian's gettext: ./scripts/test installs it as root")
    copy = tmp_path_factory.mktemp("messages")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
            )
        else:
            shutil.copy2(source, copy / name)
    languages = [arg for code in translated_languages() for arg in ("-l", code)]
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, *MAKEMESSAGES],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return copy


@pytest.mark.parametrize("code", ["en", "eu", "fr"])
def test_every_string_the_code_uses_is_translated(regenerated: Path, code: str) -> None:
    # makemessages adds each new msgid of the code to the catalogue untranslated (or
    # fuzzy, when msgmerge guesses from a similar one): a forgotten string fails here.
    fresh = regenerated / "locale" / code / "LC_MESSAGES" / "django.po"
    found = problems(fresh)
    assert not found, (
        f"locale/{code} lacks strings the code uses: run `{COMMAND}` and translate:\n"
        + "\n".join(found)
    )
    committed = {(e.msgctxt, e.msgid) for e in messages(catalogue(code))}
    used = {(e.msgctxt, e.msgid) for e in messages(fresh)}
    assert used <= committed, f"missing from locale/{code}: {sorted(used - committed)}"


def undated(po: Path) -> list[str]:
    return [line for line in po.read_text(encoding="utf-8").splitlines()
            if not line.startswith('"POT-Creation-Date:')]


@pytest.mark.parametrize("code", ["en", "eu", "fr"])
def test_the_committed_catalogue_is_what_makemessages_writes(regenerated: Path, code: str) -> None:
    # Entries in makemessages' order and nothing the code no longer uses: a newcomer who
    # runs it to add a string changes that string's lines, not thousands of others.
    fresh = regenerated / "locale" / code / "LC_MESSAGES" / "django.po"
    assert undated(catalogue(code)) == undated(fresh), (
        f"locale/{code} is not as makemessages writes it: run `{COMMAND}` (and msgfmt)")


GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
                 "pgettext_lazy", "npgettext", "npgettext_lazy"}


def gettext_calls_in_fstrings(source: str) -> list[int]:
    """The lines of `source` where a gettext call sits inside an f-string's braces: xgettext
    does not read it, so makemessages never adds its msgid and every language shows Spanish."""
    import ast

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                        and inner.func.id in GETTEXT_NAMES):
                    lines.append(inner.lineno)
    return lines


def test_the_fstring_check_sees_a_hidden_msgid() -> None:
    assert gettext_calls_in_fstrings("x = f\"{a} · {_('Grupo')} {n}\"\n") == [1]
    assert gettext_calls_in_fstrings("x = f\"{a} · \" + _('Grupo %(n)s') % {'n': n}\n") == []


def test_no_msgid_hides_inside_an_fstring() -> None:
    # "Phase de poules · Grupo 1": _('Grupo') inside f"..." was in no catalogue (issue 29).
    found = [f"{path.relative_to(ROOT)}:{line}"
             for path in sorted((ROOT / "muscore").rglob("*.py"))
             for line in gettext_calls_in_fstrings(path.read_text(encoding="utf-8"))]
    assert not found, "write these as _('... %(x)s') % {...}: " + ", ".join(found)
