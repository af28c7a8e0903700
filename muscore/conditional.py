"""A read answered 304 by Django's own conditional requests (RFC 9110), for every page and
API answer that carries an ETag: :func:`django.utils.cache.get_conditional_response`,
which the ``condition`` decorator and ConditionalGetMiddleware use too (issue 36.5: each
of eight modules compared If-None-Match by hand).

The views compute their ETag themselves, often before the answer's body (the table's
revision in one query, a kept page's stamp), and set their own headers on the 304
(its ETag, Cache-Control, Vary): they ask :func:`not_modified` and answer its 304 when
there is one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response


def not_modified(request: HttpRequest, etag: str,
                 response: HttpResponse | None = None) -> HttpResponse | None:
    """Django's 304 when the request's If-None-Match holds ``etag`` (weakly, or ``*``),
    with ``response``'s ETag, Cache-Control and Vary when given; else None: answer in
    full. A read's only: a write's If-Match is the API's base revision, refused with its
    409 (muscore.api), and a read's If-Match, which Django would answer 412, is left
    unanswered here as it always was."""
    if request.method not in ("GET", "HEAD"):
        return None
    answer = get_conditional_response(request, etag=etag, response=response)
    if answer is not None and answer.status_code == 304:
        return answer
    return None
