"""The hypothesis profiles of tests/conftest.py and tests/examples.py: CI keeps every example."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests import examples


def test_ci_profile_keeps_every_example(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(examples, "PROFILE", "ci")
    assert examples.examples(150) == 150
    assert examples.examples(5) == 5


def test_dev_profile_tries_a_tenth_but_never_fewer_than_five(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(examples, "PROFILE", "dev")
    assert examples.examples(400) == 40
    assert examples.examples(8) == 5


def test_the_profile_loaded_has_no_deadline() -> None:
    # A loaded 2-core machine must not fail a property test on its wall-clock time.
    assert settings().deadline is None
    assert settings.get_profile("dev").max_examples == 10
