"""A permalink carries a whole hand record in the URL and gives it back exactly."""

from __future__ import annotations

import base64
import contextlib
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore import permalink
from tests.examples import examples
from tests.rules.strategies import records


@st.composite
def records_with_extras(draw: Any) -> dict[str, Any]:
    """Valid records plus the optional parts a calculator sends: declarations, odd names."""
    record = draw(records())
    if draw(st.booleans()):
        seats = [str(s) for s in range(record["rules"]["players"])]
        declared = {}
        for seat in draw(st.lists(st.sampled_from(seats), unique=True, max_size=3)):
            declared[seat] = {"pares": draw(st.booleans())}
        if declared:
            record["declared"] = declared
    return record


@settings(max_examples=examples(300), deadline=None)
@given(records_with_extras())
def test_permalink_round_trips_every_valid_hand_record_exactly(record: dict[str, Any]) -> None:
    code = permalink.encode(record)
    back = permalink.decode(code)
    assert back == record
    # Same types too (1 == True in Python, "1" != 1 in JSON): compare the JSON text.
    assert permalink.encode(back) == code


@settings(max_examples=examples(100), deadline=None)
@given(records())
def test_permalink_code_is_url_safe_and_short(record: dict[str, Any]) -> None:
    code = permalink.encode(record)
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(code) < 600


@pytest.mark.parametrize(
    "code",
    ["", "!!!", "abc", "x" * 5000, base64.urlsafe_b64encode(b"not zlib").decode(),
     base64.urlsafe_b64encode(zlib.compress(b"[1, 2]")).decode(),
     base64.urlsafe_b64encode(zlib.compress(b"{not json")).decode(),
     base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe")).decode()],
)
def test_damaged_codes_are_refused_with_permalink_error(code: str) -> None:
    with pytest.raises(permalink.PermalinkError):
        permalink.decode(code)


def test_a_code_that_inflates_past_the_limit_is_refused() -> None:
    bomb = base64.urlsafe_b64encode(zlib.compress(b'{"a":"' + b"x" * 100_000 + b'"}', 9))
    assert len(bomb) < permalink.MAX_CODE
    with pytest.raises(permalink.PermalinkError):
        permalink.decode(bomb.decode())


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=200))
def test_any_text_either_decodes_to_an_object_or_raises_permalink_error(text: str) -> None:
    with contextlib.suppress(permalink.PermalinkError):
        assert isinstance(permalink.decode(text), dict)
