"""The league contract on the command line.

    python -m muscore.leagues standings [FILE]   # a league -> {"standings": [...]}
    python -m muscore.leagues fixtures [FILE]    # {"pairs": N, "legs": L} -> {"rounds": [...]}
    python -m muscore.leagues ratings [FILE]     # a league -> {"ratings": [...]}
    python -m muscore.leagues quotas [FILE]      # venues and seats -> {"quotas": [...]}

Reads one JSON document from FILE or standard input and writes one compact JSON
line. Exit 0, or 2 with ``{"error": ...}`` when the document breaks the contract.
The league's own commands are here (``COMMANDS``); ``quotas`` is a championship's
(:mod:`muscore.championships.compute.quotas`), added to them by ``muscore/leagues/__main__.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from muscore.errors import MuscoreError
from muscore.leagues.compute.document import read_league
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.fixtures import fixtures_json
from muscore.leagues.compute.ratings import ratings_json
from muscore.leagues.compute.standings import standings_json
from muscore.rules.jsondoc import NotADocument, loads, read_text

#: A command: a JSON document in, its JSON answer out, or a MuscoreError.
Command = Callable[[Any], dict[str, Any]]

COMMANDS: dict[str, Command] = {
    "standings": lambda data: standings_json(read_league(data)),
    "fixtures": fixtures_json,
    "ratings": lambda data: ratings_json(read_league(data)),
}


def run(command: str, text: str, out: TextIO, commands: Mapping[str, Command] = COMMANDS) -> int:
    """Answer one document with `command` of `commands`; the exit status."""
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    try:
        try:
            data = loads(text)
        except json.JSONDecodeError as error:
            raise LeagueError("not_json", msg=error.msg, line=error.lineno,
                              column=error.colno) from error
        answer = commands[command](data)
    except (MuscoreError, NotADocument) as error:  # the document's refusal: a LeagueError,
        # a QuotaError, a number too long to read or a lone surrogate (muscore.rules.jsondoc)
        out.write(dumps({"error": str(error)}) + "\n")
        return 2
    except RecursionError:
        # Python's JSON reader (and any walk of what it read) stops at the interpreter's
        # recursion limit: a document nested thousands of levels deep is no league.
        out.write(dumps({"error": "the document nests arrays or objects too deeply to be "
                                  f"a {command} document"}) + "\n")
        return 2
    out.write(dumps(answer) + "\n")
    return 0


def main(argv: list[str] | None = None, commands: Mapping[str, Command] = COMMANDS) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m muscore.leagues",
        description="Standings, fixtures and player ratings of a Mus league (league.md), "
                    "a championship's quotas (championship.md).",
    )
    parser.add_argument("command", choices=sorted(commands))
    parser.add_argument("file", nargs="?", help="a JSON document; standard input if absent")
    args = parser.parse_args(argv)
    try:
        text = read_text(args.file)
    except (OSError, UnicodeDecodeError) as error:
        sys.stdout.write(json.dumps({"error": f"cannot read {args.file}: {error}"},
                                    ensure_ascii=False) + "\n")
        return 2
    return run(args.command, text, sys.stdout, commands)

