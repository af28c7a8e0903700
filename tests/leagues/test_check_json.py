"""check_json, the first check of any league document (an import reads 160,000 strings of
the benchmark's league with it in its request), walks the document once: it must refuse
exactly what the two walks it replaced refused, the depth first (issue 21 point 5)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muscore import text as unicode_text
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.json_check import MAX_DEPTH, check_json
from tests.examples import examples


def reference(data: Any) -> str | None:
    """The code before: a depth walk, then json_problem; the error it raised, or None."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth >= MAX_DEPTH:
            return "too_deep"
        stack.extend((child, depth + 1) for child in children)
    problem = unicode_text.json_problem(data)
    if problem == unicode_text.SURROGATE:
        return "text_surrogate"
    return "text_control" if problem else None


def checked(data: Any) -> str | None:
    try:
        check_json(data)
    except LeagueError as error:
        return error.code
    return None


def slow_problem(text: str) -> str | None:
    """muscore.text.problem as it was: character by character."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return unicode_text.SURROGATE
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        return unicode_text.CONTROL
    return None


texts = st.text(st.characters(codec=None, exclude_categories=()) | st.sampled_from(
    "\x00\x1b\x7f\x85\x9f\ud800\udfff\u200b\u202e a"), max_size=6)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | texts
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    texts, inner, max_size=3), max_leaves=20)


def nest(value: Any, depth: int, as_dict: bool) -> Any:
    for _ in range(depth):
        value = {"a": value} if as_dict else [value]
    return value


@settings(max_examples=examples(300), deadline=None)
@given(documents)
def test_check_json_refuses_what_the_two_walks_refused(data: Any) -> None:
    assert checked(data) == reference(data)


@settings(max_examples=examples(100), deadline=None)
@given(documents, st.integers(MAX_DEPTH - 3, MAX_DEPTH + 2), st.booleans(), texts)
def test_the_depth_is_refused_first_wherever_it_is(data: Any, depth: int, as_dict: bool,
                                                    before: str) -> None:
    document = [before, data, nest(data, depth, as_dict)]
    assert checked(document) == reference(document)


@settings(max_examples=examples(500), deadline=None)
@given(texts)
def test_problem_reads_text_as_it_did_character_by_character(text: str) -> None:
    assert unicode_text.problem(text) == slow_problem(text)


def test_a_document_deeper_than_python_s_stack_is_refused() -> None:
    assert checked(nest(1, 100_000, as_dict=False)) == "too_deep"
