"""The test harness's own behaviour (tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db.utils import OperationalError

from tests.conftest import _flush_retrying


def test_the_flush_after_a_live_server_test_is_tried_again_when_a_request_holds_a_lock() -> None:
    """A deadlock or a locked database (a request still in flight) makes the flush wait
    and try again; any other failure is not hidden."""
    calls: list[int] = []

    def deadlocked_once(case: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise CommandError("couldn't be flushed") from OperationalError("deadlock detected")

    _flush_retrying(deadlocked_once)(object())
    assert len(calls) == 2

    def broken(case: object) -> None:
        raise CommandError("couldn't be flushed") from OperationalError("no such table")

    with pytest.raises(CommandError):
        _flush_retrying(broken)(object())
