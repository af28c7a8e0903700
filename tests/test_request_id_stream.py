"""A streamed answer's body is read after every middleware has returned: the lines logged
meanwhile (a piece of a large export gone, a worker killed while sending it) still carry
the request's id (issue 28 point 8: they said `[-]`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.http import HttpRequest, StreamingHttpResponse
from django.test import RequestFactory

from muscore import logs
from muscore.middleware import RequestIdMiddleware

log = logging.getLogger("muscore.tests.stream")


def test_lines_logged_while_a_body_streams_carry_the_request_id(caplog) -> None:
    seen: list[str] = []

    def pieces() -> Iterator[bytes]:
        yield b"["
        seen.append(logs.request_id.get())  # what gunicorn's worker_abort reads
        log.warning("piece 2 of the export is gone")
        yield b"]"

    def view(request: HttpRequest) -> StreamingHttpResponse:
        return StreamingHttpResponse(pieces(), content_type="application/json")

    request = RequestFactory().get("/api/v1/leagues/1/export",
                                   headers={"X-Request-ID": "rid-stream-1"})
    response = RequestIdMiddleware(view)(request)  # type: ignore[arg-type]
    assert logs.request_id.get() == "-"  # the middleware has returned
    handler_filter = logs.RequestIdFilter()
    with caplog.at_level(logging.WARNING, logger="muscore.tests.stream"):
        assert b"".join(response.streaming_content) == b"[]"
    assert seen == ["rid-stream-1"]
    record = next(r for r in caplog.records if r.name == "muscore.tests.stream")
    assert handler_filter.filter(record) and record.request_id == "rid-stream-1"
    assert logs.request_id.get() == "-"  # and gone once the body is sent
