"""Every ETag of muscore, page or API, is answered 304 by Django's conditional requests
(muscore.conditional over django.utils.cache.get_conditional_response): no module compares
If-None-Match by hand (issue 36.5), and what a client meets stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import RequestFactory

import muscore
from muscore import conditional

TAG = '"r3"'


def _request(method: str = "get", **headers: str):  # type: ignore[no-untyped-def]
    return getattr(RequestFactory(), method)("/api/v1/tables/x", headers=headers)


def test_a_read_holding_the_tag_is_django_s_304_with_the_answer_s_headers() -> None:
    unchanged = conditional.not_modified(_request(**{"If-None-Match": TAG}), TAG)
    assert unchanged is not None and unchanged.status_code == 304
    for header in [TAG, f"W/{TAG}", f'"r1", {TAG}', "*"]:
        assert conditional.not_modified(_request(**{"If-None-Match": header}), TAG), header
    for header in ['"r2"', "", "r3", '"r3']:
        assert conditional.not_modified(_request(**{"If-None-Match": header}), TAG) is None
    assert conditional.not_modified(_request(), TAG) is None
    head = _request("head", **{"If-None-Match": TAG})
    assert conditional.not_modified(head, TAG) is not None
    # With the full answer's headers: the 304 carries its ETag, Cache-Control and Vary.
    from django.http import HttpResponse

    full = HttpResponse("x")
    full["ETag"], full["Cache-Control"], full["Vary"] = TAG, "no-cache", "Cookie"
    copied = conditional.not_modified(_request(**{"If-None-Match": TAG}), TAG, full)
    assert copied is not None
    assert (copied["ETag"], copied["Cache-Control"], copied["Vary"]) == (TAG, "no-cache",
                                                                          "Cookie")


def test_a_write_and_a_read_s_if_match_are_never_answered_here() -> None:
    # A write's If-Match is the API's base revision (its 409), never Django's 412; a
    # write never gets a 304; a read's If-Match is left as it always was.
    for method in ["post", "put", "delete"]:
        request = _request(method, **{"If-None-Match": TAG, "If-Match": '"r9"'})
        assert conditional.not_modified(request, TAG) is None
    both = _request(**{"If-None-Match": '"r1"', "If-Match": '"r9"'})
    assert conditional.not_modified(both, TAG) is None


def test_no_module_compares_if_none_match_by_hand() -> None:
    root = Path(muscore.__file__).parent
    by_hand = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        if re.search(r'headers\.get\("If-None-Match"|etag_matches\(', text):
            by_hand.append(str(path.relative_to(root)))
        # The middleware reads the header's presence only, to skip its query without it.
        if "HTTP_IF_NONE_MATCH" in text and path.name != "middleware.py":
            by_hand.append(str(path.relative_to(root)))
    assert by_hand == []
