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
from datetime import timedelta
from typing import Any

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
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


class StateCollector(Collector):
    """Read at each scrape: the database's and the cache's state (what /healthz checks, as
    figures), and the tasks of the last hour from django-tasks-db's table (the workers may
    run on other machines: the table is where their figures meet)."""

    def collect(self) -> Iterator[Metric]:
        database = _database()
        yield GaugeMetricFamily("muscore_database_up", "1 when the database answers.",
                                value=int(database["ok"]))
        if database["ok"]:
            yield GaugeMetricFamily("muscore_database_ping_seconds",
                                    "Time of a SELECT 1 at the scrape.",
                                    value=database["ms"] / 1000)
            yield from _connections()
            yield from _tasks()
        cache = _cache()
        yield GaugeMetricFamily("muscore_cache_up", "1 when the cache answers.",
                                value=int(cache["ok"]))
        if cache["ok"] and "ms" in cache:
            yield GaugeMetricFamily("muscore_cache_ping_seconds",
                                    "Time of Redis' PING at the scrape.", value=cache["ms"] / 1000)
            yield from _redis_info()


def _connections() -> Iterator[Metric]:
    """PostgreSQL's open connections to this database (against its max_connections)."""
    if connection.vendor != "postgresql":
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database()")
            count = cursor.fetchone()[0]
            cursor.execute("SHOW max_connections")
            most = float(cursor.fetchone()[0])
    except DatabaseError:
        return
    yield GaugeMetricFamily("muscore_database_connections",
                            "Connections open to this database (all servers).", value=count)
    yield GaugeMetricFamily("muscore_database_max_connections",
                            "PostgreSQL's max_connections.", value=most)


# Tasks finished this long ago or less are in the duration figures.
TASK_WINDOW = 3600
QUANTILES = (0.5, 0.95, 1.0)


def _tasks() -> Iterator[Metric]:
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    try:
        waiting = list(DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).values(
            "queue_name", "status").annotate(n=Count("pk")).values_list(
            "queue_name", "status", "n"))
        finished = list(DBTaskResult.objects.filter(
            finished_at__gte=timezone.now() - timedelta(seconds=TASK_WINDOW),
            started_at__isnull=False).values_list(
            "queue_name", "status", "started_at", "finished_at"))
    except DatabaseError:
        return
    family = GaugeMetricFamily("muscore_tasks_waiting",
                               "Tasks ready or running, by queue and status.",
                               labels=["queue", "status"])
    for queue, status, count in waiting:
        family.add_metric([queue, status.lower()], count)
    yield family
    counts: dict[tuple[str, str], int] = {}
    durations: dict[str, list[float]] = {}
    for queue, status, started, ended in finished:
        if started is None or ended is None:
            continue
        counts[queue, status.lower()] = counts.get((queue, status.lower()), 0) + 1
        durations.setdefault(queue, []).append((ended - started).total_seconds())
    family = GaugeMetricFamily("muscore_tasks_finished",
                               f"Tasks finished in the last {TASK_WINDOW} s, by queue and "
                               "status.", labels=["queue", "status"])
    for (queue, status), count in sorted(counts.items()):
        family.add_metric([queue, status], count)
    yield family
    family = GaugeMetricFamily("muscore_task_duration_seconds",
                               f"Time the tasks finished in the last {TASK_WINDOW} s took, by "
                               "queue: the median, the 95th percentile and the longest.",
                               labels=["queue", "quantile"])
    for queue, times in sorted(durations.items()):
        times.sort()
        for quantile in QUANTILES:
            family.add_metric([queue, f"{quantile:g}"],
                              times[min(len(times) - 1, int(quantile * len(times)))])
    yield family


REDIS_FIGURES = {
    "keyspace_hits": ("muscore_cache_hits_total", "Redis' reads that found their key."),
    "keyspace_misses": ("muscore_cache_misses_total", "Redis' reads that did not."),
    "evicted_keys": ("muscore_cache_evicted_keys_total", "Keys Redis dropped for memory."),
    "used_memory": ("muscore_cache_memory_bytes", "Memory Redis uses."),
    "connected_clients": ("muscore_cache_clients", "Connections open to Redis (all servers)."),
}


def _redis_info() -> Iterator[Metric]:
    """The Redis cache's own counts (its INFO): hits, misses, evictions, memory, clients."""
    client = getattr(getattr(caches["default"], "_cache", None), "get_client", None)
    if client is None:
        return
    try:
        info = client(None, write=False).info()
    except Exception:  # redis's errors: the next scrape tries again
        return
    for field, (name, documentation) in REDIS_FIGURES.items():
        if field in info:
            kind = CounterMetricFamily if name.endswith("_total") else GaugeMetricFamily
            yield kind(name.removesuffix("_total"), documentation, value=info[field])


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
    # The process figures: prometheus-client's default registry has them (one process:
    # uvicorn, runserver); under gunicorn each worker writes its own in the multiprocess
    # files (muscore.metrics.record_process).
    work.register(StateCollector())
    return HttpResponse(generate_latest(_requests_registry()) + generate_latest(work),
                        content_type=CONTENT_TYPE_LATEST)
