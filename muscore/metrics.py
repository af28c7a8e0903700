"""Requests counted and timed for Prometheus (prometheus-client): by view, method and
status, with a latency histogram by view. Read at `/metrics` (muscore.watch).

Under gunicorn each worker is its own process: prometheus-client's multiprocess mode keeps
each one's figures in files of `PROMETHEUS_MULTIPROC_DIR`, which muscore.gunicorn_conf
makes (empty) at start when it is not set, and `/metrics` sums them. Without it (runserver,
tests) the figures are the one process's.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from prometheus_client import Counter, Histogram

REQUESTS = Counter(
    "muscore_requests", "HTTP requests answered, by view (URL name), method and status.",
    ["view", "method", "status"])
LATENCY = Histogram(
    "muscore_request_duration_seconds", "Time to answer a request, by view (URL name).",
    ["view"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30))
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


def view_name(request: HttpRequest) -> str:
    """The URL's name (`leagues:standings`), never the path: a path holds ids and edit keys,
    and one label per table would grow without end."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "<unmatched>"
    return match.view_name or "<unnamed>"


class MetricsMiddleware:
    """Outermost but one: times the whole answer, the 304s and the static files included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        view = view_name(request)
        if view == "<unmatched>" and request.path.startswith("/static/"):
            view = "<static>"
        method = request.method if request.method in METHODS else "<other>"
        REQUESTS.labels(view, method, str(response.status_code)).inc()
        LATENCY.labels(view).observe(time.perf_counter() - started)
        return response
