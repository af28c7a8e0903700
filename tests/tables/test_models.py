"""The tables storage: what the database itself guarantees, whatever the code above it does."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from tests.tables.factory import make_hands, make_record, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_two_hands_cannot_share_a_number_on_one_table():
    table = make_table()
    Hand.objects.create(table=table, number=1, record=make_record())
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=1, record=make_record())
    # Another table has its own numbering.
    Hand.objects.create(table=make_table(), number=1, record=make_record())


def test_a_client_id_is_unique_per_table_and_many_hands_may_have_none():
    table = make_table()
    Hand.objects.create(table=table, number=1, record=make_record(), client_id="c1")
    Hand.objects.create(table=table, number=2, record=make_record())
    Hand.objects.create(table=table, number=3, record=make_record())
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=4, record=make_record(), client_id="c1")
    Hand.objects.create(table=make_table(), number=1, record=make_record(), client_id="c1")


def test_an_idempotency_key_is_stored_once_per_table():
    table = make_table()
    IdempotentWrite.objects.create(table=table, key="k", fingerprint="f", status=201, body={})
    with pytest.raises(IntegrityError), transaction.atomic():
        IdempotentWrite.objects.create(table=table, key="k", fingerprint="g", status=201, body={})


def test_ids_and_edit_keys_are_random_url_safe_tokens():
    tables = [Table.objects.create(players=[], rules={}) for _ in range(20)]
    assert len({t.id for t in tables}) == 20
    assert len({t.edit_key for t in tables}) == 20
    for table in tables:
        assert len(table.id) == 16 and len(table.edit_key) == 22  # 12 and 16 random bytes
        assert all(c.isalnum() or c in "-_" for c in table.id + table.edit_key)


def test_deleting_a_table_takes_its_hands_audit_and_answers_with_it():
    table = make_table()
    make_hands(table, [make_record()])
    table.delete()
    assert not Hand.objects.exists()
    assert not Change.objects.exists()
    assert not IdempotentWrite.objects.exists()
