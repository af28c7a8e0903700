"""What a load balancer, a monitor and Prometheus read (docs/operations.md, "Watching").

`GET /healthz`: 200 when the database answers, the cache answers (or is local memory), a
worker beat within its limit and the backlog is not too old; otherwise 503. Both say, in
JSON, each check's state and figures. A few indexed queries on tiny tables: cheap enough
for a probe every second.

`GET /metrics`: Prometheus' text format: the requests by view and status and their
latency (muscore.metrics), the workers alive, the backlog and its oldest row's age, the
running version. With `MUSCORE_METRICS_TOKEN` set it asks for `Authorization: Bearer
<token>` (404 otherwise); without it, keep it off the public side of the proxy.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from typing import Any

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector

from muscore import version
from muscore.leagues import workers


def backlog_max_seconds() -> float:
    value = os.environ.get("MUSCORE_BACKLOG_MAX_SECONDS", "300")
    try:
        return float(value)
    except ValueError:
        raise ValueError(
            f"MUSCORE_BACKLOG_MAX_SECONDS must be a number of seconds, not {value!r}") from None


def _database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        # A connection that failed is not kept for the next probe.
        connection.close_if_unusable_or_obsolete()
        return {"ok": False, "error": f"{type(error).__name__}: {error}".strip()[:300]}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}


def _cache() -> dict[str, Any]:
    cache = caches["default"]
    backend = type(cache).__name__
    circuit = getattr(cache, "circuit", None)
    if circuit is not None and circuit.is_open:  # not asked until it answers (muscore.circuit)
        return {"ok": False, "backend": backend,
                "error": f"Redis failed {circuit.state()['seconds']} s ago, not answering since"}
    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is None:  # local memory: nothing that can be down
        return {"ok": True, "backend": backend}
    started = time.perf_counter()
    try:
        client(None, write=True).ping()
    except Exception as error:  # redis's ConnectionError, TimeoutError...
        return {"ok": False, "backend": backend, "error": f"{type(error).__name__}: {error}"}
    return {"ok": True, "backend": backend,
            "ms": round((time.perf_counter() - started) * 1000, 1)}


def _workers() -> dict[str, Any]:
    try:
        alive = workers.alive()
        waiting = workers.backlog()
    except DatabaseError as error:
        return {"ok": False, "error": f"{type(error).__name__}: {error}".strip()[:300]}
    limit = backlog_max_seconds()
    problems = []
    if not alive:
        problems.append(f"no worker beat in the last {workers.stale_seconds():g} s "
                        "(manage.py rating_worker)")
    if waiting.oldest_seconds > limit:
        problems.append(f"the oldest waiting work is {waiting.oldest_seconds:.0f} s old "
                        f"(limit {limit:g} s)")
    result: dict[str, Any] = {
        "ok": not problems, "alive": len(alive),
        "hosts": sorted({beat.host for beat in alive}),
        "backlog": {"ratings": waiting.ratings, "documents": waiting.documents,
                    "imports": waiting.imports},
        "oldest_seconds": round(waiting.oldest_seconds, 1)}
    if problems:
        result["error"] = "; ".join(problems)
    return result


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    database = _database()
    checks = {"database": database, "cache": _cache(),
              "workers": _workers() if database["ok"] else {"ok": False,
                                                            "error": "no database"}}
    failing = [name for name, check in checks.items() if not check["ok"]]
    return JsonResponse({"status": "fail" if failing else "ok", "failing": failing,
                         "version": version.current(), "checks": checks},
                        status=503 if failing else 200)


class WorkCollector(Collector):
    """Read at each scrape from the database: the workers and their backlog."""

    def collect(self) -> Iterator[Metric]:
        try:
            alive = workers.alive()
            waiting = workers.backlog()
        except DatabaseError:
            return
        yield GaugeMetricFamily("muscore_workers_alive",
                                "Background workers that beat within their limit.",
                                value=len(alive))
        backlog = GaugeMetricFamily("muscore_backlog", "Rows waiting for the workers.",
                                    labels=["kind"])
        backlog.add_metric(["ratings"], waiting.ratings)
        backlog.add_metric(["documents"], waiting.documents)
        backlog.add_metric(["imports"], waiting.imports)
        yield backlog
        yield GaugeMetricFamily("muscore_backlog_oldest_seconds",
                                "Age of the oldest waiting ratings or documents row.",
                                value=waiting.oldest_seconds)
        info = GaugeMetricFamily("muscore_version_info", "The running release.",
                                 labels=["version"])
        info.add_metric([version.current()], 1)
        yield info


def _requests_registry() -> CollectorRegistry:
    """The requests' figures: every gunicorn worker's summed, or this process's."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    token = os.environ.get("MUSCORE_METRICS_TOKEN", "")
    if token and not secrets.compare_digest(
            request.headers.get("Authorization", ""), f"Bearer {token}"):
        return HttpResponseNotFound()
    work = CollectorRegistry()
    work.register(WorkCollector())
    return HttpResponse(generate_latest(_requests_registry()) + generate_latest(work),
                        content_type=CONTENT_TYPE_LATEST)
