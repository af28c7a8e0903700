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
