"""Dates through Django's localisation in each language (issue 17.8): English pages wrote
the first of December as 12/01/2026, the US way."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import formats, translation

WHEN = datetime(2026, 12, 1, 21, 5)


@pytest.mark.parametrize(("language", "short_date", "short_datetime"), [
    ("en", "01/12/2026", "01/12/2026 21:05"),
    ("es", "01/12/2026", "01/12/2026 21:05"),
    ("eu", "2026-12-01", "2026-12-01 21:05"),
])
def test_short_dates_day_before_month(language: str, short_date: str,
                                      short_datetime: str) -> None:
    with translation.override(language):
        assert formats.date_format(WHEN, "SHORT_DATE_FORMAT") == short_date
        assert formats.date_format(WHEN, "SHORT_DATETIME_FORMAT") == short_datetime


def test_english_long_dates_and_numbers() -> None:
    with translation.override("en"):
        assert formats.date_format(WHEN, "DATE_FORMAT") == "1 Dec 2026"
        assert formats.number_format(1234567, force_grouping=True) == "1,234,567"
    with translation.override("es"):
        assert formats.number_format(1234567, force_grouping=True) == "1\xa0234\xa0567"


# --- issue 29 point 4: each language's own way, through Django's localisation ---------------

THURSDAY = datetime(2026, 12, 10, 21, 5)


@pytest.mark.parametrize(("language", "shown"), [
    ("es", "67\xa0%"), ("fr", "67\xa0%"), ("en", "67%"), ("eu", "%\xa067")])
def test_a_percentage_as_each_language_writes_it(language: str, shown: str) -> None:
    from muscore.formats.tags import percent

    with translation.override(language):
        assert percent(0.666) == shown and percent(67, "whole") == shown


@pytest.mark.parametrize(("language", "day", "month_day"), [
    ("es", "jueves, 10 de diciembre, 21:05", "10 de diciembre"),
    ("en", "Thursday 10 December, 21:05", "10 December"),
    ("eu", "abenduaren 10a, osteguna, 21:05", "abenduaren 10a"),
    ("fr", "jeudi 10 décembre, 21:05", "10 décembre"),
])
def test_a_day_with_its_weekday_and_a_history_date(language: str, day: str,
                                                   month_day: str) -> None:
    from django.template import Context, Template

    from muscore.formats.tags import day_time

    with translation.override(language):
        assert day_time(THURSDAY) == day
        shown = Template('{{ w|day_time }} · {{ w|date:"MONTH_DAY_FORMAT" }}').render(
            Context({"w": THURSDAY}))
        assert shown == f"{day} · {month_day}"


def test_no_template_makes_a_date_format_by_hand() -> None:
    """A format string in a template ("l j F", "j M") wrote "jueves 10 diciembre" and
    "3 Dic": dates go through a format setting's name or the day_time filter."""
    import re
    from pathlib import Path

    pattern = re.compile(r"""\|(?:date|time):["']([^"']+)["']""")
    allowed = {"c", "H:i", "H:i:s", "Y-m-d"}
    found = []
    for path in (Path(__file__).resolve().parent.parent / "templates").rglob("*.html"):
        for fmt in pattern.findall(path.read_text(encoding="utf-8")):
            if fmt not in allowed and not fmt.endswith("_FORMAT"):
                found.append(f"{path.name}: {fmt}")
    assert not found, found
