"""Template filters for what Django's format settings do not name (a builtin library:
settings.TEMPLATES' ``builtins``, no ``{% load %}``), each language writing it its own way
with Django's localised numbers and month and day names; no page makes a format by hand.

- ``{{ 0.67|percent }}`` or ``{{ 67|percent:"whole" }}``: "67 %" in Spanish and French (a
  no-break space before the sign), "67%" in English, "% 67" in Basque (the sign first,
  as Basque writes it: CLDR's eu percent pattern).
- ``{{ when|day_time }}``: a day with its weekday and time, "jueves, 10 de diciembre,
  21:05", "Thursday 10 December, 21:05", "abenduaren 10a, osteguna, 21:05", "jeudi
  10 décembre, 21:05".
"""

from __future__ import annotations

from datetime import date, datetime
from typing import SupportsFloat

from django import template
from django.utils import formats
from django.utils.dateformat import format as date_format
from django.utils.timezone import is_aware, localtime
from django.utils.translation import get_language

register = template.Library()

NBSP = "\u00a0"
#: Where the number goes ({}) beside the percent sign, by language (CLDR's patterns).
PERCENT = {"en": "{}%", "es": "{}" + NBSP + "%", "eu": "%" + NBSP + "{}", "fr": "{}" + NBSP + "%"}
#: A day with its weekday and time, in Django's date format letters, by language.
DAY_TIME = {"en": "l j F, H:i", "es": r"l, j \d\e F, H:i", "eu": r"F\r\e\n j\a, l, H:i",
            "fr": "l j F, H:i"}


def _language() -> str:
    return (get_language() or "es").split("-")[0]


@register.filter
def percent(value: SupportsFloat | str | None, whole: str = "") -> str:
    """``value`` as a percentage in the page's language: a fraction (0.67) unless
    ``whole`` is given (67), rounded to a whole number, its digits localised."""
    if value is None or value == "":
        return ""
    number = float(value) if whole else float(value) * 100
    shown = formats.number_format(round(number), use_l10n=True)
    return PERCENT.get(_language(), PERCENT["es"]).format(shown)


@register.filter
def day_time(value: datetime | date | None) -> str:
    """A day with its weekday and time, in the page's language (local time)."""
    if value is None:
        return ""
    if isinstance(value, datetime) and is_aware(value):
        value = localtime(value)
    return date_format(value, DAY_TIME.get(_language(), DAY_TIME["es"]))
