"""manage.py build_large_championship, small: every venue's heat finished, quotas placed,
the province phases drawn from them."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from muscore.championships.models import Championship, Enrolment
from muscore.championships.services import qualified
from muscore.leagues.models import Competition

pytestmark = pytest.mark.django_db


def test_a_small_build() -> None:
    out = io.StringIO()
    call_command("build_large_championship", "--pairs", "60", "--venues", "8", "--seats", "24",
                 stdout=out)
    championship = Championship.objects.get()
    assert Enrolment.objects.count() == 60 and championship.sedes.count() == 8
    assert sum(championship.sedes.values_list("quota", flat=True)) == 24
    assert not Competition.objects.filter(sede__isnull=False).exclude(status="finished").exists()
    going = sum(len(h.qualified) for h in qualified(championship).values())
    assert going == 24
    drawn = [k for p in championship.phases.exclude(draw=None) for g in (p.draw or {})["groups"]
             for k in g]
    assert len(drawn) == len(set(drawn)) <= 24
    assert "close the entries" in out.getvalue()
