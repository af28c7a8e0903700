"""CSV for spreadsheets: formula injection neutralised (OWASP), a BOM, the ';' variant."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client

from muscore.leagues import imports
from muscore.leagues.compute.spreadsheet import safe_cell, write_csv

from .factory import club_with_pairs
from .helpers import league, won


@pytest.mark.parametrize(("value", "expected"), [
    ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"),
    ("+34 600", "'+34 600"),
    ("-Ana", "'-Ana"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\tAna", "'\tAna"),
    ("\rAna", "'\rAna"),
    ("Ana y Bea", "Ana y Bea"),
    ("Órdago", "Órdago"),
    ("", ""),
    (-12, -12),
    (3, 3),
    (None, ""),
])
def test_a_cell_that_a_spreadsheet_would_run_is_quoted(value: object, expected: object) -> None:
    assert safe_cell(value) == expected


def test_the_spanish_excel_variant_has_a_bom_semicolons_and_crlf() -> None:
    text = write_csv(["name", "points"], [["Iñaki; Koldo", -2], ["=1+1", 4]], sep=";")
    # In Spanish (issue 38.9): "Excel en español" had English headers and words.
    assert text.startswith("\ufeffNombre;Puntos\r\n")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=";"))
    assert rows == [["Nombre", "Puntos"], ["Iñaki; Koldo", "-2"], ["'=1+1", "4"]]
    # A table by its path: an id starting with "-" needs no formula's quote.
    matches = write_csv(["result", "no_show", "stage", "table"],
                        [["manual", "first", "sf1", "-abc"], ["table", "", "league", ""]],
                        sep=";")
    assert matches.removeprefix("\ufeff").split("\r\n")[:3] == [
        "Resultado;No presentada;Fase;Mesa", "a mano;la primera;semifinal 1;/t/-abc/",
        "mesa;;liga;"]
    with pytest.raises(ValueError, match="sep"):
        write_csv(["a"], [], sep="\t")


@pytest.mark.django_db
def test_the_league_csvs_neutralise_formulas_and_serve_the_semicolon_variant() -> None:
    club, user, _pairs = club_with_pairs(0)
    doc: dict[str, Any] = league(3, [won(0, 1, 3, 1), won(2, 0, 3, 0)])
    doc["pairs"][0]["name"] = "=HYPERLINK(\"http://evil\",\"Ana\")"
    doc["pairs"][1]["name"] = "@Bea y Carlos"
    competition = imports.import_competition(club, json.loads(json.dumps(doc)), by=user)
    api = f"/api/v1/leagues/{competition.pk}"
    for path in ("/standings.csv", "/matches.csv"):
        plain = Client().get(api + path)
        assert plain.status_code == 200 and plain.content.startswith(b"\xef\xbb\xbf")
        text = plain.content.decode("utf-8-sig")
        cells = {cell for row in csv.reader(io.StringIO(text)) for cell in row}
        assert "'=HYPERLINK(\"http://evil\",\"Ana\")" in cells and "'@Bea y Carlos" in cells
        assert not any(cell.startswith(("=", "@", "+")) for cell in cells)
        excel = Client().get(api + path, {"sep": ";"})
        assert excel.status_code == 200
        rows = list(csv.reader(io.StringIO(excel.content.decode("utf-8-sig"), newline=""),
                               delimiter=";"))
        english = list(csv.reader(io.StringIO(text)))
        # The same pairs and figures, the columns in Spanish (issue 38.9).
        assert len(rows) == len(english) and rows[0][0] in ("Grupo", "Partida")
        assert {c for r in rows for c in r} >= {c for r in english[1:] for c in r
                                                if c not in ("manual", "table", "no_show", "league")
                                                and "T" not in c}
        bad = Client().get(api + path, {"sep": "|"})
        assert bad.status_code == 400 and "sep" in bad.json()["error"]
    page = Client().get(f"/club/{club.slug}/liga/{competition.pk}/").content.decode()
    assert f"{api}/standings.csv?sep=%3B" in page and f"{api}/matches.csv?sep=%3B" in page


def test_the_spreadsheet_module_imports_no_django() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, muscore.leagues.compute.spreadsheet; "
            "assert not [k for k in sys.modules if k.startswith('django')]")
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, timeout=60).returncode == 0
