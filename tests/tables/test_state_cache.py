"""The state cache (Django's "default" cache): keyed by table, revision and epoch, so it
cannot outlive the data, and bounded per entry (a long table's state is not kept)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command

from muscore.tables import services
from muscore.tables.models import Table
from tests.tables.factory import make_hands, make_record, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def cached(table: Table) -> str | None:
    table.refresh_from_db()
    value = cache.get(services.cache.cache_key(table))
    return value if isinstance(value, str) else None


def test_a_read_keeps_the_state_text_under_table_revision_and_epoch():
    table = make_table()
    make_hands(table, [make_record()] * 2)
    cache.clear()
    text = services.read_state(table).text
    assert cached(table) == text
    key = services.cache.cache_key(table)
    assert table.id in key and f":{table.revision}:" in key and key.endswith(table.epoch)


def test_a_state_changed_behind_the_cache_s_back_is_not_served_once_the_epoch_moves():
    table = make_table()
    make_hands(table, [make_record()] * 2)
    services.table_state(table)
    table.refresh_from_db()
    # What a restore does: other hands at the same revision, and a new epoch.
    forged = services.read_state(table).text.replace('"score": {"A": 4', '"score": {"A": 99')
    cache.set(services.cache.cache_key(table), forged)
    assert services.read_state(table).text == forged  # the cache is trusted...
    Table.objects.filter(pk=table.pk).update(epoch="restored")
    assert services.read_state(table).text != forged  # ...until the epoch changes
    assert services.table_state(table) == services.replay_stored(table)


def test_a_state_above_the_size_bound_is_never_cached(monkeypatch):
    table = make_table()
    make_hands(table, [make_record()] * 3)
    cache.clear()
    size = len(services.read_state(table).text)
    assert cached(table) is not None
    monkeypatch.setattr(services.cache, "STATE_CACHE_MAX_CHARS", size - 1)
    cache.clear()
    services.read_state(table)
    services.add_hand(table, make_record(), via="api")
    assert cached(table) is None
    assert services.table_state(table) == services.replay_stored(table)


def test_restore_gives_every_table_a_new_epoch_and_a_replaced_one_a_new_revision(tmp_path):
    table = make_table()
    make_hands(table, [make_record()] * 2)
    table.refresh_from_db()
    before = (table.revision, table.epoch)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup))
    call_command("restore", str(backup), replace=True)
    table.refresh_from_db()
    assert table.epoch != before[1]
    assert table.revision == before[0] + 1
    assert services.table_state(table)["revision"] == table.revision
