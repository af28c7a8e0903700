"""CSV as a spreadsheet opens it safely: no formula injection, and a Spanish Excel variant.

A cell of text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read by a spreadsheet as a formula (OWASP, "CSV Injection"): a pair named
``=HYPERLINK(...)`` would run in the organiser's Excel. Such a cell gets a leading ``'``,
which spreadsheets show as text. Numbers are written as they are (a negative tanto
difference stays a number).

Every file starts with a UTF-8 byte order mark, so Excel reads "Iñaki" and "Órdago" right;
the ``;`` variant is what Spanish Excel splits into columns (its list separator, as the
decimal separator is the comma).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEPARATORS = (",", ";")
BOM = "\ufeff"


def safe_cell(value: object) -> object:
    """``value`` made safe to open in a spreadsheet: text starting like a formula is quoted
    with a leading ``'``; numbers and None (an empty cell) are kept."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(header: Sequence[str], rows: Iterable[Sequence[object]], *, sep: str = ",") -> str:
    """A CSV document (with its BOM) of ``header`` and ``rows``, separated by ``sep``
    (``,`` or ``;``), every text cell made safe by :func:`safe_cell`."""
    if sep not in SEPARATORS:
        raise ValueError(f"sep must be one of {SEPARATORS}, not {sep!r}")
    buffer = io.StringIO()
    buffer.write(BOM)
    # Spanish Excel's variant also ends lines as Windows does.
    writer = csv.writer(buffer, delimiter=sep, lineterminator="\r\n" if sep == ";" else "\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()
