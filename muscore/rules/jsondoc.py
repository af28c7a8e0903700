"""The command lines' JSON (``python -m muscore.rules``, ``python -m muscore.leagues``):
what Python's reader takes, or stops at, that is no document of the contract, refused
in words instead of a traceback (issue 40.10).

- A number of more digits than Python converts (``sys.get_int_max_str_digits()``, 4,300):
  ``json.loads`` raises a bare ValueError that tells a programmer to raise the limit.
- A lone surrogate (``"\\ud800"`` in the JSON, or a byte that is no UTF-8 read from
  standard input under the C locale): the reader keeps it, and writing the answer (which
  names it back) fails with UnicodeEncodeError.
"""

from __future__ import annotations

import json
import re
import sys

# The only ways a surrogate reaches a parsed string: an escape, or one already in the text.
_MAY_HOLD_SURROGATE = re.compile(r"\\u|[\ud800-\udfff]")
_DIGITS = re.compile(r"has (\d+) digits")


def read_text(path: str | None) -> str:
    """The text of the file a command line names, standard input when it names none or
    "-". Raises OSError and UnicodeDecodeError for the caller to say in its own way."""
    if path and path != "-":
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    return sys.stdin.read()


class NotADocument(ValueError):
    """What json.loads read (or could not) is no document of the contract; says why."""


def loads(text: str) -> object:
    """The JSON value of ``text``, as :func:`json.loads` reads it.

    Raises :class:`json.JSONDecodeError` and RecursionError as ``json.loads`` does, and
    :class:`NotADocument` for a number too long to read or a lone surrogate in a string.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # the only other ValueError: the integer digit limit
        found = _DIGITS.search(str(error))
        digits = f"{int(found.group(1)):,}" if found else "too many"
        raise NotADocument(
            f"A number of {digits} digits: no count of the contract is that long "
            f"(at most {sys.get_int_max_str_digits():,} digits are read).") from error
    if _MAY_HOLD_SURROGATE.search(text):
        try:
            json.dumps(value, ensure_ascii=False, check_circular=False).encode("utf-8")
        except UnicodeEncodeError as error:
            code = ord(error.object[error.start])
            raise NotADocument(
                f"A text holds U+{code:04X}, half of a UTF-16 pair and no character on its "
                "own: write it as the character itself in UTF-8.") from error
    return value
