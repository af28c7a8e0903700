"""The public entry form's names are checked as the clubs' are (muscore.text), and the
entries' CSV is made safe for a spreadsheet (OWASP's formula injection): issue 21 points 8
and 9, found again on the championships' surface by the repeat probe."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from muscore.championships.models import Enrolment
from tests.championships.factory import small_championship

pytestmark = pytest.mark.django_db


def enter(championship_id: int, sede: int, **data: str) -> object:
    form = {"sede": sede, "name": "Los de siempre", "player_a": "Ane", "player_b": "Jon",
            "contact": "", **data}
    return Client().post(reverse("championships:enter", args=[championship_id]), form)


@pytest.mark.parametrize("field", ["name", "player_a", "player_b"])
@pytest.mark.parametrize("value", ["Ana\u202eBea", "\u200b\u200b", "Ana\x1b", "Ana\x07", "Ana\x7f"])
def test_a_name_with_a_control_override_or_nothing_visible_is_refused(
    field: str, value: str
) -> None:
    championship, _, _ = small_championship()
    sede = championship.sedes.order_by("id")[0]
    before = Enrolment.objects.count()
    response = enter(championship.pk, sede.pk, **{field: value})
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert "carácter" in response.text or "invisibles" in response.text  # type: ignore[attr-defined]
    assert Enrolment.objects.count() == before


def test_the_entries_csv_neutralises_formulas() -> None:
    championship, _, _ = small_championship()
    sede = championship.sedes.order_by("id")[0]
    for n, name in enumerate(["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)"]):
        response = enter(championship.pk, sede.pk, name=name, player_a=f"=A{n}", player_b=f"B{n}")
        assert response.status_code == 200  # type: ignore[attr-defined]
    text = Client().get(reverse("api:championship_entries_csv", args=[championship.pk])).text
    cells = [cell for row in list(csv.reader(io.StringIO(text)))[1:] for cell in row]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'=A0" in cells and "'@SUM(A1)" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
