"""Requests counted and timed for Prometheus (prometheus-client): by view, method and
status, with a latency histogram by view. Read at `/metrics` (muscore.watch).

Also each request's database queries (their time, their number, the failed ones), and
each gunicorn worker's process figures (memory, CPU, open files). The figures read at each
scrape (the database's and the cache's state, the workers, the tasks) are muscore.watch's.

Under gunicorn each worker is its own process: prometheus-client's multiprocess mode keeps
each one's figures in files of `PROMETHEUS_MULTIPROC_DIR`, which muscore.gunicorn_conf
makes (empty) at start when it is not set, and `/metrics` sums them. Without it (runserver,
tests) the figures are the one process's.

Why prometheus-client's own pieces and not django-prometheus: the latter counts the
database and the cache by replacing their backends with its own classes (our cache backend
is muscore.cache's, which fails open), and brings per-model and migration figures nobody
reads here; its process figures have the same multiprocess gap, filled here in a few lines.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from prometheus_client import Counter, Gauge, Histogram, ProcessCollector

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
        queries = _Queries()
        with connection.execute_wrapper(queries):
            response = self.get_response(request)
        QUERIES.observe(queries.count)
        view = view_name(request)
        if view == "<unmatched>" and request.path.startswith("/static/"):
            view = "<static>"
        method = request.method if request.method in METHODS else "<other>"
        REQUESTS.labels(view, method, str(response.status_code)).inc()
        LATENCY.labels(view).observe(time.perf_counter() - started)
        return response


# --- the database, as the requests use it ---------------------------------------------------

QUERY_SECONDS = Histogram(
    "muscore_db_query_duration_seconds", "Time of each database query a request made.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
QUERIES = Histogram(
    "muscore_db_queries_per_request", "Database queries made by one request.",
    buckets=(0, 1, 2, 5, 10, 20, 50, 100, 200, 500))
QUERY_ERRORS = Counter(
    "muscore_db_errors", "Database queries that failed (a lost connection, a lock timeout).")


class _Queries:
    """Django's execute wrapper (connection.execute_wrapper): times and counts each query."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: dict[str, Any]) -> Any:
        self.count += 1
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        except DatabaseError:
            QUERY_ERRORS.inc()
            raise
        finally:
            QUERY_SECONDS.observe(time.perf_counter() - started)


# --- each process, for the multiprocess mode ------------------------------------------------

# prometheus-client's multiprocess mode has no process collector (the process that answers a
# scrape is one of several): each gunicorn worker writes its own figures, by pid, every few
# seconds (a thread started by muscore.gunicorn_conf's post_worker_init), and /metrics reads
# those of the workers alive. Without the multiprocess mode (uvicorn, runserver, tests),
# prometheus-client's own process collector gives the same names.
PROCESS_EVERY = 5.0
_PROCESS_GAUGES: dict[str, Gauge] = {}


def record_process() -> None:
    """Write this process's figures (memory, CPU seconds, open files, start time), under
    the names of prometheus-client's process collector, each with this process's pid."""
    for metric in ProcessCollector(registry=None).collect():
        for sample in metric.samples:
            gauge = _PROCESS_GAUGES.get(sample.name)
            if gauge is None:
                # registry=None: written to the multiprocess files only, never beside the
                # default registry's own process collector.
                gauge = _PROCESS_GAUGES[sample.name] = Gauge(
                    sample.name, f"{metric.documentation} (each gunicorn worker, by pid)",
                    registry=None, multiprocess_mode="liveall")
            gauge.set(sample.value)


def start_process_figures() -> None:
    """A gunicorn worker's thread writing its process figures every PROCESS_EVERY s."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return

    def run() -> None:
        while True:
            with contextlib.suppress(Exception):  # a figure missed is the next one's
                record_process()
            time.sleep(PROCESS_EVERY)

    threading.Thread(target=run, name="muscore-process-figures", daemon=True).start()
