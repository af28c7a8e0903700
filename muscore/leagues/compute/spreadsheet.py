"""CSV as a spreadsheet opens it safely: no formula injection, and a Spanish Excel variant.

A cell of text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read by a spreadsheet as a formula (OWASP, "CSV Injection"): a pair named
``=HYPERLINK(...)`` would run in the organiser's Excel. Such a cell gets a leading ``'``,
which spreadsheets show as text. Numbers are written as they are (a negative tanto
difference stays a number).

Every file starts with a UTF-8 byte order mark, so Excel reads "Iñaki" and "Órdago" right;
the ``;`` variant is what Spanish Excel splits into columns (its list separator, as the
decimal separator is the comma), and it speaks Spanish (issue 38.9, "Excel en español"):
its columns and the words of its cells (how a result came, who did not show up, a
knockout's stage) in Spanish, a table named by its path, so no id starting with "-" needs
the quote a formula would; the caller writes its times in local time.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEPARATORS = (",", ";")
BOM = "\ufeff"


# The ";" variant's columns, said in Spanish (the English names are the API's, kept in the
# "," variant).
SPANISH_COLUMNS = {
    "group": "Grupo", "position": "Puesto", "pair": "Pareja", "name": "Nombre",
    "played": "Jugadas", "won": "Ganadas", "lost": "Perdidas", "forfeits": "No presentadas",
    "points": "Puntos", "juegos_for": "Juegos a favor", "juegos_against": "Juegos en contra",
    "tantos_for": "Tantos a favor", "tantos_against": "Tantos en contra",
    "number": "Partida", "round": "Jornada", "stage": "Fase", "first": "Primera pareja",
    "second": "Segunda pareja", "result": "Resultado", "juegos_first": "Juegos de la primera",
    "juegos_second": "Juegos de la segunda", "tantos_first": "Tantos de la primera",
    "tantos_second": "Tantos de la segunda", "no_show": "No presentada",
    "players_first": "Jugadores de la primera", "players_second": "Jugadores de la segunda",
    "table": "Mesa", "result_at": "Resultado anotado",
    "ceros_left": "Ceros que le quedan", "byes": "Descansos", "out_in_round": "Fuera en la ronda",
    "tie": "Eliminatoria", "wins_first": "Ganadas por la primera",
    "wins_second": "Ganadas por la segunda", "winner": "Pasa",
}
# A knockout's bracket (its standings.csv): its round is the bracket's, not a day's.
SPANISH_BRACKET_COLUMNS = {**SPANISH_COLUMNS, "round": "Ronda"}
# The words of its cells, by column.
SPANISH_WORDS = {
    "result": {"table": "mesa", "manual": "a mano", "no_show": "no presentada"},
    "no_show": {"first": "la primera", "second": "la segunda", "both": "las dos"},
    "stage": {"league": "liga", "quarterfinal": "cuartos de final", "semifinal": "semifinal",
              "final": "final", "third": "tercer puesto", "qf1": "cuartos de final 1",
              "qf2": "cuartos de final 2", "qf3": "cuartos de final 3",
              "qf4": "cuartos de final 4", "sf1": "semifinal 1", "sf2": "semifinal 2"},
}


# A large knockout's ties before its quarterfinals ("r16-3": the round of 16's third).
ROUND_OF = re.compile(r"r(\d+)-(\d+)")
SPANISH_ROUNDS_OF = {16: "octavos de final", 32: "dieciseisavos de final"}


def in_spanish(header: Sequence[str], row: Sequence[object]) -> list[object]:
    """One row of the ";" variant: each cell's word in Spanish, a table as its path."""
    out: list[object] = []
    for column, cell in zip(header, row, strict=False):
        if column == "table" and cell:
            cell = f"/t/{cell}/"
        elif column == "stage" and isinstance(cell, str) and (
                found := ROUND_OF.fullmatch(cell)):
            pairs, tie = int(found[1]), found[2]
            cell = f"{SPANISH_ROUNDS_OF.get(pairs, f'ronda de {pairs}')} {tie}"
        elif column in SPANISH_WORDS and isinstance(cell, str):
            cell = SPANISH_WORDS[column].get(cell, cell)
        out.append(cell)
    return out


def safe_cell(value: object) -> object:
    """``value`` made safe to open in a spreadsheet: text starting like a formula is quoted
    with a leading ``'``; numbers and None (an empty cell) are kept."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(header: Sequence[str], rows: Iterable[Sequence[object]], *, sep: str = ",",
              spanish: Mapping[str, str] = SPANISH_COLUMNS) -> str:
    """A CSV document (with its BOM) of ``header`` and ``rows``, separated by ``sep``
    (``,`` or ``;``, whose columns are named by ``spanish``), every text cell made safe
    by :func:`safe_cell`."""
    if sep not in SEPARATORS:
        raise ValueError(f"sep must be one of {SEPARATORS}, not {sep!r}")
    buffer = io.StringIO()
    buffer.write(BOM)
    # Spanish Excel's variant also ends lines as Windows does.
    writer = csv.writer(buffer, delimiter=sep, lineterminator="\r\n" if sep == ";" else "\n")
    said = sep == ";"
    writer.writerow([spanish.get(c, c) for c in header] if said else header)
    for row in rows:
        cells = in_spanish(header, row) if said else row
        writer.writerow([safe_cell(cell) for cell in cells])
    return buffer.getvalue()
