"""The contract on the command line.

    python -m muscore.rules score [FILE]    # hand records -> results
    python -m muscore.rules replay [FILE]   # vacas -> replays

Reads one JSON record, or JSON Lines, from FILE or standard input, and writes
one compact JSON line per record. Exit 0 when every record was scored, 2 when
any gave an error (its line holds ``{"error": ...}``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import TextIO

from muscore.rules.errors import RuleError
from muscore.rules.jsondoc import NotADocument, loads, read_text
from muscore.rules.scoring import score
from muscore.rules.vaca import replay

# Python's JSON reader (and any walk of what it read) stops at the interpreter's recursion
# limit: a record nested thousands of levels deep is refused with this, not a traceback.
TOO_DEEP = "The record nests arrays or objects too deeply to be a hand record or a vaca."


def records(text: str) -> Iterator[tuple[object, str | None]]:
    """Each record of the input with None, or None with what is wrong with its line."""
    stripped = text.strip()
    if not stripped:
        return
    try:
        # A single record may span several lines (pretty-printed JSON).
        yield loads(stripped), None
        return
    except json.JSONDecodeError:
        pass
    except NotADocument as error:
        yield None, str(error)
        return
    except RecursionError:
        yield None, TOO_DEEP
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield loads(line), None
        except json.JSONDecodeError as error:
            yield None, f"Line {number} is not valid JSON: {error.msg} (column {error.colno})."
        except NotADocument as error:
            yield None, f"Line {number}: {error}"
        except RecursionError:
            yield None, f"Line {number}: {TOO_DEEP}"


def run(command: Callable[[object], Mapping[str, object]], text: str, out: TextIO) -> int:
    """Process every record of ``text`` with ``command``; the exit status."""
    status = 0
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for record, problem in records(text):
        if problem is None:
            try:
                answer = command(record)
            except RuleError as error:
                answer = {"error": str(error)}
                status = 2
            except RecursionError:
                answer = {"error": TOO_DEEP}
                status = 2
        else:
            answer = {"error": problem}
            status = 2
        out.write(dumps(answer) + "\n")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m muscore.rules",
        description="Score Mus hands and replay vacas (muscore's JSON contract).",
    )
    parser.add_argument("command", choices=["score", "replay"])
    parser.add_argument("file", nargs="?", help="JSON or JSON Lines; standard input if absent")
    args = parser.parse_args(argv)
    try:
        text = read_text(args.file)
    except (OSError, UnicodeDecodeError) as error:
        print(f"muscore.rules: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    command = score if args.command == "score" else replay
    return run(command, text, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
