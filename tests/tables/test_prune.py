"""prune_tables: tables untouched for a configurable time go (default: never), dry run first."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table, VacaCheckpoint
from tests.tables.factory import make_hands, make_record, make_table

pytestmark = pytest.mark.django_db


def aged(table: Table, days: int) -> Table:
    Table.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - datetime.timedelta(days=days)
    )
    return table


def tables() -> set[str]:
    return set(Table.objects.values_list("id", flat=True))


def test_without_an_idle_time_nothing_is_ever_deleted(capsys):
    old = aged(make_table(), 5000)
    call_command("prune_tables")
    assert tables() == {old.id}
    assert "kept forever" in capsys.readouterr().out


def test_a_dry_run_lists_the_idle_tables_and_deletes_nothing(capsys):
    old = aged(make_table(), 40)
    recent = aged(make_table(), 10)
    call_command("prune_tables", idle_days=30, dry_run=True)
    out = capsys.readouterr().out
    assert old.id in out and recent.id not in out
    assert "1 tables untouched for 30 days" in out
    assert tables() == {old.id, recent.id}


def test_idle_tables_go_with_their_hands_audit_and_stored_vacas(capsys):
    old = make_table()
    make_hands(old, [make_record()] * 3)
    aged(old, 40)
    busy = make_table()
    make_hands(busy, [make_record()])
    aged(busy, 400)
    services.add_hand(busy, make_record(), via="api")  # written today: no longer idle
    call_command("prune_tables", idle_days=30)
    assert tables() == {busy.id}
    assert "Deleted 1 tables" in capsys.readouterr().out
    for model in (Hand, Change, VacaCheckpoint):
        assert not model.objects.filter(table_id=old.id).exists()
        assert model.objects.filter(table_id=busy.id).exists()


@pytest.mark.parametrize("days", [0, -3])
def test_an_idle_time_below_a_day_is_refused(days):
    aged(make_table(), 40)
    with pytest.raises(CommandError, match="from 1"):
        call_command("prune_tables", idle_days=days)
    assert Table.objects.count() == 1
