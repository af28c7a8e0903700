"""Reading gettext catalogues (.po) with the standard library, for the translation tests.

Only what the tests need: each entry's msgid (and plural), its translations, its flags.
The catalogues are the project's own, written by makemessages, so the grammar is the
plain one: comments, then msgctxt / msgid / msgid_plural / msgstr[n] with continued lines.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
KEYWORD = re.compile(r"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(\".*\")$")


@dataclass
class Entry:
    """One message of a catalogue."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def untranslated(self) -> bool:
        return not self.msgstr or any(not text for text in self.msgstr)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


def _string(literal: str) -> str:
    value = ast.literal_eval(literal)
    assert isinstance(value, str)
    return value


def parse_po(path: Path) -> list[Entry]:
    """Every entry of a .po file, the header (msgid "") included."""
    entries: list[Entry] = []
    entry = Entry()
    started = False
    current: str | None = None

    def finish() -> None:
        nonlocal entry, started, current
        if started:
            entries.append(entry)
        entry, started, current = Entry(), False, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if started and current is not None and current.startswith("msgstr"):
                finish()
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        match = KEYWORD.match(line)
        if match:
            keyword, literal = match.groups()
            if keyword in ("msgctxt", "msgid") and started and current not in (None, "msgctxt"):
                finish()
            started = True
            entry.obsolete = entry.obsolete or obsolete
            current = keyword
            value = _string(literal)
            if keyword == "msgctxt":
                entry.msgctxt = value
            elif keyword == "msgid":
                entry.msgid = value
            elif keyword == "msgid_plural":
                entry.msgid_plural = value
            else:
                entry.msgstr.append(value)
        elif line.startswith('"') and current is not None:
            value = _string(line)
            if current == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + value
            elif current == "msgid":
                entry.msgid += value
            elif current == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + value
            else:
                entry.msgstr[-1] += value
        else:
            raise ValueError(f"{path}: cannot read the line {raw!r}")
    finish()
    return entries


def messages(path: Path) -> list[Entry]:
    """The live messages of a catalogue: no header, no obsolete (#~) entries."""
    return [e for e in parse_po(path) if e.msgid and not e.obsolete]


def problems(path: Path) -> list[str]:
    """Each message of `path` that is untranslated or fuzzy, as a readable line."""
    out = []
    for e in messages(path):
        if e.fuzzy:
            out.append(f"fuzzy: {e.msgid!r}")
        elif e.untranslated:
            out.append(f"untranslated: {e.msgid!r}")
    return out
